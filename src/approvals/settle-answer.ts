import { type ConfirmTerms, whoMayAnswer } from '../actions/confirm-terms.ts';
import type { ApprovalRecord, DecisionRecord } from '../actions/decision-record.ts';
import { userIdOf } from '../actions/user-id-of.ts';
import type { ResumedApproval } from '../answers/read-resume.ts';
import { unverifiedDenial } from '../answers/unverified-denial.ts';
import { sha256, stableJson } from '../data/stable-json.ts';
import { durationOf } from '../util/duration-of.ts';
import type { ApprovalPin } from './approval-pin.ts';
import type { ApprovalState } from './approval-state.ts';
import { type Admission, mayAnswer } from './may-answer.ts';

/** The handler names of the records the runtime writes for what became of a person's answer. */
export const APPROVERS_HANDLER = 'approval-approvers';
export const QUORUM_HANDLER = 'approval-quorum';
export const EXPIRY_HANDLER = 'approval-expiry';

/** What becomes of an answer to a confirm: it runs, it is refused (the model reads `text`), or it waits. */
export type SettledAnswer =
  | { readonly type: 'approved'; readonly approvedBy?: readonly string[] }
  | { readonly type: 'refused'; readonly handler: string; readonly reason: string; readonly text: string }
  | {
      readonly type: 'held';
      readonly handler: string;
      readonly reason: string;
      readonly text: string;
      /** Under a quorum: who approved so far. */
      readonly approvedBy?: readonly string[];
    };

/**
 * Who answered: the person the inbox admitted the answer from (a resume
 * carries it for them), else the request that carries it.
 */
