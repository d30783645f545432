import type { JSONValue } from '@ai-sdk/provider';
import { ApprovalOutcomeUnavailableError } from '../errors/approval-outcome-unavailable-error.ts';
import { createMemoryStore } from '../store/create-memory-store.ts';
import { isInMemory, markInMemory } from '../store/in-memory.ts';
import type { Store } from '../store/store.ts';
import { getErrorMessage } from '../util/get-error-message.ts';
import type { ApprovalClaim, ApprovalLedger, ApprovalLedgerOptions, ApprovalOutcome } from './approval-ledger.ts';

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

    async now() {
      return store.now === undefined ? Date.now() : store.now();
    },

    async vote(approvalId, approver) {
      return store.addToSet(`${keyOf(approvalId)}:approvers`, approver, { ttlMs });
    },

    async refuse(approvalId, approver) {
      const key = `${keyOf(approvalId)}:refused`;
      // the first refusal stands
      if (await store.setIfAbsent(key, approver, { ttlMs })) return approver;
      return (await store.get(key)) ?? approver;
    },

    async refusedBy(approvalId) {
      return store.get(`${keyOf(approvalId)}:refused`);
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
