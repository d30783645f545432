import { ANYONE_ONCE, type ConfirmTerms } from '../actions/confirm-terms.ts';
import { userIdOf } from '../actions/user-id-of.ts';
import type { ResumedApproval } from '../answers/read-resume.ts';
import { readResume } from '../answers/read-resume.ts';
import type { ApprovalPin } from '../approvals/approval-pin.ts';
import type { ApprovalState } from '../approvals/approval-state.ts';
import { mayAnswer } from '../approvals/may-answer.ts';
import { settleAnswer, settleRefusal } from '../approvals/settle-answer.ts';
import { openPinWithKeys } from '../approvals/take-answers.ts';
import { openAnswerToken } from '../inbox/answer-token.ts';
import type { InboxRequest } from '../inbox/approval-inbox.ts';
import { answerBy, changeInInbox, viewOf } from '../inbox/close-in-inbox.ts';
import { cursorOf } from '../inbox/create-approval-inbox.ts';
import { audienceOf } from '../inbox/inbox-request-of.ts';
import type { InboxAnswerInput, InboxAnswerResult, InboxListOptions } from '../inbox/interventions-inbox.ts';
import type { PendingApproval } from '../inbox/pending-approval.ts';
import type { ApprovalLedger } from '../ledger/approval-ledger.ts';
import { Run } from '../run/run.ts';
import type { RuntimeSnapshot } from '../run/runtime-snapshot.ts';
import { checkAnswer, checkListOptions, contextOf } from './check-inbox-input.ts';
import type { InboxDeps } from './inbox-deps.ts';
import { checkGrant, grantApproval } from './inbox-grants.ts';

type RuntimeContext = Readonly<Record<string, unknown>>;

const TOO_LATE = 'the request was answered first by someone else: this answer changed nothing';

/** The requests a person may answer, newest first, a page at a time. */
export async function list(
  deps: InboxDeps,
  { runtimeContext, limit = 20, cursor, status = 'pending' }: InboxListOptions,
): Promise<{ readonly requests: readonly PendingApproval[]; readonly cursor: string | undefined }> {
  const person = checkListOptions({ runtimeContext, limit, cursor, status });
  const requests: PendingApproval[] = [];
  for await (const request of deps.inbox.list(audienceOf(person), cursor === undefined ? {} : { before: cursor })) {
    if (!mayAnswerRequest(request, person)) continue;
    const shown = await observe(deps, request);
    if (status !== 'any' && shown.status !== status) continue;
    // a cursor only when a next page has a request: after the last one listed
    const last = requests.at(-1);
    if (requests.length === limit && last !== undefined) return { requests, cursor: cursorOf(last) };
    requests.push(shown);
  }
  return { requests, cursor: undefined };
}

/** One request, for someone who may answer it or who asked it. */
export async function get(deps: InboxDeps, id: string, runtimeContext: RuntimeContext): Promise<PendingApproval | undefined> {
  const person = contextOf(runtimeContext, 'inbox.get');
  const request = await deps.inbox.get(id);
  if (request === undefined) return undefined;
  const asker = request.askedBy !== undefined && request.askedBy === userIdOf(person);
  if (!asker && !mayAnswerRequest(request, person)) return undefined;
  return observe(deps, request);
}

/**
 * Answers a request by id: admitted exactly as an answer in the chat is
 * (`settleAnswer` / `settleRefusal`: expiry, who may answer, a final
 * refusal, the quorum, in that order, with the same records), as the person
 * whose context is given (or whom a signed token names).
 */