export function answererOf(state: ApprovalState, approval: ResumedApproval): Readonly<Record<string, unknown>> {
  return state.fromInbox?.get(approval.approvalId) ?? state.approver ?? {};
}

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
  const approver = answererOf(state, approval);
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
    if (trivial && people.askedBy === undefined && people.answeredBy === undefined) return { type: 'approved' };
    const reason = `Approved by ${outcome.approvedBy.join(', ') || 'the person who answered'}; the call runs on behalf of ${people.askedBy ?? 'the person who asked'}.`;
    await keep(
      state,
      approval,
      { handler: APPROVERS_HANDLER, action: 'proceed', reason },
      { ...people, status: 'approved', approvedBy: outcome.approvedBy },
    );
    return { type: 'approved', approvedBy: outcome.approvedBy };
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
  if (outcome.type === 'refused') {
    const reason = `${outcome.refusedBy} refused this request before, which is final: this approval from ${people.answeredBy ?? 'someone without a user id'} counts for nothing, and nothing was run`;
    const display = `${outcome.refusedBy} refused this. Nothing was run.`;
    await keep(state, approval, { handler: APPROVERS_HANDLER, action: 'deny', reason, display }, { ...people, status: 'refused' });
    return {
      type: 'refused',
      handler: APPROVERS_HANDLER,
      reason,
      text: `The call to "${approval.toolName}" was refused by ${outcome.refusedBy} and was not executed. Do not call it again unless the user asks.`,
    };
  }
  const who = whoMayAnswer(terms);
  const [handler, status, reason, display] =
    outcome.type === 'not-allowed'
      ? ([
          APPROVERS_HANDLER,
          'not-allowed',
          notAllowed(people.answeredBy, who, outcome.failure, 'approval'),
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
  return { type: 'held', handler, reason, text, ...(outcome.type === 'awaiting-quorum' ? { approvedBy: outcome.approvedBy } : {}) };
}

type Judged =
  | {
      readonly type: 'approved';
      readonly approvedBy: readonly string[];
      /** When the approval expires: the claim that runs the call is checked against it again, atomically. */
      readonly expiry: { readonly expiresAt: number; readonly expiresInMs: number } | undefined;
    }
  | { readonly type: 'expired'; readonly expiresInMs: number }
  | { readonly type: 'not-allowed'; readonly failure?: string | undefined }
  | { readonly type: 'refused'; readonly refusedBy: string }
  | { readonly type: 'awaiting-quorum'; readonly approvedBy: readonly string[] };

/**
 * What the confirm's terms make of one answer, in the order of admission:
 * expired (on the store's clock), not the right person (a predicate that
 * fails admits nobody), refused before by someone who may answer (final),
 * short of its quorum (the votes count for the arguments that will run: an
 * edit starts a count of its own), or approved.
 */
async function judge(
  state: ApprovalState,
  approval: ResumedApproval,
  terms: ConfirmTerms,
  pin: ApprovalPin,
  approver: Readonly<Record<string, unknown>>,
): Promise<Judged> {
  const { ledger } = state;
  // an answer the inbox admitted was given in time: its expiry was judged when it was given
  const inTime = state.fromInbox?.has(approval.approvalId) === true;
  const expiry =
    terms.expiresInMs === undefined || inTime ? undefined : { expiresAt: pin.askedAt + terms.expiresInMs, expiresInMs: terms.expiresInMs };
  if (expiry !== undefined) {
    const { expiresAt } = expiry;
    if (await expiredNow(state, approval, expiresAt)) return { type: 'expired', expiresInMs: expiry.expiresInMs };
  }
  const answeredBy = userIdOf(approver);
  const admission = admits(terms, approver, pin);
  if (!admission.admitted) return { type: 'not-allowed', failure: admission.failure };
  const refusedBy = bindsPeople(terms) ? await ledger?.refusedBy?.(approval.approvalId) : undefined;
  if (refusedBy !== undefined) return { type: 'refused', refusedBy };
  if (terms.quorum <= 1) return { type: 'approved', approvedBy: answeredBy === undefined ? [] : [answeredBy], expiry };
  // several people count only through a ledger that counts them
  if (answeredBy === undefined || ledger?.vote === undefined) return { type: 'not-allowed' };
  const approvedBy = await ledger.vote(await votesFor(approval), answeredBy);
  return approvedBy.length >= terms.quorum ? { type: 'approved', approvedBy, expiry } : { type: 'awaiting-quorum', approvedBy };
}

/**
 * Whether a person may answer under `terms`: the approvers admit them, and
 * under a quorum they are known (each approver is counted by user id: someone
 * without one can neither approve nor refuse for the count).
 */
function admits(terms: ConfirmTerms, approver: Readonly<Record<string, unknown>>, pin: ApprovalPin): Admission {
  const admission = mayAnswer(terms, approver, pin.asker);
  if (admission.admitted && terms.quorum > 1 && userIdOf(approver) === undefined) {
    return { admitted: false, failure: 'a quorum counts each approver by user id, and the answering request has none' };
  }
  return admission;
}

/** Whether an answer comes at or after `expiresAt`: the ledger decides on the store's clock, atomically with claims; without one, this server's clock. */
function expiredNow(state: ApprovalState, approval: ResumedApproval, expiresAt: number): Promise<boolean> {
  const { ledger } = state;
  return ledger?.expired === undefined ? Promise.resolve(Date.now() >= expiresAt) : ledger.expired(approval.approvalId, expiresAt);
}

/** Whether a confirm's terms bind its answer to people: who may answer, or a quorum (a refusal by one of them is final). */
function bindsPeople(terms: ConfirmTerms): boolean {
  return terms.approvers.length > 0 || terms.quorum > 1;
}

/** What a quorum's votes are counted under: the approval, and a person's edit of the arguments a count of its own. */
async function votesFor(approval: ResumedApproval): Promise<string> {
  if (approval.edit === undefined) return approval.approvalId;
  let input: string;
  try {
    input = stableJson(approval.input);
  } catch {
    input = String(approval.input);
  }
  return `${approval.approvalId}:edit:${await sha256(input)}`;
}

/** Why an answer from `answeredBy` is not admitted (`who` may answer; `failure`: why the rules admitted nobody, when they say). */
function notAllowed(
  answeredBy: string | undefined,
  who: string | undefined,
  failure: string | undefined,
  kind: 'approval' | 'refusal',
): string {
  const person = answeredBy ?? 'someone without a user id';
  const needs = who === undefined ? '' : ` (it needs ${who})`;
  const why = failure === undefined ? '' : `; ${failure}`;
  return `${person} may not answer this request${needs}${why}: their ${kind} was not used, nothing was run, and the request waits for the right person`;
}

/**
 * What becomes of a person's refusal of a confirm that asks `terms` of its
 * answer, asked by the request `pin` names, with its record written: one
 * from someone the approvers do not admit is held (the request stays
 * pending for the right person, and no model is called for it); one from
 * an approver of a confirm bound to people, or from the person who asked
 * (withdrawing it), is final for its request (the ledger keeps it: an
 * approval given later counts for nothing). A refusal
 * of a confirm that asks nothing of people stands as it is (the person may
 * ask again).
 */
export async function settleRefusal(
  state: ApprovalState,
  refusal: ResumedApproval,
  terms: ConfirmTerms,
  pin: ApprovalPin,
): Promise<SettledRefusal> {
  if (!bindsPeople(terms)) return { type: 'refused', status: 'refused' };
  const approver = answererOf(state, refusal);
  const people = { askedBy: userIdOf(pin.asker), answeredBy: userIdOf(approver) };
  // too late to answer: the request is over, recorded as expired (a refusal stands, and runs nothing)
  if (terms.expiresInMs !== undefined && (await expiredNow(state, refusal, pin.askedAt + terms.expiresInMs))) {
    await state.record(expiryRecord(refusal, terms.expiresInMs, people), refusal.input);
    return { type: 'refused', status: 'expired' };
  }
  // the person who asked may always withdraw their request (it runs nothing): final, as an approver's refusal
  const withdrawn = people.askedBy !== undefined && people.answeredBy === people.askedBy;
  const admission: Admission = withdrawn ? { admitted: true } : admits(terms, approver, pin);
  const who = whoMayAnswer(terms);
  if (!admission.admitted) {
    const reason = notAllowed(people.answeredBy, who, admission.failure, 'refusal');
    const display = `Only ${who ?? 'someone else'} may answer this. It is still waiting.`;
    await keep(
      state,
      refusal,
      { handler: APPROVERS_HANDLER, action: 'confirm', reason, display },
      { ...people, status: 'not-allowed', ...(who === undefined ? {} : { mayAnswer: who }) },
    );
    const text = `The call to "${refusal.toolName}" was not executed yet: ${display} Do not call it again; the person will be asked.`;
    return { type: 'held', handler: APPROVERS_HANDLER, reason, text };
  }
  const refusedBy =
    (await state.ledger?.refuse?.(refusal.approvalId, people.answeredBy ?? 'someone without a user id')) ?? people.answeredBy;
  const reason = withdrawn
    ? `Withdrawn by ${refusedBy ?? 'the person who asked'}, who asked it, which is final for this request: nothing was run.`
    : `Refused by ${refusedBy ?? 'the person who answered'}, which is final for this request: nothing was run.`;
  await keep(state, refusal, { handler: APPROVERS_HANDLER, action: 'deny', reason }, { ...people, status: 'refused' });
  return { type: 'refused', status: withdrawn ? 'withdrawn' : 'refused' };
}

/** What became of a refusal: it stands (refused by someone who may answer, withdrawn by who asked, or too late), or it waits. */
export type SettledRefusal =
  | { readonly type: 'refused'; readonly status: 'refused' | 'withdrawn' | 'expired' }
  | Extract<SettledAnswer, { readonly type: 'held' }>;

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
