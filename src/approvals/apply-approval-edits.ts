import { runtimeDenial } from '../actions/decision-record.ts';
import { ANSWER_HANDLER, type EditTarget, unreadable } from '../answers/decode-answers.ts';
import type { ResumedApproval } from '../answers/read-resume.ts';
import { EDIT_HANDLER, validateEdit } from '../answers/validate-edit.ts';
import { isDeepEqual } from '../data/is-deep-equal.ts';
import { getOwn } from '../util/get-own.ts';
import { signApproval } from './approval-signature.ts';
import type { ApprovalState } from './approval-state.ts';
import { checkApprovals } from './check-approvals.ts';
import { isReplay, replayUsedApprovals } from './replay-used-approvals.ts';
import { verifySignature } from './verify-signature.ts';

/**
 * Prepares what the input resumes before the SDK reads it (once per
 * session): checks the approvals against the secret, shows used approvals as
 * they ran, records the typed answers the runtime could not read, then
 * checks each edit of an approved call.
 *
 * An edit is validated against the tool's input schema; arguments that are
 * not valid refuse the call (the model reads why, and the call keeps the
 * model's arguments). Valid ones are written into the history's tool call
 * and, when the session has a secret, signed again with it, but only if the
 * original request's signature is valid for the model's arguments: a forged
 * approval is never re-signed, and the SDK's own check rejects it as it
 * would without the edit.
 *
 * It never throws: whatever goes wrong refuses the call.
 */
export async function applyApprovalEdits(state: ApprovalState): Promise<void> {
  const { resume } = state;
  // before the edits and the replays: a signature binds the model's arguments
  await checkApprovals(state);
  // a used approval shows what ran, whatever this answer says
  await replayUsedApprovals(state);
  for (const answer of resume.answers) {
    if (answer.problem !== undefined && !isReplay(state, answer.approvalId)) {
      await state.record(runtimeDenial(answer, ANSWER_HANDLER, unreadable(answer.problem)), answer.input);
    }
  }
  for (const target of resume.edits) {
    if (isReplay(state, target.approvalId)) continue;
    const approval = resume.approved.get(target.call.toolCallId);
    if (approval === undefined || approval.approvalId !== target.approvalId) continue;
    let problem: string | undefined;
    try {
      problem = await applyEdit(state, target, approval);
    } catch (error) {
      problem = `the edited arguments could not be checked (${error instanceof Error ? error.message : String(error)})`;
    }
    if (problem === undefined) continue;
    // refused for the person: nothing runs, the history keeps the model's arguments
    target.call.input = target.edit.original;
    approval.input = target.edit.original;
    target.response.approved = false;
    target.response.reason = state.wording.deniedToolCall({ toolCall: approval, reason: problem, handler: EDIT_HANDLER });
    resume.approved.delete(approval.toolCallId);
    resume.refused.set(approval.toolCallId, approval);
    await state.record(runtimeDenial(approval, EDIT_HANDLER, problem), approval.input);
  }
}

/** Checks, writes and signs one edit; why it is refused, or `undefined`. */
async function applyEdit(state: ApprovalState, target: EditTarget, approval: ResumedApproval): Promise<string | undefined> {
  const { call, request, edit } = target;
  const validation = await validateEdit(getOwn(state.tools, call.toolName), call.toolName, edit.value);
  if (!validation.ok) return validation.problem;
  // as the SDK records a parsed call: the validated arguments, and what was validated when they differ
  call.input = validation.value;
  approval.input = validation.value;
  if (isDeepEqual(validation.value, edit.value)) delete request.inputSchemaInput;
  else request.inputSchemaInput = edit.value;
  const { secret } = state;
  if (secret === undefined || request.signature === undefined) return undefined;
  const signed = { approvalId: request.approvalId, toolCallId: call.toolCallId, toolName: call.toolName };
  if ((await verifySignature(state, request.signature, { ...signed, input: edit.original })) !== undefined) {
    request.signature = await signApproval(secret, { ...signed, input: call.input });
  }
  return undefined;
}
