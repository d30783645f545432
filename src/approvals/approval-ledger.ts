import type { JSONValue } from '@ai-sdk/provider';
import { ApprovalOutcomeUnavailableError } from '../errors/approval-outcome-unavailable-error.ts';
import { createMemoryStore } from '../store/create-memory-store.ts';
import { isInMemory, markInMemory } from '../store/in-memory.ts';
import type { Store } from '../store/store.ts';
import { getErrorMessage } from '../util/get-error-message.ts';

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
   * Counts `approver`'s approval of the approval (once per person, across
   * requests and instances) and returns every approver counted so far.
   * Optional: without it, an approval that needs several people (a
   * `quorum`) is never counted, so its call never runs.
   */
  vote?(approvalId: string, approver: string): Promise<readonly string[]>;
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

const DAY_MS = 24 * 60 * 60_000;
/** Polling `waitFor`: the first pause, then doubling up to the longest. */
const FIRST_POLL_MS = 10;
const LONGEST_POLL_MS = 250;

type Entry = { readonly state: 'running' } | { readonly state: 'expired' } | { readonly state: 'done'; readonly outcome: ApprovalOutcome };

const RUNNING = JSON.stringify({ state: 'running' } satisfies Entry);
const AMBIGUOUS = 'ambiguous';

/** The asker of a kept pin, as its JSON says. */
function askerIn(pin: string | undefined): string | undefined {
  try {
    return pin === undefined ? undefined : JSON.stringify((JSON.parse(pin) as { asker?: unknown }).asker);
  } catch {
    return undefined;
  }
}
const EXPIRED = JSON.stringify({ state: 'expired' } satisfies Entry);

/**
 * An {@link ApprovalLedger} on a {@link Store}: a claim is the store's atomic
 * `setIfAbsent`, so with a shared store (Redis) exactly one of any number of
 * instances executes an approved call, and the others get its outcome. An
 * entry lives `ttlMs` from its claim, and again from its outcome. Outcomes
 * are kept as JSON: a result is recorded as the model reads it (as the AI
 * SDK does: `toJSON` applied, `undefined` dropped, a `Date` as its ISO
 * string), and one that is not JSON at all (a `BigInt`, a cycle) is recorded
 * as an error outcome that says so. `waitFor` polls the store (10 ms, then
 * doubling up to 250 ms).
 *
 * @example
 * ```ts
 * const store = createRedisStore({ client: new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: 1 }) });
 * const interventions = createInterventions({ handlers, approvalLedger: createApprovalLedger({ store }) });
 * ```
 */
export function createApprovalLedger({
  store = createMemoryStore(),
  ttlMs = DAY_MS,
  prefix = 'approval-ledger:',
  waitTimeoutMs = 30_000,
}: ApprovalLedgerOptions = {}): ApprovalLedger {
  if (!(ttlMs > 0)) throw new TypeError(`createApprovalLedger: ttlMs must be a positive number, received ${String(ttlMs)}.`);
  const keyOf = (approvalId: string) => `${prefix}${approvalId}`;

  const ledger: ApprovalLedger = {
    async claim(approvalId, { expiresAt } = {}) {
      const key = keyOf(approvalId);
      if (expiresAt !== undefined) {
        // the claim and the expiry are one atomic step, on the store's clock
        const claim = await store.setIfAbsentUntil(key, RUNNING, { until: expiresAt, lateValue: EXPIRED, ttlMs });
        if (claim.set) return claim.value === RUNNING ? { type: 'claimed' } : { type: 'expired' };
        return claimOf(parseEntry(claim.value ?? RUNNING));
      }
      // the second read misses only if the entry expired in between: claim again
      for (let attempt = 0; attempt < 3; attempt++) {
        if (await store.setIfAbsent(key, RUNNING, { ttlMs })) return { type: 'claimed' };
        const entry = parseEntry(await store.get(key));
        if (entry !== undefined) return claimOf(entry);
      }
      return { type: 'running' };
    },

    async expired(approvalId, expiresAt) {
      // past the deadline and unclaimed: recorded as expired; before it, nothing is written
      const claim = await store.setIfAbsentUntil(keyOf(approvalId), undefined, { until: expiresAt, lateValue: EXPIRED, ttlMs });
      return claim.value === EXPIRED;
    },

    async vote(approvalId, approver) {
      return store.addToSet(`${keyOf(approvalId)}:approvers`, approver, { ttlMs });
    },

    async keepAsker(call, pin) {
      const key = `${prefix}asked:${call}`;
      if (await store.setIfAbsent(key, pin, { ttlMs })) return;
      // the same call asked again by someone else: it can no longer say who asked
      if (askerIn(await store.get(key)) !== askerIn(pin)) await store.set(key, AMBIGUOUS, { ttlMs });
    },

    async askerOf(call) {
      const pin = await store.get(`${prefix}asked:${call}`);
      return pin === AMBIGUOUS ? undefined : pin;
    },

    async complete(approvalId, outcome) {
      const recorded = recordable(outcome);
      await store.set(keyOf(approvalId), JSON.stringify({ state: 'done', outcome: recorded } satisfies Entry), { ttlMs });
      return recorded;
    },

    async outcomeOf(approvalId) {
      const entry = parseEntry(await store.get(keyOf(approvalId)));
      return entry?.state === 'done' ? entry.outcome : undefined;
    },

    async waitFor(approvalId, { timeoutMs = waitTimeoutMs, abortSignal } = {}) {
      const key = keyOf(approvalId);
      const deadline = Date.now() + timeoutMs;
      let pause = FIRST_POLL_MS;
      for (;;) {
        abortSignal?.throwIfAborted();
        const stored = await store.get(key);
        if (stored === undefined) throw new ApprovalOutcomeUnavailableError({ approvalId, reason: 'expired', timeoutMs });
        const entry = parseEntry(stored);
        if (entry?.state === 'done') return entry.outcome;
        if (entry?.state === 'expired') throw new ApprovalOutcomeUnavailableError({ approvalId, reason: 'expired', timeoutMs });
        const left = deadline - Date.now();
        if (left <= 0) throw new ApprovalOutcomeUnavailableError({ approvalId, reason: 'timeout', timeoutMs });
        await sleep(Math.min(pause, left), abortSignal);
        pause = Math.min(pause * 2, LONGEST_POLL_MS);
      }
    },
  };
  // a ledger on a memory store holds for this process only (a runtime warns when its other state is shared)
  return isInMemory(store) ? markInMemory(ledger) : ledger;
}

