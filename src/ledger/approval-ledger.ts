import type { JSONValue } from '@ai-sdk/provider';
import type { Store } from '../store/store.ts';

/**
 * What executing an approved call came to, as recorded for its replays:
 * the tool's result as the model reads it (a JSON value), or the error text
 * the model read; with the arguments the call ran with (`input`, the
 * person's edit when there was one), so a replay shows the model what ran
 * whatever its own answer says. `readAsJson`: the model read `output` as a
 * JSON value although JSON made it a string (the tool returned a `Date`),
 * so a replay gives it the same way.
 *
 * @example
 * ```ts
 * const outcome: ApprovalOutcome = { type: 'result', output: { deleted: '/tmp/x' }, input: { path: '/tmp/x' } };
 * const failed: ApprovalOutcome = { type: 'error', text: 'Error: disk full' };
 * ```
 */
export type ApprovalOutcome =
  | { readonly type: 'result'; readonly output: JSONValue; readonly readAsJson?: boolean; readonly input?: JSONValue }
  | { readonly type: 'error'; readonly text: string; readonly input?: JSONValue };

/**
 * The answer of {@link ApprovalLedger.claim}: `'claimed'`, the caller (and
 * no other) executes the call now and then records its outcome; `'done'`,
 * the call was executed, here is its outcome; `'running'`, another request
 * is executing it now ({@link ApprovalLedger.waitFor} its outcome).
 *
 * @example
 * ```ts
 * const claim: ApprovalClaim = await ledger.claim(approvalId);
 * if (claim.type === 'done') console.log('executed before:', claim.outcome);
 * ```
 */
export type ApprovalClaim =
  | { readonly type: 'claimed' }
  | { readonly type: 'running' }
  | { readonly type: 'done'; readonly outcome: ApprovalOutcome }
  /** Claimed too late: the approval expired (and is recorded so, for every later claim). */
  | { readonly type: 'expired' };

/**
 * Options of {@link ApprovalLedger.waitFor}.
 *
 * @example
 * ```ts
 * const options: ApprovalWaitOptions = { timeoutMs: 10_000, abortSignal };
 * const outcome = await ledger.waitFor(approvalId, options);
 * ```
 */
export interface ApprovalWaitOptions {
  /** How long to wait for the outcome. Default: the ledger's (30 s for {@link createApprovalLedger}). */
  readonly timeoutMs?: number;
  /** Stops waiting: `waitFor` rejects with the signal's reason. */
  readonly abortSignal?: AbortSignal;
}

/**
 * Makes an approved call execute once, as an idempotency key does: the first
 * resume of an approval claims it and executes the call, its outcome is
 * recorded, and every replay of the same approval (a resume request sent
 * twice, retried, or raced from another server instance) gets that outcome
 * instead of executing again. A replay that arrives while the first is still
 * executing waits for its outcome.
 *
 * `claim` must be atomic: of concurrent claims of one approval, exactly one
 * is `'claimed'`. Only that caller calls `complete`. Entries expire, as
 * idempotency keys do: a replay that arrives after its approval's entry
 * expired is a first resume again, so keep the TTL longer than a resume
 * request can be replayed.
 *
 * The default is {@link createApprovalLedger} on an in-memory store (one
 * process); for several instances pass one on a shared store
 * (`createApprovalLedger({ store: createRedisStore({ client }) })`), or
 * implement this interface on your database.
 *
 * @example
 * ```ts
 * const interventions = createInterventions({
 *   handlers,
 *   approvalSecret: process.env.APPROVAL_SECRET,
 *   approvalLedger: createApprovalLedger({ store: createRedisStore({ client: new Redis(process.env.REDIS_URL!) }) }),
 * });
 * ```
 */
