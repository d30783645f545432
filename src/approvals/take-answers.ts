import type { ToolApprovalResponse } from 'ai';
import { ANYONE_ONCE, type ConfirmTerms, hasPredicate } from '../actions/confirm-terms.ts';
import { findApprovalRequest, findToolCall } from '../answers/find-in-history.ts';
import type { ResumedApproval } from '../answers/read-resume.ts';
import { type ApprovalPin, openPin, type PinnedCall } from './approval-pin.ts';
import type { ApprovalState } from './approval-state.ts';
import { closedFirst, noteInInbox, takeInboxAnswers } from './inbox-answers.ts';
import { withPin } from './pinned-signature.ts';
import { isReplay } from './replay-used-approvals.ts';
import { setSignature } from './set-signature.ts';
import { settleAnswer, settleRefusal } from './settle-answer.ts';
import { splitPin } from './split-pin.ts';

/**
 * Takes the pins off the answered requests (approved or refused) before anything reads their
 * signatures: the SDK's own signature stays in the history the SDK is
 * given, the pin (who asked, and when) is kept by call id for
 * {@link takeAnswers}.
 */
export function takePins(state: ApprovalState): Map<string, string> {
  const tokens = new Map<string, string>();
  const history = state.history;
  if (history === undefined) return tokens;
  for (const approval of state.resume.answers) {
    const found = findApprovalRequest(history, approval.approvalId, history.length - 1);
    const { request } = found ?? {};
    if (found === undefined || request?.signature === undefined) continue;
    const { signature, token } = splitPin(request.signature);
    if (token === undefined) continue;
    tokens.set(approval.toolCallId, token);
    const visible = Object.prototype.propertyIsEnumerable.call(request, 'signature');
    // a request the decoding copied for an edit is the session's own (the edit signs it again); any other is the caller's
    if (state.resume.edits.some((target) => target.request === request)) {
      setSignature(request, signature, visible);
      continue;
    }
    const bare = { ...request };
    setSignature(bare, signature, visible);
    (history[found.at.message]?.content as unknown[])[found.at.part] = bare;
  }
  return tokens;
}

/**
 * Admits each answer of the resume, in one order, before the SDK reads the
 * history and before any handler decides again (nothing a later step can
 * refuse has an effect before it):
 *
 * 1. the request is verified: its pin (who asked, when, and what the
 *    confirm asked of its answer) opens with the runtime's key; an answer to
 *    one of the runtime's own confirms without one is refused for the person
 *    (it cannot say on whose behalf the call would run);
 * 2. expiry: an answer later than the confirm's `expiresInMs` after it was
 *    asked is recorded as expired (atomically with the ledger, on the
 *    store's clock) and nothing runs;
 * 3. who may answer: an answer from someone the confirm's `approvers` do not
 *    admit (or whom a failing predicate admits, as nobody) is held, approval
 *    or refusal: taken out of the history the SDK reads, so nothing runs,
 *    no model is called for it, and the request stays pending;
 * 4. the count: a refusal by someone who may answer is final for the request
 *    (the ledger keeps it); an approval short of the `quorum` (each person
 *    counted once, across requests and instances, for the arguments that
 *    will run) is held;
 * 5. only then do the handlers decide again on the admitted approval (as the
 *    person who asked): what they remember of it, they remember from an
 *    admitted answer; and the call executes, once.
 *
 * Every outcome leaves a record naming who asked and who answered. The
 * terms an answer is admitted under are the ones its request was asked
 * with (sealed in its pin).
 */
export async function takeAnswers(state: ApprovalState, tokens: ReadonlyMap<string, string>): Promise<void> {
  const { history, resume } = state;
  if (history === undefined || state.decide === undefined) return;
  if (state.inbox !== undefined) await takeInboxAnswers(state);
  for (const refusal of [...resume.refused.values()]) await takeRefusal(state, refusal, tokens.get(refusal.toolCallId));
  // every answer is admitted before any handler decides again (the first decision starts the run: its beforeInvocation
  // reads the answers admitted)
  const toDecide: Array<{
    approval: ResumedApproval;
    pin: ApprovalPin | undefined;
    token: string | undefined;
    own: boolean;
    first: boolean;
  }> = [];
  for (const approval of [...resume.approved.values()]) {
    if (approval.shared || isReplay(state, approval.approvalId)) continue;
    const token = tokens.get(approval.toolCallId);
    const pin = token === undefined ? undefined : await openPinWithKeys(state, token, askedCall(approval));
    if (pin !== undefined) state.askers.set(approval.toolCallId, pin.asker);
    // a request of the runtime's own is admitted under the terms it was asked with; but a predicate lives in the
    // handler (a pin keeps only that there was one): the handler asking again brings it back
    const own = pin !== undefined || ownRequest(state, approval);
    const first = own && !hasPredicate(pin?.terms);
    if (first && !(await admitted(state, approval, pin?.terms ?? ANYONE_ONCE, pin, token))) continue;
    toDecide.push({ approval, pin, token, own, first });
  }
  for (const { approval, pin, token, own, first } of toDecide) {
    const decision = await state.decide(approval, pin?.asker);
    if (first || (decision.type !== 'proceed' && decision.type !== 'transform')) continue;
    // the people rules of the handlers asking now (those with a predicate, or a request the runtime cannot tell is its own)
    const terms = decision.answered ?? pin?.terms ?? (own ? ANYONE_ONCE : undefined);
    if (terms !== undefined) await admitted(state, approval, terms, pin, token);
  }
}

