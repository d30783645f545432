import { assistantParts, findApprovalRequest, findToolCall } from '../answers/find-in-history.ts';
import { VERIFY_HANDLER } from '../answers/unverified-denial.ts';
import { signApproval } from './approval-signature.ts';
import type { ApprovalState } from './approval-state.ts';
import { editableHistory } from './editable-history.ts';
import { setSignature } from './set-signature.ts';
import { verifySignature } from './verify-signature.ts';

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
 * {@link VERIFY_HANDLER}; nothing runs. The app's own approval, which no
 * handler confirms, runs as it would raw. An approval signed with one of
 * the runtime's previous keys is verified, and signed again with the
 * current key (which the SDK verifies with); a forged one never is. Run
 * before the edits are applied (a signature binds the model's arguments).
 */
export async function checkApprovals(state: ApprovalState): Promise<void> {
  const history = state.checksApprovals ? editableHistory(state) : undefined;
  const { secret } = state;
  if (history === undefined || secret === undefined) return;
  const last = history.length - 1;
  for (const approval of state.resume.approved.values()) {
    const found = findApprovalRequest(history, approval.approvalId, last);
    const call = found && findToolCall(history, found.request.toolCallId, found.at.message + 1)?.call;
    if (found === undefined || call === undefined) continue; // the SDK rejects an approval of nothing itself
    if (call.providerExecuted === true) continue; // the provider's own approval: the SDK sends it on unverified
    const input = approval.edit === undefined ? call.input : approval.edit.original;
    const signed = { approvalId: approval.approvalId, toolCallId: call.toolCallId, toolName: call.toolName, input };
    const verified = await verifySignature(state, found.request.signature, signed);
    if (verified === 'current') continue;
    // the session's copy of the message (editableHistory): the caller's history is never changed
    const parts = assistantParts(history[found.at.message]);
    if (verified === 'previous') {
      if (parts === undefined) continue;
      // a request the session made itself (an edit's) is changed where the edit reads it; the caller's is copied
      const owned = state.resume.edits.some((target) => target.request === found.request);
      const request = owned ? found.request : { ...found.request };
      setSignature(request, await signApproval(secret, signed), Object.prototype.propertyIsEnumerable.call(found.request, 'signature'));
      parts[found.at.part] = request;
      continue;
    }

    state.resume.unverified.add(approval.approvalId);
    if (parts === undefined) continue;
    // for the SDK's check only: no callback, step or result reads a signature the app never had
    // (on the request an edit reads, when the session made it: the edit signs that one again for its arguments)
    const owned = state.resume.edits.some((target) => target.request === found.request);
    const request = owned ? found.request : { ...found.request };
    setSignature(request, await signApproval(secret, signed), false);
    parts[found.at.part] = request;
  }
}