export interface ApprovalLedger {
  /**
   * Claims the approval's execution, or says what became of it. With
   * `expiresAt` (ms since the epoch), a claim from then on is `'expired'`,
   * decided in the same atomic step as the claim, so an answer cannot race
   * the expiry.
   */
  claim(approvalId: string, options?: { readonly expiresAt?: number }): Promise<ApprovalClaim>;
  /**
   * Whether the approval expired: past `expiresAt`, and not claimed before,
   * it is recorded as expired (atomically, as a claim is), and every later
   * claim is `'expired'`. Optional: without it, the runtime reads its own
   * clock and relies on `claim` alone.
   */
  expired?(approvalId: string, expiresAt: number): Promise<boolean>;
  /**
   * The clock `expired` and `claim` read (the store's, one for every
   * instance), in ms since the epoch: a confirm's request is stamped with it
   * when it is asked, so an expiry runs from asking to answering on one
   * clock, whatever the asking instance's own says. Optional: without it, the
   * asking instance's clock.
   */
  now?(): Promise<number>;
  /**
   * Counts `approver`'s approval of the approval (once per person, across
   * requests and instances) and returns every approver counted so far.
   * Optional: without it, an approval that needs several people (a
   * `quorum`) is never counted, so its call never runs.
   */
  vote?(approvalId: string, approver: string): Promise<readonly string[]>;
  /**
   * Records that `approver`, one of the people who may answer, refused the
   * approval: final for its request, so an approval given later (or a
   * history from before the refusal, sent again) counts for nothing. Returns
   * who refused it first. Optional: without it, a refusal ends the request
   * that carries it only.
   */
  refuse?(approvalId: string, approver: string): Promise<string>;
  /** Who refused the approval ({@link refuse}); `undefined`: nobody. */
  refusedBy?(approvalId: string): Promise<string | undefined>;
  /**
   * Keeps who asked a call's approval, and when (`pin`, JSON), for tools
   * guarded without a run, whose requests carry no pin of their own: `call`
   * names the call (its id, tool and arguments). Two different askers of
   * one such call leave it ambiguous. Optional: without it, such an
   * approval runs as whoever answers it, and a confirm that says who may
   * answer it is refused.
   */
  keepAsker?(call: string, pin: string): Promise<void>;
  /** The pin {@link keepAsker} kept for a call; `undefined` when none, or an ambiguous one. */
  askerOf?(call: string): Promise<string | undefined>;
  /**
   * Records the outcome of the execution this caller claimed. Returns what
   * was recorded, i.e. what replays will get (a result that cannot be
   * recorded as JSON becomes an error outcome saying so).
   */
  complete(approvalId: string, outcome: ApprovalOutcome): Promise<ApprovalOutcome>;
  /**
   * Waits until the claimed execution's outcome is recorded, and returns it.
   * Rejects with {@link ApprovalOutcomeUnavailableError} when it is not
   * recorded within `timeoutMs` or the claim disappears, and with the
   * signal's reason when `abortSignal` aborts.
   */
  waitFor(approvalId: string, options?: ApprovalWaitOptions): Promise<ApprovalOutcome>;
  /**
   * The recorded outcome of an approval whose call was executed, without
   * claiming it; `undefined` when it was not (or is still running). A
   * resume reads it first, so a replay shows the model what ran. Optional:
   * a ledger without it still executes once, but a replay carrying another
   * answer is then written into the history as it says.
   */
  outcomeOf?(approvalId: string): Promise<ApprovalOutcome | undefined>;
}

/**
 * Options of {@link createApprovalLedger}.
 *
 * @example
 * ```ts
 * const options: ApprovalLedgerOptions = { store: redisStore, ttlMs: 7 * 86_400_000, prefix: 'approvals:' };
 * const ledger = createApprovalLedger(options);
 * ```
 */
export interface ApprovalLedgerOptions {
  /** Where claims and outcomes live. Default: a new in-memory store (this process only). */
  readonly store?: Store;
  /** How long an approval's claim and outcome are kept, in ms. Default 24 hours. */
  readonly ttlMs?: number;
  /** Prepended to the approval id to make the store key. Default `'approval-ledger:'`. */
  readonly prefix?: string;
  /** The default `timeoutMs` of `waitFor`. Default 30 seconds. */
  readonly waitTimeoutMs?: number;
}
