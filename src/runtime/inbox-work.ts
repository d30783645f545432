import type { ModelMessage, ToolApprovalResponse } from 'ai';
import { ANYONE_ONCE, type ConfirmTerms } from '../actions/confirm-terms.ts';
import { userIdOf } from '../actions/user-id-of.ts';
import type { ResumedApproval } from '../answers/read-resume.ts';
import { readResume } from '../answers/read-resume.ts';
import type { ApprovalPin } from '../approvals/approval-pin.ts';
import type { ApprovalState } from '../approvals/approval-state.ts';
import { mayAnswer } from '../approvals/may-answer.ts';
import { settleAnswer, settleRefusal } from '../approvals/settle-answer.ts';
import { openPinWithKeys } from '../approvals/take-answers.ts';
import { approvalAnswer } from '../client/approval-answer.ts';
import { InvalidOptionError } from '../errors/invalid-option-error.ts';
import { openAnswerToken } from '../inbox/answer-token.ts';
import type { ApprovalInbox, InboxRequest } from '../inbox/approval-inbox.ts';
import { answerBy, changeInInbox, viewOf } from '../inbox/close-in-inbox.ts';
import { cursorOf } from '../inbox/create-approval-inbox.ts';
import { audienceOf } from '../inbox/inbox-request-of.ts';
import type { InboxAnswerInput, InboxAnswerResult, InboxListOptions } from '../inbox/interventions-inbox.ts';
import type { PendingApproval } from '../inbox/pending-approval.ts';
import type { ApprovalLedger } from '../ledger/approval-ledger.ts';
import { Run } from '../run/run.ts';
import type { RuntimeSnapshot } from '../run/runtime-snapshot.ts';

type RuntimeContext = Readonly<Record<string, unknown>>;

/** What the inbox of a runtime works with. */
export interface InboxDeps {
  readonly inbox: ApprovalInbox;
  readonly ledger: ApprovalLedger | undefined;
  readonly snapshot: () => RuntimeSnapshot;
}

const MAX_PAGE = 100;
const TOO_LATE = 'the request was answered first by someone else: this answer changed nothing';

