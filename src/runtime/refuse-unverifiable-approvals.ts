import type { ModelMessage, ToolApprovalResponse, ToolModelMessage } from 'ai';
import { verifyApproval } from './approval-signature.ts';
import { signsWithGeneratedSecret } from './approval-secret.ts';
import type { CallOptions } from './call-options.ts';
import { findApprovalRequest, findToolCall } from './find-in-history.ts';
import { editableHistory } from './replay-used-approvals.ts';
import type { Run } from './run.ts';

/** The handler name of the records the runtime writes for an approval it could no longer verify. */
export const VERIFY_HANDLER = 'approval-verification';

/** Why the call was refused, as the decision record says it. */
export const UNVERIFIABLE_REASON =
  'the approval could no longer be verified: no approvalSecret is configured, and it was not signed by this server process ' +
  '(it was given before a restart or to another instance, or its call was changed), so nothing was run';

/** The runs that check their approvals (they were given {@link checkedHistory}). */
const checking = new WeakSet<Run>();

/**
 * Whether the run's input approves calls that the runtime signed with its
 * own generated secret (no `approvalSecret` configured): those are checked
 * before the SDK reads them, and one this runtime did not sign is refused
 * (see {@link refuseUnverifiableApprovals}) instead of failing the call.
 */
export function checksApprovals(run: Run, options: CallOptions): boolean {
  return run.resume.approved.size > 0 && signsWithGeneratedSecret(run.snapshot, options);
}

/**
 * The history the SDK is given for a run that checks its approvals: the
 * run's editable copy of its input (see `editableHistory`), so a response
 * can be replaced before the SDK reads it and the caller's messages are
 * never changed.
 */
export function checkedHistory(run: Run): ModelMessage[] {
  checking.add(run);
  return editableHistory(run);
}

/** Whether {@link refuseUnverifiableApprovals} has something to check for the run. */
export function hasApprovalsToCheck(run: Run): boolean {
  return checking.has(run) && run.resume.approved.size > 0;
}

/**
 * Refuses, for the person, every approved call whose request this runtime
 * cannot verify with its own generated secret: an approval given before a
 * restart, or to another instance, when no `approvalSecret` is configured
 * (without this, the SDK fails the whole call with
 * `InvalidToolApprovalSignatureError`, the UI shows "An error occurred."
 * and every retry fails the same way). The response the SDK reads becomes
 * a refusal whose reason the model reads (it may ask again, which makes a
 * new approval request the person can answer), the call ends `output-denied`
 * in the UI, and a `deny` record of {@link VERIFY_HANDLER} says why. Nothing
 * runs: a forged approval is refused the same way. Run before the edits are
 * applied (the signature binds the model's arguments).
 */
export async function refuseUnverifiableApprovals(run: Run, secret: string | Uint8Array | undefined): Promise<void> {
  const history = checking.has(run) ? editableHistory(run) : undefined;
  const last = history?.at(-1);
  if (history === undefined || secret === undefined || last?.role !== 'tool') return;
  const { resume } = run;
  for (const approval of [...resume.approved.values()]) {
    const found = findApprovalRequest(history, approval.approvalId, history.length - 1);
    const call = found && findToolCall(history, found.request.toolCallId, found.at.message + 1)?.call;
    if (found === undefined || call === undefined) continue; // the SDK rejects an approval of nothing itself
    if (call.providerExecuted === true) continue; // the provider's own approval: the SDK sends it on unverified
    const input = approval.edit === undefined ? call.input : approval.edit.original;
    const { signature } = found.request;
    const signed = { approvalId: approval.approvalId, toolCallId: call.toolCallId, toolName: call.toolName, input };
    if (signature !== undefined && (await verifyApproval(secret, signature, signed))) continue;

    const at = last.content.findIndex((part) => part.type === 'tool-approval-response' && part.approvalId === approval.approvalId);
    if (at < 0) continue;
    const refusal: ToolApprovalResponse = {
      ...(last.content[at] as ToolApprovalResponse),
      approved: false,
      reason: unverifiableText(call.toolName),
    };
    (last as ToolModelMessage).content[at] = refusal;
    resume.approved.delete(approval.toolCallId);
    resume.refused.set(approval.toolCallId, { ...approval, approved: false });
    await run.record({
      handler: VERIFY_HANDLER,
      lifecycle: 'beforeToolCall',
      action: 'deny',
      reason: UNVERIFIABLE_REASON,
      display: 'This approval could no longer be verified (the server restarted, or the call changed). Nothing was run; approve it again if it is still needed.',
      enforced: true,
      mode: 'enforce',
      durationMs: 0,
      toolCallId: approval.toolCallId,
      toolName: approval.toolName,
    });
  }
}

/** What the model reads for the refused call. */
function unverifiableText(toolName: string): string {
  return (
    `The approval of the call to "${toolName}" could no longer be verified (it was given before the server restarted, ` +
    'or to another server instance, or its call was changed), so the call was not executed. ' +
    'If it is still needed, call the tool again: the user will be asked to approve it again.'
  );
}
