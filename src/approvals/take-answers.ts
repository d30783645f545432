import type { ToolApprovalResponse } from 'ai';
import { ANYONE_ONCE, type ConfirmTerms, whoMayAnswer } from '../actions/confirm-terms.ts';
import type { ApprovalRecord, DecisionRecord } from '../actions/decision-record.ts';
import { userIdOf } from '../actions/user-id-of.ts';
import { durationOf } from '../util/duration-of.ts';
import { type ApprovalPin, openPin, type PinnedCall } from './approval-pin.ts';
import type { ApprovalState } from './approval-state.ts';
import { findApprovalRequest, findToolCall } from './find-in-history.ts';
import { mayAnswer } from './may-answer.ts';
import { withPin } from './pinned-signature.ts';
import type { ResumedApproval } from './read-resume.ts';
import { isReplay } from './replay-used-approvals.ts';
import { setSignature } from './set-signature.ts';
import { splitPin } from './split-pin.ts';
import { unverifiedDenial } from './unverified-denial.ts';

/** The handler names of the records the runtime writes for what became of a person's answer. */
export const APPROVERS_HANDLER = 'approval-approvers';
export const QUORUM_HANDLER = 'approval-quorum';
export const EXPIRY_HANDLER = 'approval-expiry';

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
 * What the people rules make of each approved answer, before the SDK reads
 * the history: its call is decided again (as the person who asked, when the
 * answer's pin says who), and when the decision answers a confirm:
 *
 * - an answer without a pin this server opens is refused for the person
 *   (it cannot say on whose behalf the call would run);
 * - an answer later than the confirm's `expiresInMs` after it was asked is
 *   recorded as expired (atomically with the ledger, on the store's clock)
 *   and nothing runs;
 * - an answer from someone the confirm's `approvers` do not admit, or one of
 *   fewer approvals than its `quorum` (each person counted once, across
 *   requests and instances, through the ledger), is held: its response is
 *   taken out of the history the SDK reads, so nothing runs and the request
 *   stays pending for the right person;
 * - an approved answer runs on behalf of the person who asked.
 *
 * Every outcome leaves a record naming who asked and who answered.
 */
export async function takeAnswers(state: ApprovalState, tokens: ReadonlyMap<string, string>): Promise<void> {
  const { history, resume } = state;
  if (history === undefined || state.decide === undefined) return;
  for (const refusal of resume.refused.values()) await withGuidance(state, refusal, tokens.get(refusal.toolCallId));
  for (const approval of [...resume.approved.values()]) {
    if (approval.shared || isReplay(state, approval.approvalId)) continue;
    const token = tokens.get(approval.toolCallId);
    const pin = token === undefined ? undefined : await openPinWithKeys(state, token, askedCall(approval));
    if (pin !== undefined) state.askers.set(approval.toolCallId, pin.asker);
    const decision = await state.decide(approval, pin?.asker);
    if (decision.type !== 'proceed' && decision.type !== 'transform') continue; // it does not run whatever the answer
    // what the confirms ask of the answer: a handler asking again says it now, else the pin keeps what they asked
    const terms = decision.answered ?? pin?.terms ?? (ownRequest(state, approval) ? ANYONE_ONCE : undefined);
    // it answered no confirm of ours (the app's own approval): the SDK's to take
    if (terms === undefined) continue;
    const settled = await settleAnswer(state, approval, terms, pin);
    if (settled.type === 'refused') refuse(state, approval, settled.text);
    else if (settled.type === 'held') hold(state, approval, token);
  }
}

/**
 * A person's refusal of a confirm that outranked guides: the model reads
 * their reason with the guides' feedback they were shown (kept in the
 * request's pin), as a typed refusal's wording says it.
 */
async function withGuidance(state: ApprovalState, refusal: ResumedApproval, token: string | undefined): Promise<void> {
  if (token === undefined || refusal.problem !== undefined) return;
  const guidance = (await openPinWithKeys(state, token, askedCall(refusal)))?.guidance;
  const response = responseOf(state, refusal);
  if (guidance === undefined || guidance.length === 0 || response === undefined) return;
  response.reason = state.wording.rejectedCall({ toolCall: refusal, reason: refusal.reason, guidance });
}

/** The call as it was asked about: the model's arguments (or a transform's), before a person's edit. */
export function askedCall(approval: ResumedApproval): { readonly toolCallId: string; readonly toolName: string; readonly input: unknown } {
  const input = approval.edit === undefined ? approval.input : approval.edit.original;
  return { toolCallId: approval.toolCallId, toolName: approval.toolName, input };
}

/** What becomes of an answer to a confirm: it runs, it is refused (the model reads `text`), or it waits. */
export type SettledAnswer =
  | { readonly type: 'approved' }
  | { readonly type: 'refused'; readonly handler: string; readonly reason: string; readonly text: string }
  | { readonly type: 'held'; readonly handler: string; readonly reason: string; readonly text: string };

/**
 * What the people rules make of one person's answer to a confirm that asks
 * `terms` of it, asked by the request `pin` names (see {@link takeAnswers}),
 * with its record written: the same for the wrappers (which hold an answer
 * in the history) and for tools guarded without a run (which refuse it,
 * having no history of their own).
 */
export async function settleAnswer(
  state: ApprovalState,
  approval: ResumedApproval,
  terms: ConfirmTerms,
  pin: ApprovalPin | undefined,
  { pinRequired = true }: { readonly pinRequired?: boolean } = {},
): Promise<SettledAnswer> {
  const approver = state.approver ?? {};
  const people = { askedBy: userIdOf(pin?.asker), answeredBy: userIdOf(approver) };
  const trivial = terms.approvers.length === 0 && terms.quorum <= 1 && terms.expiresInMs === undefined;
  if (pin === undefined && !pinRequired && trivial) return { type: 'approved' };
  if (pin === undefined) {
    const denial = unverifiedDenial(approval.toolName);
    const reason =
      'the approval carries no record of who asked it that this server can read, so it cannot run on their behalf and nothing was run';
    await keep(state, approval, { handler: denial.handler, action: 'deny', reason, display: denial.display }, people);
    return { type: 'refused', handler: denial.handler, reason, text: denial.text };
  }
  const outcome = await judge(state, approval, terms, pin, approver);
  if (outcome.type === 'approved') {
    if (outcome.expiry !== undefined) state.expiries.set(approval.approvalId, outcome.expiry);
    // who asked and who answered, when there is anyone to name or any rule that was applied
    if (trivial && people.askedBy === undefined && people.answeredBy === undefined) return outcome;
    const reason = `Approved by ${outcome.approvedBy.join(', ') || 'the person who answered'}; the call runs on behalf of ${people.askedBy ?? 'the person who asked'}.`;
    await keep(
      state,
      approval,
      { handler: APPROVERS_HANDLER, action: 'proceed', reason },
      { ...people, status: 'approved', approvedBy: outcome.approvedBy },
    );
    return outcome;
  }
  if (outcome.type === 'expired') {
    const record = expiryRecord(approval, outcome.expiresInMs, people);
    await state.record(record, approval.input);
    return {
      type: 'refused',
      handler: EXPIRY_HANDLER,
      reason: record.reason ?? '',
      text: expiredText(approval.toolName, outcome.expiresInMs),
    };
  }
  const who = whoMayAnswer(terms);
  const [handler, status, reason, display] =
    outcome.type === 'not-allowed'
      ? ([
          APPROVERS_HANDLER,
          'not-allowed',
          `${people.answeredBy ?? 'someone without a user id'} may not answer this request${who === undefined ? '' : ` (it needs ${who})`}: nothing was run, and the request waits for the right person`,
          `Only ${who ?? 'someone else'} may approve this. It is still waiting.`,
        ] as const)
      : ([
          QUORUM_HANDLER,
          'awaiting-quorum',
          `${outcome.approvedBy.length} of ${terms.quorum} approvals (${outcome.approvedBy.join(', ')}): nothing was run, and the request waits for more approvals`,
          `${outcome.approvedBy.length} of ${terms.quorum} approvals so far. It is still waiting.`,
        ] as const);
  await keep(
    state,
    approval,
    { handler, action: 'confirm', reason, display },
    {
      ...people,
      status,
      ...(who === undefined ? {} : { mayAnswer: who }),
      ...(terms.quorum > 1 ? { quorum: terms.quorum, approvedBy: outcome.type === 'awaiting-quorum' ? outcome.approvedBy : [] } : {}),
    },
  );
  const text = `The call to "${approval.toolName}" was not executed yet: ${display} Do not call it again; the person will be asked.`;
  return { type: 'held', handler, reason, text };
}

type Judged =
  | {
      readonly type: 'approved';
      readonly approvedBy: readonly string[];
      /** When the approval expires: the claim that runs the call is checked against it again, atomically. */
      readonly expiry: { readonly expiresAt: number; readonly expiresInMs: number } | undefined;
    }
  | { readonly type: 'expired'; readonly expiresInMs: number }
  | { readonly type: 'not-allowed' }
  | { readonly type: 'awaiting-quorum'; readonly approvedBy: readonly string[] };

/** What the confirm's terms make of one answer: expired, not the right person, short of its quorum, or approved. */
async function judge(
  state: ApprovalState,
  approval: ResumedApproval,
  terms: ConfirmTerms,
  pin: ApprovalPin,
  approver: Readonly<Record<string, unknown>>,
): Promise<Judged> {
  const { ledger } = state;
  const expiry =
    terms.expiresInMs === undefined ? undefined : { expiresAt: pin.askedAt + terms.expiresInMs, expiresInMs: terms.expiresInMs };
  if (expiry !== undefined && terms.expiresInMs !== undefined) {
    const { expiresAt } = expiry;
    // the ledger decides on the store's clock, atomically with claims; without one, this server's clock
    const expired = ledger?.expired === undefined ? Date.now() >= expiresAt : await ledger.expired(approval.approvalId, expiresAt);
    if (expired) return { type: 'expired', expiresInMs: terms.expiresInMs };
  }
  const answeredBy = userIdOf(approver);
  if (!mayAnswer(terms, approver, pin.asker)) return { type: 'not-allowed' };
  if (terms.quorum <= 1) return { type: 'approved', approvedBy: answeredBy === undefined ? [] : [answeredBy], expiry };
  // several people count only when each is known, and only through a ledger that counts them
  if (answeredBy === undefined || ledger?.vote === undefined) return { type: 'not-allowed' };
  const approvedBy = await ledger.vote(approval.approvalId, answeredBy);
  return approvedBy.length >= terms.quorum ? { type: 'approved', approvedBy, expiry } : { type: 'awaiting-quorum', approvedBy };
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

/** Keeps the runtime's record of what became of an answer, naming who asked and who answered. */
function keep(
  state: ApprovalState,
  approval: ResumedApproval,
  {
    handler,
    action,
    reason,
    display,
  }: { readonly handler: string; readonly action: 'proceed' | 'deny' | 'confirm'; readonly reason: string; readonly display?: string },
  people: ApprovalRecord,
): Promise<void> {
  const approvalInfo = withoutUndefined(people);
  const record: DecisionRecord = {
    handler,
    lifecycle: 'beforeToolCall',
    action,
    reason,
    ...(display === undefined ? {} : { display }),
    enforced: true,
    mode: 'enforce',
    durationMs: 0,
    toolCallId: approval.toolCallId,
    toolName: approval.toolName,
    approval: approvalInfo,
  };
  return state.record(record, approval.input);
}

/** What the model reads for a call whose approval expired. */
export function expiredText(toolName: string, expiresInMs: number): string {
  return (
    `The approval of the call to "${toolName}" expired (it had to be given within ${durationOf(expiresInMs)} of the request), ` +
    'so the call was not executed. If it is still needed, call the tool again: the user will be asked again.'
  );
}

/** The record of an answer given after its approval expired: recorded as expired, not as a refusal. */
export function expiryRecord(approval: ResumedApproval, expiresInMs: number, people: ApprovalRecord = {}): DecisionRecord {
  return {
    handler: EXPIRY_HANDLER,
    lifecycle: 'beforeToolCall',
    action: 'deny',
    reason: `the approval was given after it expired (${durationOf(expiresInMs)} after it was asked), so nothing was run`,
    display: 'This approval expired. Nothing was run.',
    enforced: true,
    mode: 'enforce',
    durationMs: 0,
    toolCallId: approval.toolCallId,
    toolName: approval.toolName,
    approval: withoutUndefined<ApprovalRecord>({ ...people, status: 'expired', expiresInMs }),
  };
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as T;
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