/** The requests a person may answer, newest first, a page at a time. */
export async function list(
  deps: InboxDeps,
  { runtimeContext, limit = 20, cursor, status = 'pending' }: InboxListOptions,
): Promise<{ readonly requests: readonly PendingApproval[]; readonly cursor: string | undefined }> {
  const person = contextOf(runtimeContext, 'inbox.list');
  if (!(Number.isInteger(limit) && limit > 0 && limit <= MAX_PAGE)) {
    throw new InvalidOptionError({
      owner: 'inbox.list',
      option: 'limit',
      message: `limit must be an integer from 1 to ${MAX_PAGE}, received ${String(limit)}.`,
    });
  }
  const requests: PendingApproval[] = [];
  let last: InboxRequest | undefined;
  for await (const request of deps.inbox.list(audienceOf(person), cursor === undefined ? {} : { before: cursor })) {
    if (requests.length === limit) return { requests, cursor: last === undefined ? undefined : cursorOf(last) };
    last = request;
    if (!mayAnswerRequest(request, person)) continue;
    const shown = await observe(deps, request);
    if (status === 'any' || shown.status === status) requests.push(shown);
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
export async function answer(deps: InboxDeps, id: string, input: InboxAnswerInput): Promise<InboxAnswerResult> {
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
  if (shown.status !== 'pending') return { type: 'closed', request: shown };
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
  const at = await clock(deps.ledger);
  if (!input.approved) {
    // the person who asked refusing their own request withdraws it
    const own = request.askedBy !== undefined && request.askedBy === userIdOf(person);
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
      return { type: 'approved', request: after ?? shown };
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
  return answer(deps, id, { approved: false, ...(reason === undefined ? {} : { reason }), runtimeContext: person });
}

/**
 * A conversation's history with the answers the inbox holds for its
 * unanswered requests written in (see `InterventionsInbox.resume`).
 */
export async function resume(deps: InboxDeps, messages: readonly ModelMessage[]): Promise<ModelMessage[]> {
  const unanswered = unansweredRequests(messages);
  const copy = [...messages];
  if (unanswered.length === 0) return copy;
  const last = messages.at(-1);
  const snapshot = deps.snapshot();
  if (last?.role === 'user') {
    // the conversation moved on: its unanswered requests are withdrawn
    for (const id of unanswered) {
      const request = await deps.inbox.get(id);
      if (request === undefined || (await observe(deps, request)).status !== 'pending') continue;
      const asker = request.askedBy === undefined ? {} : { userId: request.askedBy };
      const answer = answerBy('withdrawn', asker, await clock(deps.ledger), { reason: 'a new message in the conversation' });
      await changeInInbox(stateFor(deps, snapshot, asker), id, { type: 'close', answer });
    }
    return copy;
  }
  const responses: ToolApprovalResponse[] = [];
  for (const id of unanswered) {
    const request = await deps.inbox.get(id);
    if (request === undefined) continue;
    const shown = await observe(deps, request);
    const closed = await deps.inbox.answerOf(id);
    if (closed === undefined || shown.status === 'pending') continue;
    if (closed.status === 'approved') {
      const typed = approvalAnswer({ id, approved: true, ...(closed.edit === undefined ? {} : { input: closed.edit.value }) });
      responses.push({ type: 'tool-approval-response', approvalId: id, approved: true, reason: typed.reason });
    } else {
      const reason =
        closed.reason ?? (closed.status === 'expired' ? 'The request expired unanswered.' : `The request was ${closed.status}.`);
      const typed = approvalAnswer({ id, approved: false, reason });
      responses.push({ type: 'tool-approval-response', approvalId: id, approved: false, reason: typed.reason });
    }
  }
  if (responses.length === 0) return copy;
  if (last?.role === 'tool') copy[copy.length - 1] = { ...last, content: [...last.content, ...responses] };
  else copy.push({ role: 'tool', content: responses });
  return copy;
}

/** The approval ids of the requests of a history that have no answer and no result yet. */
function unansweredRequests(messages: readonly ModelMessage[]): string[] {
  const requests = new Map<string, string>();
  const done = new Set<string>();
  for (const message of messages) {
    if (typeof message.content === 'string') continue;
    for (const part of message.content) {
      if (part.type === 'tool-approval-request') requests.set(part.approvalId, part.toolCallId);
      else if (part.type === 'tool-approval-response') done.add(part.approvalId);
      else if (part.type === 'tool-result') done.add(`call:${part.toolCallId}`);
    }
  }
  return [...requests].filter(([id, call]) => !done.has(id) && !done.has(`call:${call}`)).map(([id]) => id);
}

/** A request as people see it now; one found past its expiry unanswered is recorded so (and the app told), once. */
async function observe(deps: InboxDeps, request: InboxRequest): Promise<PendingApproval> {
  const shown = await viewOf(viewDeps(deps), request);
  if (shown.status !== 'expired' || shown.answeredAt !== undefined) return shown;
  const answer = { status: 'expired', at: request.expiresAt ?? Date.now() } as const;
  return (await changeInInbox(viewDeps(deps), request.id, { type: 'close', answer })) ?? shown;
}

/** Whether a person may answer a request, as its rules say (a predicate is the app's: judged when the answer is admitted). */
function mayAnswerRequest(request: InboxRequest, person: RuntimeContext): boolean {
  const asker = request.askedBy === undefined ? {} : { userId: request.askedBy };
  const terms: ConfirmTerms = {
    approvers: request.approvers.map(({ allow: _allow, ...rule }) => rule),
    quorum: request.quorum,
    expiresInMs: undefined,
  };
  return mayAnswer(terms, person, asker).admitted;
}

/** The terms an inbox answer is admitted under: the pin's, a predicate left for the resume (only the handler can run it). */
function inboxTerms(pin: ApprovalPin): ConfirmTerms {
  const terms = pin.terms ?? ANYONE_ONCE;
  return { ...terms, approvers: terms.approvers.map(({ allow: _allow, ...rule }) => rule) };
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
function stateFor(deps: InboxDeps, snapshot: RuntimeSnapshot, person: RuntimeContext): ApprovalState {
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
}

function assertNever(value: never): never {
  throw new TypeError(`Unknown answer ${JSON.stringify(value)}.`);
}
