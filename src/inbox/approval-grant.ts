import type { ApproversData } from '../client/intervention-data.ts';

/**
 * An approval turned into a grant (`interventions.inbox.answer(id, {
 * approved: true, grant })`): later calls of the same tool with the same
 * arguments, by the person who asked (in the same conversation, when it
 * says so), run without asking, for a time and a number of uses. Never
 * wider than what was asked: the exact arguments approved, for the asker
 * only, and only while the person who granted it may still answer such a
 * request. As the inbox shows it: `status` is `'active'`, `'used-up'`,
 * `'expired'` or `'revoked'`.
 *
 * @example
 * ```ts
 * const line = (grant: ApprovalGrant) =>
 *   `${grant.grantedBy} lets ${grant.grantedTo} run ${grant.toolName} ${grant.uses - grant.used} more time(s)`;
 * ```
 */
export interface ApprovalGrant {
  readonly id: string;
  /** The approval it was granted from. */
  readonly approvalId: string;
  readonly toolName: string;
  /** The arguments it allows (exactly these), as people may see them. */
  readonly input: unknown;
  /** The user id of the person it lets call the tool (who asked). */
  readonly grantedTo: string;
  /** The conversation it holds in; `undefined`: every conversation of `grantedTo`. */
  readonly conversationId?: string;
  /** The user id of who granted it. */
  readonly grantedBy: string;
  readonly grantedAt: number;
  readonly expiresAt: number;
  /** How many calls it allows, and how many it has allowed. */
  readonly uses: number;
  readonly used: number;
  readonly status: 'active' | 'used-up' | 'expired' | 'revoked';
  readonly revokedBy?: string;
}

/**
 * What an approver grants with an approval: how many later calls (`uses`),
 * for how long (`ttlMs`), and whether only in the conversation it was asked
 * in (`conversation`, default `true`).
 *
 * @example
 * ```ts
 * const grant: GrantOptions = { uses: 3, ttlMs: 60 * 60_000 };
 * ```
 */
export interface GrantOptions {
  /** How many later calls it allows (1 to 1000). */
  readonly uses: number;
  /** How long it holds, in ms (at most 30 days). */
  readonly ttlMs: number;
  /** Only in the conversation the request was asked in. Default `true`. */
  readonly conversation?: boolean;
}

/**
 * A grant as the inbox keeps it: {@link ApprovalGrant}'s fields that do not
 * change, plus the arguments as given (`callInput`, what a call is matched
 * against) and the trusted runtime context of who granted it (each use is
 * admitted under the request's rules as theirs).
 *
 * @example
 * ```ts
 * const holder = (grant: InboxGrant) => grant.grantedTo;
 * ```
 */
export interface InboxGrant extends Omit<ApprovalGrant, 'used' | 'status' | 'revokedBy'> {
  readonly callInput: unknown;
  readonly grantedByContext: Readonly<Record<string, unknown>>;
  /** The confirm's terms when it was granted (who may answer, as data): a use checks the grantor is still admitted. */
  readonly approvers: readonly ApproversData[];
}