export async function answer(
  deps: InboxDeps,
  id: string,
  input: InboxAnswerInput,
  { withdrawing = false }: { readonly withdrawing?: boolean } = {},
): Promise<InboxAnswerResult> {
  checkAnswer(input);
  const request = await deps.inbox.get(id);
  if (request === undefined) return { type: 'not-found' };
  const snapshot = deps.snapshot();
  const keys = [snapshot.approvalSecret, ...snapshot.previousApprovalSecrets];
  let person: RuntimeContext;
  if (input.token !== undefined) {
    const claims = await openAnswerToken(keys, input.token, id, await clock(deps.ledger));
    if (claims === undefined) {
      const reason = 'the answer token is not valid for this request (changed, for another request, or expired): nothing changed';
      return { type: 'not-allowed', request: await observe(deps, request), reason };
    }
    person = claims.person;
  } else {
    person = contextOf(input.runtimeContext, 'inbox.answer');
  }
  const shown = await observe(deps, request);
  if (shown.status !== 'pending') return { type: shown.status === 'expired' ? 'expired' : 'closed', request: shown };
  if (input.grant !== undefined) checkGrant(request, input.grant, person);
  const state = stateFor(deps, snapshot, person);
  const pin = await openPinWithKeys(state, request.pin, {
    toolCallId: request.toolCallId,
    toolName: request.toolName,
    input: request.callInput,
  });
  if (pin === undefined) {
    const reason =
      'the request was sealed with a key this server does not have (approvalSecret): it can be answered only where it was asked';
    return { type: 'not-allowed', request: shown, reason };
  }
  const approval = approvalOf(request, input);
  const terms = inboxTerms(pin);
  if (terms === undefined) {
    const reason =
      "who may answer this request is decided by the app's own test (allow), which only its handler can run: answer it in the chat";
    return { type: 'not-allowed', request: shown, reason };
  }
  const at = await clock(deps.ledger);
  if (!input.approved) {
    // the person who asked refusing their own request withdraws it
    const own = withdrawing || (request.askedBy !== undefined && request.askedBy === userIdOf(person));
    if (!own && !refusalAdmitted(terms, person, pin)) {
      const held = await settleRefusal(state, approval, terms, pin);
      return { type: 'not-allowed', request: shown, reason: held.type === 'held' ? held.reason : undefined };
    }
    // an admitted refusal closes the request before the ledger keeps it final: of an approval and a refusal racing
    // on several instances, the one that closed the request stands, and the other changes nothing
    const status = request.expiresAt !== undefined && request.expiresAt <= at ? 'expired' : own ? 'withdrawn' : 'refused';
    const closing = answerBy(status, person, at, { reason: input.reason });
    const after = await changeInInbox(state, id, { type: 'close', answer: closing });
    if (after !== undefined && !(after.status === status && after.answeredAt === at && after.answeredBy === closing.by)) {
      return { type: 'closed', request: after, reason: TOO_LATE };
    }
    const settled = await settleRefusal(state, approval, terms, pin);
    if (settled.type === 'held') return { type: 'not-allowed', request: shown, reason: settled.reason };
    return { type: settled.status === 'expired' ? 'expired' : 'refused', request: after ?? shown };
  }
  const settled = await settleAnswer(state, approval, terms, pin);
  switch (settled.type) {
    case 'approved': {
      const edit = approval.edit === undefined ? undefined : { value: approval.edit.value };
      const change = { type: 'close', answer: answerBy('approved', person, at, { reason: input.reason, edit }) } as const;
      if (settled.approvedBy !== undefined && terms.quorum > 1) await deps.inbox.noteApprovals(id, settled.approvedBy);
      const after = await changeInInbox(state, id, change);
      // closed otherwise first (a refusal on another instance): this approval changed nothing
      if (after !== undefined && after.status !== 'approved' && after.status !== 'executed') {
        return { type: 'closed', request: after, reason: TOO_LATE };
      }
      if (input.grant === undefined) return { type: 'approved', request: after ?? shown };
      const grant = await grantApproval(deps, state, { request, options: input.grant, person, input: approval.input, at });
      return { type: 'approved', request: after ?? shown, grant };
    }
    case 'held': {
      if (settled.approvedBy === undefined) return { type: 'not-allowed', request: shown, reason: settled.reason };
      const after = await changeInInbox(state, id, { type: 'count', approvedBy: settled.approvedBy });
      return { type: 'waiting', request: after ?? shown, reason: settled.reason };
    }
    case 'refused': {
      const expired = (await observe(deps, request)).status === 'expired' || (request.expiresAt !== undefined && request.expiresAt <= at);
      if (expired) {
        const after = await changeInInbox(state, id, { type: 'close', answer: answerBy('expired', person, at) });
        return { type: 'expired', request: after ?? shown, reason: settled.reason };
      }
      return { type: 'closed', request: await observe(deps, request), reason: settled.reason };
    }
    default:
      return assertNever(settled);
  }
}

/** Whether a refusal from `person` is admitted as final, as `settleRefusal` admits it: the rules admit them (counted by user id under a quorum). */
function refusalAdmitted(terms: ConfirmTerms, person: RuntimeContext, pin: ApprovalPin): boolean {
  return mayAnswer(terms, person, pin.asker).admitted && (terms.quorum <= 1 || userIdOf(person) !== undefined);
}

/** Withdraws a request: only its asker (the refusal of the person who asked, admitted as in the chat). */
export async function withdraw(
  deps: InboxDeps,
  id: string,
  runtimeContext: RuntimeContext,
  reason: string | undefined,
): Promise<InboxAnswerResult> {
  const person = contextOf(runtimeContext, 'inbox.withdraw');
  const request = await deps.inbox.get(id);
  if (request === undefined) return { type: 'not-found' };
  if (request.askedBy === undefined || request.askedBy !== userIdOf(person)) {
    return { type: 'not-allowed', request: await observe(deps, request), reason: 'only the person who asked may withdraw a request' };
  }
  return withdrawAs(deps, request, person, reason);
}

