import type { ApproversData } from '../client/intervention-data.ts';
import type { Store } from '../store/store.ts';
import type { InboxGrant } from './approval-grant.ts';
import type { ApprovalNotification } from './approval-notification.ts';

/**
 * A request for approval as the inbox keeps it: what {@link PendingApproval}
 * shows, plus what admitting an answer needs (the call as it was asked, and
 * its sealed pin: who asked, when, and what the confirm asked of its answer).
 *
 * @example
 * ```ts
 * const kept = async (inbox: ApprovalInbox, id: string) => (await inbox.get(id))?.toolName;
 * ```
 */
export interface InboxRequest {
  readonly id: string;
  readonly toolCallId: string;
  readonly toolName: string;
  /** The arguments as the model gave them (what the pin is sealed to). */
  readonly callInput: unknown;
  /** The arguments as people may see them. */
  readonly input: unknown;
  /** The sealed pin (see the runtime's approval secret): who asked, when, and the confirm's terms. */
  readonly pin: string;
  readonly prompt?: string;
  readonly askedBy?: string;
  readonly askedAt: number;
  readonly expiresAt?: number;
  readonly approvers: readonly ApproversData[];
  readonly mayAnswer?: string;
  readonly quorum: number;
  readonly conversationId?: string;
  /** The keys it is listed under: `user:<id>`, `role:<role>`, or `anyone`. */
  readonly audience: readonly string[];
}

/**
 * The answer that closed a request: its status, who gave it (their user id,
 * and for an approval or a refusal their trusted runtime context, which the
 * resume admits it with), when, their reason, and an approval's edit of the
 * arguments.
 *
 * @example
 * ```ts
 * const answer: InboxAnswer = { status: 'refused', by: 'mia', at: Date.now(), reason: 'Not before the release' };
 * ```
 */
export interface InboxAnswer {
  readonly status: 'approved' | 'refused' | 'expired' | 'withdrawn';
  readonly by?: string;
  readonly context?: Readonly<Record<string, unknown>>;
  readonly at: number;
  readonly reason?: string;
  /** The arguments approved instead of the model's. */
  readonly edit?: { readonly value: unknown };
}

/**
 * Where requests for approval wait for the people who answer them (see
 * {@link createApprovalInbox}): the runtime puts each request a confirm asks
 * here, with its approval id, and closes it with the answer that is
 * admitted, wherever it was given (the inbox, or the chat). `close` must be
 * atomic: of concurrent closes of one request, on any number of instances,
 * the first stands.
 *
 * @example
 * ```ts
 * const interventions = createInterventions({
 *   handlers,
 *   approvalSecret: process.env.APPROVAL_SECRET,
 *   approvalInbox: createApprovalInbox({ store: redisStore, notify: (event) => log.info(event.summary) }),
 * });
 * ```
 */
export interface ApprovalInbox {
  /** Keeps a request, listed under its audience and its conversation. */
  put(request: InboxRequest): Promise<void>;
  /** A request by approval id; `undefined`: none (or forgotten). */
  get(id: string): Promise<InboxRequest | undefined>;
  /** Closes a request with `answer`, unless it is closed already; returns the answer that stands. */
  close(id: string, answer: InboxAnswer): Promise<InboxAnswer>;
  /** The answer that closed a request; `undefined`: still open. */
  answerOf(id: string): Promise<InboxAnswer | undefined>;
  /** Notes who approved so far under a quorum (the ledger counts them; this is what people are shown). */
  noteApprovals(id: string, approvedBy: readonly string[]): Promise<void>;
  /** Who approved so far, as {@link noteApprovals} noted it. */
  approvalsOf(id: string): Promise<readonly string[]>;
  /** The requests listed under any of `audience`, newest first, from `before` (a request's `askedAt:id`) on. */
  list(audience: readonly string[], options?: { readonly before?: string }): AsyncIterable<InboxRequest>;
  /** The ids of the requests asked in a conversation, oldest first. */
  inConversation(conversationId: string): Promise<readonly string[]>;
  /** Keeps a grant, listed for the person it lets call the tool and for who granted it. */
  putGrant(grant: InboxGrant): Promise<void>;
  /** The grants listed for a person (`to:<userId>`: granted to them; `by:<userId>`: granted by them), oldest first. */
  grantsOf(holder: string): Promise<readonly InboxGrant[]>;
  /** Takes one use of a grant, atomically: the uses taken after, or `undefined` when none was left. */
  takeGrantUse(id: string, uses: number): Promise<number | undefined>;
  /** How many uses of a grant were taken. */
  usesOf(id: string): Promise<number>;
  /** Revokes a grant (`by`: who); returns who revoked it first. */
  revokeGrant(id: string, by: string): Promise<string>;
  /** Who revoked a grant; `undefined`: nobody. */
  revokedBy(id: string): Promise<string | undefined>;
  /** Told when a request is created, answered, expired or withdrawn (see {@link ApprovalNotification}). */
  readonly notify?: ((notification: ApprovalNotification) => void | Promise<void>) | undefined;
  /** How long `notify` may take before the request goes on without it (a warning says so). Default 10 s. */
  readonly notifyTimeoutMs?: number | undefined;
}

/**
 * Options of {@link createApprovalInbox}.
 *
 * @example
 * ```ts
 * const options: ApprovalInboxOptions = { store: redisStore, ttlMs: 7 * 86_400_000, notify: (event) => console.log(event.type) };
 * ```
 */
export interface ApprovalInboxOptions {
  /** Where requests live. Default: a new in-memory store (this process only). */
  readonly store?: Store;
  /** How long a request (and its answer) is kept, in ms. Default 7 days. */
  readonly ttlMs?: number;
  /** Prepended to every store key. Default `'approval-inbox:'`. */
  readonly prefix?: string;
  /**
   * Told when a request is created, answered, expired or withdrawn, with
   * what a card in a chat tool, an email or a webhook needs: who may answer,
   * a summary, and `answerToken(person)`, a signed token the inbox's
   * `answer` accepts for that request and that person. Awaited; a throw is
   * reported as a warning and never stops the request.
   */
  readonly notify?: (notification: ApprovalNotification) => void | Promise<void>;
  /** How long `notify` may take (a throw, or no answer in time, is a warning, `'inbox-notify-failed'`). Default 10 seconds. */
  readonly notifyTimeoutMs?: number;
}
