import { ANYONE_ONCE, type ConfirmTerms } from '../actions/confirm-terms.ts';
import { userIdOf } from '../actions/user-id-of.ts';
import type { ResumedApproval } from '../answers/read-resume.ts';
import { readResume } from '../answers/read-resume.ts';
import type { ApprovalPin } from '../approvals/approval-pin.ts';
import type { ApprovalState } from '../approvals/approval-state.ts';
import { mayAnswer } from '../approvals/may-answer.ts';
import { settleAnswer, settleRefusal } from '../approvals/settle-answer.ts';
import { openPinWithKeys } from '../approvals/take-answers.ts';
import { InvalidOptionError } from '../errors/invalid-option-error.ts';
import { openAnswerToken } from '../inbox/answer-token.ts';
import type { InboxRequest } from '../inbox/approval-inbox.ts';
import { answerBy, changeInInbox, viewOf } from '../inbox/close-in-inbox.ts';
import { cursorOf } from '../inbox/create-approval-inbox.ts';
import { audienceOf } from '../inbox/inbox-request-of.ts';
import type { InboxAnswerInput, InboxAnswerResult, InboxListOptions } from '../inbox/interventions-inbox.ts';
import type { PendingApproval, PendingApprovalStatus } from '../inbox/pending-approval.ts';
import type { ApprovalLedger } from '../ledger/approval-ledger.ts';
import { Run } from '../run/run.ts';
import type { RuntimeSnapshot } from '../run/runtime-snapshot.ts';
import type { InboxDeps } from './inbox-deps.ts';
import { checkGrant, grantApproval } from './inbox-grants.ts';

type RuntimeContext = Readonly<Record<string, unknown>>;

const MAX_PAGE = 100;
/** What a list may be asked for: one status, or every one. */
const LISTED: Readonly<Record<PendingApprovalStatus | 'any', true>> = {
  pending: true,
  approved: true,
  refused: true,
  expired: true,
  withdrawn: true,
  executed: true,
  any: true,
};

/** The requests a person may answer, newest first, a page at a time. */
export async function list(
  deps: InboxDeps,
  { runtimeContext, limit = 20, cursor, status = 'pending' }: InboxListOptions,
): Promise<{ readonly requests: readonly PendingApproval[]; readonly cursor: string | undefined }> {
  const person = contextOf(runtimeContext, 'inbox.list');
  const invalid = (option: string, message: string) => new InvalidOptionError({ owner: 'inbox.list', option, message });
  if (!(Number.isInteger(limit) && limit > 0 && limit <= MAX_PAGE)) {
    throw invalid('limit', `limit must be an integer from 1 to ${MAX_PAGE}, received ${String(limit)}.`);
  }
  if (typeof status !== 'string' || !Object.hasOwn(LISTED, status)) {
    throw invalid('status', `status must be one of ${Object.keys(LISTED).join(', ')}, received ${String(status)}.`);
  }
  if (cursor !== undefined && typeof cursor !== 'string') {
    throw invalid('cursor', `cursor must be the cursor of the page before (a string), received ${String(cursor)}.`);
  }
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
    const settled = await settleRefusal(state, approval, terms, pin);
    if (settled.type === 'held') return { type: 'not-allowed', request: shown, reason: settled.reason };
    // the person who asked refusing their own request withdraws it
    const own = withdrawing || (request.askedBy !== undefined && request.askedBy === userIdOf(person));
    const status = own && settled.status === 'refused' ? 'withdrawn' : settled.status;
    const after = await changeInInbox(state, id, { type: 'close', answer: answerBy(status, person, at, { reason: input.reason }) });
    return { type: settled.status === 'expired' ? 'expired' : 'refused', request: after ?? shown };
  }
  const settled = await settleAnswer(state, approval, terms, pin);
  switch (settled.type) {
    case 'approved': {
      const edit = approval.edit === undefined ? undefined : { value: approval.edit.value };
      const change = { type: 'close', answer: answerBy('approved', person, at, { reason: input.reason, edit }) } as const;
      if (settled.approvedBy !== undefined && terms.quorum > 1) await deps.inbox.noteApprovals(id, settled.approvedBy);
      const after = (await changeInInbox(state, id, change)) ?? shown;
      if (input.grant === undefined) return { type: 'approved', request: after };
      const grant = await grantApproval(deps, state, { request, options: input.grant, person, input: approval.input, at });
      return { type: 'approved', request: after, grant };
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

function contextOf(runtimeContext: unknown, owner: string): RuntimeContext {
  if (runtimeContext === null || typeof runtimeContext !== 'object' || Array.isArray(runtimeContext)) {
    throw new InvalidOptionError({
      owner,
      option: 'runtimeContext',
      message: 'runtimeContext must be the trusted runtime context of the person (an object, e.g. { userId, role }).',
    });
  }
  return runtimeContext as RuntimeContext;
}

function checkAnswer(input: InboxAnswerInput): void {
  const invalid = (option: string, message: string) => new InvalidOptionError({ owner: 'inbox.answer', option, message });
  if (input === null || typeof input !== 'object')
    throw invalid('answer', 'the answer must be an object: { approved, runtimeContext } or { approved, token }.');
  if (typeof input.approved !== 'boolean') throw invalid('approved', `approved must be true or false, received ${String(input.approved)}.`);
  if ((input.runtimeContext === undefined) === (input.token === undefined)) {
    throw invalid('runtimeContext', 'give exactly one of runtimeContext (who answers, from your session) and token (from a notification).');
  }
  if (input.token !== undefined && typeof input.token !== 'string') throw invalid('token', 'token must be a string from a notification.');
  if (input.reason !== undefined && typeof input.reason !== 'string') throw invalid('reason', 'reason must be a string.');
  if (!input.approved && input.input !== undefined) throw invalid('input', 'edited arguments (input) go only with an approval.');
  if (!input.approved && input.grant !== undefined) throw invalid('grant', 'a grant goes only with an approval.');
}

function assertNever(value: never): never {
  throw new TypeError(`Unknown answer ${JSON.stringify(value)}.`);
}