/** The asker's refusal of their own request: admitted as in the chat (final where the rules bind people), recorded withdrawn. */
export function withdrawAs(
  deps: InboxDeps,
  request: InboxRequest,
  asker: RuntimeContext,
  reason: string | undefined,
): Promise<InboxAnswerResult> {
  return answer(
    deps,
    request.id,
    { approved: false, ...(reason === undefined ? {} : { reason }), runtimeContext: asker },
    { withdrawing: true },
  );
}

/** A request as people see it now; one found past its expiry unanswered is recorded so (and the app told), once. */
export async function observe(deps: InboxDeps, request: InboxRequest): Promise<PendingApproval> {
  const shown = await viewOf(viewDeps(deps), request);
  if (shown.status !== 'expired' || shown.answeredAt !== undefined) return shown;
  const answer = { status: 'expired', at: request.expiresAt ?? Date.now() } as const;
  return (await changeInInbox(viewDeps(deps), request.id, { type: 'close', answer })) ?? shown;
}

/** Whether a person may answer a request, as its rules say (a predicate is the app's: judged when the answer is admitted). */
function mayAnswerRequest(request: InboxRequest, person: RuntimeContext): boolean {
  const asker = request.askedBy === undefined ? {} : { userId: request.askedBy };
  const approvers = withoutPredicates(request.approvers);
  return approvers !== undefined && mayAnswer({ approvers, quorum: request.quorum, expiresInMs: undefined }, person, asker).admitted;
}

/**
 * Who may answer, as the inbox can judge it: a rule's user ids and roles
 * (its predicate, which only the handler can run, is judged again when the
 * answer is admitted on resume); `undefined` when a rule has nothing but a
 * predicate: the inbox cannot tell who may answer, and admits nobody (the
 * request is answered in the chat).
 */
function withoutPredicates<RULE extends { readonly allow?: unknown; readonly userIds?: unknown; readonly roles?: unknown }>(
  rules: readonly RULE[],
): Omit<RULE, 'allow'>[] | undefined {
  if (rules.some((rule) => rule.allow !== undefined && rule.userIds === undefined && rule.roles === undefined)) return undefined;
  return rules.map(({ allow: _allow, ...rule }) => rule);
}

/** The terms an inbox answer is admitted under: the pin's, a predicate left for the resume (only the handler can run it). */
function inboxTerms(pin: ApprovalPin): ConfirmTerms | undefined {
  const terms = pin.terms ?? ANYONE_ONCE;
  const approvers = withoutPredicates(terms.approvers);
  return approvers === undefined ? undefined : { ...terms, approvers };
}

function approvalOf(request: InboxRequest, input: InboxAnswerInput): ResumedApproval {
  const edited = input.approved && input.input !== undefined;
  return {
    approvalId: request.id,
    toolCallId: request.toolCallId,
    toolName: request.toolName,
    input: edited ? input.input : request.callInput,
    approved: input.approved,
    reason: input.reason,
    remember: 'once',
    typed: true,
    edit: edited ? { value: input.input, original: request.callInput } : undefined,
    problem: undefined,
    shared: false,
  };
}

/** The approval state an inbox answer is admitted with: the runtime's keys and ledger, records kept as the runtime keeps them. */
export function stateFor(deps: InboxDeps, snapshot: RuntimeSnapshot, person: RuntimeContext): ApprovalState {
  const run = Run.detached(snapshot, undefined, person);
  return {
    resume: readResume([], snapshot.wording),
    wording: snapshot.wording,
    tools: undefined,
    ledger: deps.ledger,
    runtimeSecret: snapshot.approvalSecret,
    previousSecrets: snapshot.previousApprovalSecrets,
    record: (record, input) => run.record(record, input),
    requests: { own: new Set(), foreign: new Set() },
    pins: new Map(),
    askers: new Map(),
    expiries: new Map(),
    held: [],
    approver: person,
    inbox: deps.inbox,
    forPeople: snapshot.handlers.forPeople,
  };
}

function viewDeps(deps: InboxDeps) {
  return { inbox: deps.inbox, ledger: deps.ledger, forPeople: deps.snapshot().handlers.forPeople };
}

function clock(ledger: ApprovalLedger | undefined): Promise<number> {
  return ledger?.now === undefined ? Promise.resolve(Date.now()) : ledger.now();
}

function assertNever(value: never): never {
  throw new TypeError(`Unknown answer ${JSON.stringify(value)}.`);
}
