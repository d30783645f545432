import type { ModelMessage } from 'ai';
import type { Run } from '../run/run.ts';
import type { CallOptions } from '../sdk/call-options.ts';
import { signApproval, verifyApproval } from './approval-signature.ts';
import { assistantParts, findApprovalRequest, findToolCall } from './find-in-history.ts';
import { editableHistory } from './replay-used-approvals.ts';
import { setSignature } from './set-signature.ts';

/** The handler name of the records the runtime writes for a confirm's answer it could not verify. */
export const VERIFY_HANDLER = 'approval-verification';

/** Why the call was refused, as the decision record says it. */
export const UNVERIFIABLE_REASON =
  "the approval could no longer be verified as the answer to this confirm: it was not signed by this server's approval secret " +
  '(it was given before a restart or to another instance without a shared approvalSecret, or its call or signature was changed), so nothing was run';

/** What the person sees for such a call (the record's `display`). */
export const UNVERIFIABLE_DISPLAY =
  'This approval could no longer be verified (the server restarted, or the call changed). Nothing was run; approve it again if it is still needed.';

/**
 * Whether the run's input approves calls that the SDK will verify with the
 * runtime's secret (the app gave no `experimental_toolApprovalSecret` of
 * its own): those are checked before the SDK reads them (see
 * {@link checkApprovals}).
 */
export function checksApprovals(run: Run, options: CallOptions): boolean {
  return run.resume.approved.size > 0 && options.experimental_toolApprovalSecret === undefined && run.signsApprovals;
}

/**
 * The history the SDK is given for a run that checks its approvals: the
 * run's editable copy of its input (see `editableHistory`), so a request
 * can be signed before the SDK reads it and the caller's messages are
 * never changed.
 */
export function checkedHistory(run: Run): ModelMessage[] {
  run.resumeState.checksApprovals = true;
  return editableHistory(run);
}

/** Whether {@link checkApprovals} has something to check for the run. */
export function hasApprovalsToCheck(run: Run): boolean {
  return run.resumeState.checksApprovals === true && run.resume.approved.size > 0;
}

/**
 * The SDK verifies every approved call with the secret the runtime gives
 * it; only the library's own confirms need that. So, before the SDK reads
 * the history, every approval whose request the runtime's secret does not
 * verify (the app's own `needsApproval` / `toolApproval` requests, which
 * the runtime leaves unsigned as the SDK does without a secret; or a
 * confirm's answer that was changed, forged, or given before a restart
 * without a shared `approvalSecret`) is signed for the arguments the
 * history holds, as the raw SDK would take it, and marked unverified
 * (`resume.unverified`). An unverified approval answers no handler's
 * `confirm`: when the handlers decide the resumed call and one confirms,
 * the call is refused for the person, typed, with a record of
 * {@link VERIFY_HANDLER} (see `run-tool-approval.ts`); nothing runs. The
 * app's own approval, which no handler confirms, runs as it would raw.
 * Run before the edits are applied (a signature binds the model's
 * arguments).
 */
export async function checkApprovals(run: Run, secret: string | Uint8Array | undefined): Promise<void> {
  const history = run.resumeState.checksApprovals === true ? editableHistory(run) : undefined;
  if (history === undefined || secret === undefined) return;
  const last = history.length - 1;
  for (const approval of run.resume.approved.values()) {
    const found = findApprovalRequest(history, approval.approvalId, last);
    const call = found && findToolCall(history, found.request.toolCallId, found.at.message + 1)?.call;
    if (found === undefined || call === undefined) continue; // the SDK rejects an approval of nothing itself
    if (call.providerExecuted === true) continue; // the provider's own approval: the SDK sends it on unverified
    const input = approval.edit === undefined ? call.input : approval.edit.original;
    const signed = { approvalId: approval.approvalId, toolCallId: call.toolCallId, toolName: call.toolName, input };
    const { signature } = found.request;
    if (signature !== undefined && (await verifyApproval(secret, signature, signed))) continue;

    run.resume.unverified.add(approval.approvalId);
    // the run's copy of the message (editableHistory): the caller's history is never changed
    const parts = assistantParts(history[found.at.message]);
    if (parts === undefined) continue;
    // for the SDK's check only: no callback, step or result reads a signature the app never had
    const request = { ...found.request };
    setSignature(request, await signApproval(secret, signed), false);
    parts[found.at.part] = request;
  }
}
