import type { ApproversData } from '../client/intervention-data.ts';

/**
 * Where a request for a person's approval stands: `'pending'` (waiting for
 * an answer, or for more approvals under a quorum), then one of
 * `'approved'` (admitted: the call runs when the conversation resumes),
 * `'refused'` (by someone who may answer: final), `'expired'` (not answered
 * in time), `'withdrawn'` (by the person who asked, or by a new message in
 * the conversation), and `'executed'` once an approved call has run.
 *
 * @example
 * ```ts
 * const open = (status: PendingApprovalStatus) => status === 'pending';
 * ```
 */
export type PendingApprovalStatus = 'pending' | 'approved' | 'refused' | 'expired' | 'withdrawn' | 'executed';

/**
 * A request for a person's approval as the inbox shows it: the tool and its
 * arguments as people may see them (after the runtime's redactors), who
 * asked and when, who may answer and the quorum so far, when it expires,
 * the conversation it belongs to, and where it stands.
 *
 * @example
 * ```ts
 * const line = (request: PendingApproval) =>
 *   `${request.askedBy ?? 'someone'} asks to run ${request.toolName} (${request.mayAnswer ?? 'anyone may answer'})`;
 * ```
 */
export interface PendingApproval {
  /** The approval id (the `tool-approval-request`'s `approvalId`): what the inbox answers by. */
  readonly id: string;
  readonly toolCallId: string;
  readonly toolName: string;
  /** The call's arguments, as the runtime's redactors leave them for people. */
  readonly input: unknown;
  /** What the confirm asked (its prompt), as the runtime's redactors leave it for people. */
  readonly prompt?: string;
  /** The user id of the person who asked (`runtimeContext.userId` of the request that asked). */
  readonly askedBy?: string;
  /** When it was asked, in ms since the epoch (the store's clock). */
  readonly askedAt: number;
  /** When it stops taking answers (ms since the epoch); `undefined`: when the inbox forgets it. */
  readonly expiresAt?: number;
  /** Who may answer, as rules (a predicate, which only the server can run, is `allow: true`). */
  readonly approvers: readonly ApproversData[];
  /** Who may answer, in words ("a manager"); `undefined`: anyone. */
  readonly mayAnswer?: string;
  /** How many people must approve. */
  readonly quorum: number;
  /** The user ids of those who approved so far. */
  readonly approvedBy: readonly string[];
  /** The conversation it was asked in (`runtimeContext.sessionId`). */
  readonly conversationId?: string;
  readonly status: PendingApprovalStatus;
  /** Who gave the answer that closed it (refused, withdrew, or the last approval). */
  readonly answeredBy?: string;
  /** When it was closed, in ms since the epoch. */
  readonly answeredAt?: number;
  /** Why, in the words of whoever closed it (a refusal's reason), as the runtime's redactors leave it for people. */
  readonly reason?: string;
  /** The arguments the approver approved instead of the model's (an edit), as people may see them. */
  readonly editedInput?: unknown;
}
