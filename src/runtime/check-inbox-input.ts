import { InvalidOptionError } from '../errors/invalid-option-error.ts';
import type { InboxAnswerInput, InboxListOptions } from '../inbox/interventions-inbox.ts';
import type { PendingApprovalStatus } from '../inbox/pending-approval.ts';

type RuntimeContext = Readonly<Record<string, unknown>>;

/** The largest page `inbox.list` gives. */
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

/** The options of `inbox.list`, checked for JavaScript callers: the person they list for. */
export function checkListOptions({ runtimeContext, limit, cursor, status }: InboxListOptions): RuntimeContext {
  const person = contextOf(runtimeContext, 'inbox.list');
  const invalid = (option: string, message: string) => new InvalidOptionError({ owner: 'inbox.list', option, message });
  if (!(Number.isInteger(limit) && limit !== undefined && limit > 0 && limit <= MAX_PAGE)) {
    throw invalid('limit', `limit must be an integer from 1 to ${MAX_PAGE}, received ${String(limit)}.`);
  }
  if (typeof status !== 'string' || !Object.hasOwn(LISTED, status)) {
    throw invalid('status', `status must be one of ${Object.keys(LISTED).join(', ')}, received ${String(status)}.`);
  }
  if (cursor !== undefined && typeof cursor !== 'string') {
    throw invalid('cursor', `cursor must be the cursor of the page before (a string), received ${String(cursor)}.`);
  }
  return person;
}

/** A person's trusted runtime context, as a method of the inbox is given it (`owner`: which). */
export function contextOf(runtimeContext: unknown, owner: string): RuntimeContext {
  if (runtimeContext === null || typeof runtimeContext !== 'object' || Array.isArray(runtimeContext)) {
    throw new InvalidOptionError({
      owner,
      option: 'runtimeContext',
      message: 'runtimeContext must be the trusted runtime context of the person (an object, e.g. { userId, role }).',
    });
  }
  return runtimeContext as RuntimeContext;
}

/** An answer given to `inbox.answer`, checked for JavaScript callers. */
export function checkAnswer(input: InboxAnswerInput): void {
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
