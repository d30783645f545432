import type { Run } from '../run/run.ts';
import { recordDenial } from '../tool-call/deny-call.ts';
import { getOwn } from '../util/get-own.ts';
import { isDeepEqual } from '../util/is-deep-equal.ts';
import { safeValidateTypes } from '../util/validate-types.ts';
import { signApproval, verifyApproval } from './approval-signature.ts';
import { checkApprovals, hasApprovalsToCheck } from './check-approvals.ts';
import { ANSWER_HANDLER, type EditTarget, unreadable } from './decode-answers.ts';
import type { ResumedApproval } from './read-resume.ts';
import { isReplay, replayUsedApprovals, resumeReadsLedger } from './replay-used-approvals.ts';

/** The handler name of the records the runtime writes for a person's edit it refused. */
export const EDIT_HANDLER = 'approval-edit';

/**
 * Prepares what the input resumes before the SDK reads it (once per run):
 * records the typed answers the runtime could not read, then checks each
 * edit of an approved call.
 *
 * An edit is validated against the tool's input schema; arguments that are
 * not valid refuse the call (the model reads why, and the call keeps the
 * model's arguments). Valid ones are written into the history's tool call
 * and, when the run signs approvals, signed again with the same secret, but
 * only if the original request's signature is valid for the model's
 * arguments: a forged approval is never re-signed, and the SDK's own check
 * rejects it as it would without the edit.
 *
 * It never throws: whatever goes wrong refuses the call.
 */

/**
 * Checks, writes and signs the edits of the approvals the input resumes,
 * and records the answers that could not be read: once per run, before the
 * SDK reads the history. `undefined` when there is nothing to prepare.
 */
export function prepareResume(run: Run, secret: string | Uint8Array | undefined): Promise<void> | undefined {
  if (!resumeNeedsPreparing(run)) return undefined;
  run.resumeState.prepared ??= applyApprovalEdits(run, secret);
  const preparing = run.resumeState.prepared;
  return preparing;
}

/** Whether the input resumes edits to check, or answers that could not be read. */
export function resumeNeedsPreparing(run: Run): boolean {
  return (
    run.resume.edits.length > 0 ||
    run.resume.answers.some((answer) => answer.problem !== undefined) ||
    resumeReadsLedger(run) ||
    hasApprovalsToCheck(run)
  );
}

export async function applyApprovalEdits(run: Run, secret: string | Uint8Array | undefined): Promise<void> {
  const { resume } = run;
  // before the edits and the replays: a signature binds the model's arguments
  await checkApprovals(run, secret);
  // a used approval shows what ran, whatever this answer says
  await replayUsedApprovals(run, secret);
  for (const answer of resume.answers) {
    if (answer.problem !== undefined && !isReplay(run, answer.approvalId)) {
      await recordDenial(run, answer, ANSWER_HANDLER, unreadable(answer.problem));
    }
  }
  for (const target of resume.edits) {
    if (isReplay(run, target.approvalId)) continue;
    const approval = resume.approved.get(target.call.toolCallId);
    if (approval === undefined || approval.approvalId !== target.approvalId) continue;
    let problem: string | undefined;
    try {
      problem = await applyEdit(run, target, approval, secret);
    } catch (error) {
      problem = `the edited arguments could not be checked (${error instanceof Error ? error.message : String(error)})`;
    }
    if (problem === undefined) continue;
    // refused for the person: nothing runs, the history keeps the model's arguments
    target.call.input = target.edit.original;
    approval.input = target.edit.original;
    target.response.approved = false;
    target.response.reason = run.snapshot.wording.deniedToolCall({ toolCall: approval, reason: problem, handler: EDIT_HANDLER });
    resume.approved.delete(approval.toolCallId);
    resume.refused.set(approval.toolCallId, approval);
    await recordDenial(run, approval, EDIT_HANDLER, problem);
  }
}

/** Checks, writes and signs one edit; why it is refused, or `undefined`. */
async function applyEdit(
  run: Run,
  target: EditTarget,
  approval: ResumedApproval,
  secret: string | Uint8Array | undefined,
): Promise<string | undefined> {
  const { call, request, edit } = target;
  const tool = getOwn(run.tools, call.toolName);
  if (tool === undefined) return `there is no tool named "${call.toolName}" to run with the edited arguments`;
  const validation = await safeValidateTypes({ value: structuredClone(edit.value), schema: tool.inputSchema });
  if (!validation.success) {
    return `the edited arguments are not valid for "${call.toolName}": ${issuesOf(validation.error)}`;
  }
  // as the SDK records a parsed call: the validated arguments, and what was validated when they differ
  call.input = validation.value;
  approval.input = validation.value;
  if (isDeepEqual(validation.value, edit.value)) delete request.inputSchemaInput;
  else request.inputSchemaInput = edit.value;
  if (secret === undefined || request.signature === undefined) return undefined;
  const signed = { approvalId: request.approvalId, toolCallId: call.toolCallId, toolName: call.toolName };
  if (await verifyApproval(secret, request.signature, { ...signed, input: edit.original })) {
    request.signature = await signApproval(secret, { ...signed, input: call.input });
  }
  return undefined;
}

/** A validation error as one short line: `path: message` per issue (Standard Schema), or its message. */
function issuesOf(error: Error): string {
  const issues: unknown = (error.cause as { issues?: unknown } | undefined)?.issues;
  if (!Array.isArray(issues) || issues.length === 0) return error.message;
  return issues
    .map((issue: { message?: unknown; path?: ReadonlyArray<PropertyKey | { key: PropertyKey }> }) => {
      const path = (issue.path ?? []).map((key) => String(typeof key === 'object' ? key.key : key)).join('.');
      return `${path === '' ? '(arguments)' : path}: ${String(issue.message)}`;
    })
    .join('; ');
}