/** Whether an approval is admitted under `terms`; one that is not is refused or held, with its record. */
async function admitted(
  state: ApprovalState,
  approval: ResumedApproval,
  terms: ConfirmTerms,
  pin: ApprovalPin | undefined,
  token: string | undefined,
): Promise<boolean> {
  const settled = await settleAnswer(state, approval, terms, pin);
  if (settled.type === 'refused') refuse(state, approval, settled.text);
  else if (settled.type === 'held') hold(state, approval, token);
  const standing = await noteInInbox(state, approval, settled);
  // an approval racing a final answer given in the inbox (a refusal, a withdrawal) on another instance: the answer that
  // closed the request first stands, and what runs is what the inbox shows
  if (settled.type === 'approved' && standing !== undefined && standing.status !== 'approved' && standing.status !== 'executed') {
    if (terms.approvers.length > 0 || terms.quorum > 1 || standing.status === 'withdrawn') {
      refuse(state, approval, await closedFirst(state, approval, standing));
      return false;
    }
  }
  return settled.type === 'approved';
}

/**
 * A person's refusal: admitted as an approval is (one from someone the
 * approvers do not admit is held, one from an approver of a confirm bound to
 * people is final), and the model reads their reason with the guides'
 * feedback they were shown (kept in the request's pin), as a typed
 * refusal's wording says it.
 */
async function takeRefusal(state: ApprovalState, refusal: ResumedApproval, token: string | undefined): Promise<void> {
  if (token === undefined || refusal.problem !== undefined) return;
  const pin = await openPinWithKeys(state, token, askedCall(refusal));
  if (pin === undefined) return;
  state.askers.set(refusal.toolCallId, pin.asker);
  const settled = await settleRefusal(state, refusal, pin.terms ?? ANYONE_ONCE, pin);
  await noteInInbox(state, refusal, settled);
  if (settled.type === 'held') {
    state.resume.refused.delete(refusal.toolCallId);
    hold(state, refusal, token);
    return;
  }
  const { guidance } = pin;
  const response = responseOf(state, refusal);
  if (guidance === undefined || guidance.length === 0 || response === undefined) return;
  response.reason = state.wording.rejectedCall({ toolCall: refusal, reason: refusal.reason, guidance });
}

/** The call as it was asked about: the model's arguments (or a transform's), before a person's edit. */
export function askedCall(approval: ResumedApproval): { readonly toolCallId: string; readonly toolName: string; readonly input: unknown } {
  const input = approval.edit === undefined ? approval.input : approval.edit.original;
  return { toolCallId: approval.toolCallId, toolName: approval.toolName, input };
}

/** Refuses an approved answer for the person: nothing runs, and the model reads `text`. */
function refuse(state: ApprovalState, approval: ResumedApproval, text: string): void {
  const response = responseOf(state, approval);
  if (response !== undefined) {
    response.approved = false;
    response.reason = text;
  }
  state.resume.approved.delete(approval.toolCallId);
  state.resume.refused.set(approval.toolCallId, approval);
}

/** Takes an answer out of the history the SDK reads: its request (with its pin, `token`) stays pending. */
function hold(state: ApprovalState, approval: ResumedApproval, token: string | undefined): void {
  const history = state.history ?? [];
  const last = history.at(-1);
  const found = findApprovalRequest(history, approval.approvalId, history.length - 1);
  const call = found && findToolCall(history, found.request.toolCallId, found.at.message + 1);
  if (last?.role === 'tool') {
    const at = last.content.findIndex((part) => part.type === 'tool-approval-response' && part.approvalId === approval.approvalId);
    if (at >= 0) last.content.splice(at, 1);
  }
  state.resume.approved.delete(approval.toolCallId);
  if (found !== undefined && call !== undefined) {
    const { signature } = found.request;
    const pinned = signature === undefined || token === undefined ? signature : withPin(signature, token);
    state.held.push({ approval, request: { ...found.request, ...(pinned === undefined ? {} : { signature: pinned }) }, call: call.call });
  }
}

/** The approval response of the history's last message answering `approval`. */
function responseOf(state: ApprovalState, approval: ResumedApproval): ToolApprovalResponse | undefined {
  const last = state.history?.at(-1);
  if (last?.role !== 'tool') return undefined;
  return last.content.find(
    (part): part is ToolApprovalResponse => part.type === 'tool-approval-response' && part.approvalId === approval.approvalId,
  );
}

/** A pin opened with the runtime's key, or one of its previous keys (an `approvalSecret` list). */
export async function openPinWithKeys(state: ApprovalState, token: string, call: PinnedCall): Promise<ApprovalPin | undefined> {
  for (const key of [state.runtimeSecret, ...state.previousSecrets]) {
    const pin = await openPin(key, token, call);
    if (pin !== undefined) return pin;
  }
  return undefined;
}

/**
 * Whether an answer's request is one of the runtime's own confirms though it
 * carries no pin: signed by the runtime's secret, which signs no other
 * request (the app's own requests lose that signature). A request stripped
 * of its pin is then refused, never run as whoever answers it.
 */
function ownRequest(state: ApprovalState, approval: ResumedApproval): boolean {
  if (state.checksApprovals !== true || state.resume.unverified.has(approval.approvalId)) return false;
  // a provider's own approval (a provider-executed tool) is checked by nobody here: the SDK sends it on
  const history = state.history ?? [];
  const found = findApprovalRequest(history, approval.approvalId, history.length - 1);
  const call = found && findToolCall(history, found.request.toolCallId, found.at.message + 1);
  return call !== undefined && call.call.providerExecuted !== true;
}
