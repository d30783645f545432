import type { JSONValue } from '@ai-sdk/provider';
import type { AssistantModelMessage, ModelMessage, ToolApprovalRequest, ToolApprovalResponse, ToolModelMessage } from 'ai';
import { findApprovalRequest, findToolCall, type PartAt } from '../answers/find-in-history.ts';
import type { ResumedApproval } from '../answers/read-resume.ts';
import { signApproval } from './approval-signature.ts';
import type { ApprovalState } from './approval-state.ts';
import { setSignature } from './set-signature.ts';
import { verifySignature } from './verify-signature.ts';

/** Whether the input answers approvals the ledger can say are used (then they are looked up before the SDK reads them). */
export function resumeReadsLedger(state: ApprovalState): boolean {
  return state.resume.answers.length > 0 && state.ledger?.outcomeOf !== undefined;
}

/** Whether `approvalId` was found used: its call is answered from the ledger. */
export function isReplay(state: ApprovalState, approvalId: string): boolean {
  return state.replays?.has(approvalId) === true;
}

/**
 * A replay shows what ran: for each answer of the input whose approval the
 * ledger says was executed, whatever the answer says now (another edit, a
 * refusal), the history the SDK reads is rewritten to the answer that ran:
 * the call holds the arguments it ran with, its request is signed for them
 * (only when its signature is valid for the arguments the history gave it:
 * a forged request is never signed), and the response approves it; the
 * call is then answered from the ledger, as the first resume's result
 * (see {@link replaysOverriddenAnswer} for whether it is decided again). The
 * next request and `responseMessages` read exactly as the first resume's.
 */
export async function replayUsedApprovals(state: ApprovalState): Promise<void> {
  const { ledger, history, secret } = state;
  if (ledger?.outcomeOf === undefined || history === undefined) return;
  const last = history.length - 1;
  for (const answer of state.resume.answers) {
    const outcome = await ledger.outcomeOf(answer.approvalId);
    if (outcome === undefined) continue;
    const found = findApprovalRequest(history, answer.approvalId, last);
    const call = found && findToolCall(history, found.request.toolCallId, found.at.message + 1);
    const responseAt = responseOf(history, answer.approvalId);
    if (found === undefined || call === undefined || responseAt === undefined) continue;

    const original = answer.edit === undefined ? call.call.input : answer.edit.original;
    const input: unknown = outcome.input === undefined ? original : (outcome.input satisfies JSONValue);
    const request: ToolApprovalRequest = { ...found.request };
    delete request.inputSchemaInput;
    let { signature } = found.request; // read whether the app can see it or not (see check-approvals.ts)
    if (secret !== undefined && signature !== undefined) {
      const signed = { approvalId: request.approvalId, toolCallId: call.call.toolCallId, toolName: call.call.toolName };
      if ((await verifySignature(state, signature, { ...signed, input: original })) !== undefined)
        signature = await signApproval(secret, { ...signed, input });
    }
    if (signature !== undefined) setSignature(request, signature, Object.prototype.propertyIsEnumerable.call(found.request, 'signature'));
    const response: ToolApprovalResponse = { ...responseAt.response, approved: true };
    delete response.reason;
    replace(history, call.at, { ...call.call, input });
    replace(history, found.at, request);
    replace(history, responseAt.at, response);

    const replayed: ResumedApproval = { ...answer, input, approved: true, reason: undefined, edit: undefined, problem: undefined };
    state.resume.refused.delete(answer.toolCallId);
    state.resume.approved.set(answer.toolCallId, replayed);
    state.replays ??= new Map();
    state.replays.set(answer.approvalId, saysOtherThanApproval(answer));
  }
}

/**
 * Whether an answer says something else than a plain approval (an edit, a
 * refusal, an answer that cannot be read): sent again for a used approval,
 * it is answered from the ledger without deciding again, since no answer
 * and no handler can change what already ran. A plain approval sent again
 * is decided again, as every resume is (a deny on resume still wins, and
 * its records say so).
 */
export function saysOtherThanApproval(answer: ResumedApproval): boolean {
  return !answer.approved || answer.edit !== undefined || answer.problem !== undefined;
}

/** The approval response of the history's last (tool) message answering `approvalId`. */
function responseOf(history: readonly ModelMessage[], approvalId: string): { response: ToolApprovalResponse; at: PartAt } | undefined {
  const message = history.length - 1;
  const last = history[message];
  if (last?.role !== 'tool') return undefined;
  const part = last.content.findIndex((item) => item.type === 'tool-approval-response' && item.approvalId === approvalId);
  return part < 0 ? undefined : { response: last.content[part] as ToolApprovalResponse, at: { message, part } };
}

/** Puts `part` at `at`, in a content array of the editable history. */
function replace(history: ModelMessage[], at: PartAt, part: unknown): void {
  ((history[at.message] as AssistantModelMessage | ToolModelMessage).content as unknown[])[at.part] = part;
}