/** The outcome as JSON would carry it (what the model reads), or an error outcome saying it cannot be. */
function recordable(outcome: ApprovalOutcome): ApprovalOutcome {
  let input: { input?: JSONValue } = {};
  try {
    input = outcome.input === undefined ? {} : { input: asJson(outcome.input) };
  } catch {
    // arguments that are not JSON are not kept: a replay then shows the history's
  }
  if (outcome.type === 'error') return { type: 'error', text: String(outcome.text), ...input };
  try {
    const output = asJson(outcome.output);
    // the SDK reads a string result as text, anything else as JSON: a Date is JSON, though JSON makes it a string
    const readAsJson = typeof output === 'string' && typeof outcome.output !== 'string';
    return { type: 'result', output, ...(readAsJson ? { readAsJson } : {}), ...input };
  } catch (error) {
    return {
      type: 'error',
      text: `The tool ran, but its result cannot be recorded as JSON for a replay of its approval (${getErrorMessage(error).split('\n')[0]}).`,
      ...input,
    };
  }
}

/** A value as JSON carries it (`toJSON` applied, `undefined` as `null`). */
function asJson(value: unknown): JSONValue {
  const serialized = JSON.stringify(value);
  return serialized === undefined ? null : (JSON.parse(serialized) as JSONValue);
}

/** What a claim finds in an entry that is there already. */
function claimOf(entry: Entry | undefined): ApprovalClaim {
  if (entry?.state === 'done') return { type: 'done', outcome: entry.outcome };
  return entry?.state === 'expired' ? { type: 'expired' } : { type: 'running' };
}

/** A stored entry; anything unreadable counts as running (never executed again). */
function parseEntry(stored: string | undefined): Entry | undefined {
  if (stored === undefined) return undefined;
  if (stored === EXPIRED) return { state: 'expired' };
  try {
    const value: unknown = JSON.parse(stored);
    if (value !== null && typeof value === 'object' && (value as { state?: unknown }).state === 'done') {
      const outcome = (value as { outcome?: unknown }).outcome;
      if (isOutcome(outcome)) return { state: 'done', outcome };
    }
  } catch {
    // fall through
  }
  return { state: 'running' };
}

function isOutcome(value: unknown): value is ApprovalOutcome {
  if (value === null || typeof value !== 'object') return false;
  const { type } = value as { type?: unknown };
  if (type === 'error') return typeof (value as { text?: unknown }).text === 'string';
  return type === 'result' && 'output' in value;
}

function sleep(ms: number, abortSignal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortSignal?.reason);
    };
    const timer = setTimeout(() => {
      abortSignal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    abortSignal?.addEventListener('abort', onAbort, { once: true });
  });
}
