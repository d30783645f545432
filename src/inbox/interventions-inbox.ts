import type { ModelMessage } from 'ai';
import type { ApprovalGrant, GrantOptions } from './approval-grant.ts';
import type { PendingApproval, PendingApprovalStatus } from './pending-approval.ts';

/**
 * An answer given from the inbox: approve (optionally with edited
 * arguments, `input`) or refuse with a reason, by the person whose trusted
 * `runtimeContext` your session gives, or by whoever holds a signed
 * `token` from a notification (exactly one of the two).
 *
 * @example
 * ```ts
 * const answer: InboxAnswerInput = { approved: false, reason: 'Not before the release', runtimeContext: { userId: 'mia', role: 'manager' } };
 * ```
 */
export interface InboxAnswerInput {
  readonly approved: boolean;
  /** Why, in the person's words: a refusal's reason reaches the model. */
  readonly reason?: string;
  /** Approve these arguments instead of the model's (validated against the tool's schema when the conversation resumes). */
  readonly input?: unknown;
  /** Who answers: their trusted runtime context. */
  readonly runtimeContext?: Readonly<Record<string, unknown>>;
  /** Who answers: a token from a notification's `answerToken` (bound to the request and a person, expiring with it). */
  readonly token?: string;
  /**
   * Turn the approval into a grant: later calls of the same tool with exactly
   * the approved arguments, by the person who asked, run without asking, up
   * to `uses` times within `ttlMs` (see {@link ApprovalGrant}). Only with
   * `approved: true`, for a request one person may approve.
   */
  readonly grant?: GrantOptions;
}

/**
 * What became of an answer given from the inbox, with the request as it
 * stands after it: `'approved'` (admitted: the call runs once when its
 * conversation resumes), `'refused'` (final), `'waiting'` (an approval
 * counted under a quorum), `'not-allowed'` (this person may not answer it:
 * nothing changed; `reason` says who may), `'expired'` (too late, recorded
 * so), `'closed'` (answered, expired or withdrawn before), `'not-found'`
 * (no such request that this person may see).
 *
 * @example
 * ```ts
 * const said = (result: InboxAnswerResult) => (result.type === 'not-found' ? 'No such request' : `${result.type}: ${result.request.toolName}`);
 * ```
 */
export type InboxAnswerResult =
  | {
      readonly type: 'approved' | 'refused' | 'waiting' | 'not-allowed' | 'expired' | 'closed';
      readonly request: PendingApproval;
      readonly reason?: string;
      /** The grant an approval was turned into (`grant`). */
      readonly grant?: ApprovalGrant;
    }
  | { readonly type: 'not-found' };

/**
 * Options of {@link InterventionsInbox.list}.
 *
 * @example
 * ```ts
 * const options: InboxListOptions = { runtimeContext: { userId: 'mia', role: 'manager' }, limit: 20 };
 * ```
 */
export interface InboxListOptions {
  /** Whose inbox: the requests this person may answer (their trusted runtime context). */
  readonly runtimeContext: Readonly<Record<string, unknown>>;
  /** Page size. Default 20, at most 100. */
  readonly limit?: number;
  /** Where the page starts: the `cursor` of the page before. */
  readonly cursor?: string;
  /** Which requests. Default `'pending'`: those still waiting. */
  readonly status?: PendingApprovalStatus | 'any';
}

/**
 * The approval inbox of a runtime (`interventions.inbox`): the requests a
 * person may answer, newest first; one request by id; answering it
 * (admitted exactly as an answer given in the chat: the same rules, in the
 * same order, with the same records); withdrawing it; and the history of a
 * conversation with the answers given here, so the requester's next request
 * continues without carrying them.
 *
 * @example
 * ```ts
 * const manager = { userId: 'mia', role: 'manager' };
 * const { requests } = await interventions.inbox.list({ runtimeContext: manager });
 * for (const request of requests) {
 *   await interventions.inbox.answer(request.id, { approved: true, runtimeContext: manager });
 * }
 * ```
 */
export interface InterventionsInbox {
  /** The requests `runtimeContext` may answer, newest first, a page at a time (`cursor`: the next page; `undefined`: the last). */
  list(options: InboxListOptions): Promise<{ readonly requests: readonly PendingApproval[]; readonly cursor: string | undefined }>;
  /** One request, for someone who may answer it or who asked it; `undefined` otherwise. */
  get(id: string, options: { readonly runtimeContext: Readonly<Record<string, unknown>> }): Promise<PendingApproval | undefined>;
  /** Answers a request by id (see {@link InboxAnswerInput}). */
  answer(id: string, answer: InboxAnswerInput): Promise<InboxAnswerResult>;
  /** Withdraws a request: only the person who asked it (`runtimeContext`). */
  withdraw(
    id: string,
    options: { readonly runtimeContext: Readonly<Record<string, unknown>>; readonly reason?: string },
  ): Promise<InboxAnswerResult>;
  /**
   * A conversation's history with the answers the inbox holds for its
   * requests (approvals, refusals, expiries, withdrawals) written in as
   * `tool-approval-response`s, so the run that gets it continues as if the
   * client had sent them; a history whose last message is a new user
   * message withdraws its unanswered requests instead, and gives each of
   * their calls a denial as its result before that message (every call
   * the model is sent has a result). The caller's messages are not changed.
   */
  resume(messages: readonly ModelMessage[]): Promise<ModelMessage[]>;
  /** The grants given to a person or by them (`runtimeContext`), newest first, with how many uses are left and where each stands. */
  grants(options: { readonly runtimeContext: Readonly<Record<string, unknown>> }): Promise<readonly ApprovalGrant[]>;
  /** Revokes a grant: the person who gave it or the person it was given to. Returns it as it stands after; `undefined`: no such grant of theirs. */
  revoke(id: string, options: { readonly runtimeContext: Readonly<Record<string, unknown>> }): Promise<ApprovalGrant | undefined>;
}
