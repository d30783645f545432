import type { Context } from '@ai-sdk/provider-utils';
import type { DecisionRecord } from '../actions/decision-record.ts';
import { sha256, stableJson } from '../data/stable-json.ts';
import { DecisionTrailError } from '../errors/decision-trail-error.ts';
import { InvalidOptionError } from '../errors/invalid-option-error.ts';
import { isInMemory, markInMemory } from '../store/in-memory.ts';
import type { Store } from '../store/store.ts';
import { inTurn } from '../util/in-turn.ts';
import { type DecisionTrailLink, GENESIS, isHash, linkHash, parseLink, trailRecordOf } from './decision-trail-link.ts';

/**
 * What a trail's `key` function is given: the run a record was made in.
 *
 * @example
 * ```ts
 * const perChat = ({ runtimeContext }: DecisionTrailContext) => `chat:${String(runtimeContext.chatId)}`;
 * const trail = createDecisionTrail({ store: redisStore, key: perChat });
 * ```
 */
export interface DecisionTrailContext {
  /** The run's `runtimeContext` (empty for tools guarded without a run). */
  readonly runtimeContext: Context;
  /** The run's id (`undefined` for tools guarded without a run, and `interventions.middleware`). */
  readonly runId: string | undefined;
}

/**
 * Options of {@link createDecisionTrail}.
 *
 * @example
 * ```ts
 * const options: DecisionTrailOptions = { store: redisStore, key: ({ runtimeContext }) => `chat:${String(runtimeContext.chatId)}` };
 * const trail = createDecisionTrail(options);
 * ```
 */
export interface DecisionTrailOptions {
  /** Where the chains are kept: `createRedisStore(...)` for several instances (appends are atomic there), or `createMemoryStore()`. */
  readonly store: Store;
  /**
   * Which chain a run's records join: one key for every run (one chain for
   * the runtime), or a key per run from its trusted `runtimeContext` (one
   * chain per conversation, per user, per tenant). Stored under
   * `decision-trail:<key>`.
   */
  readonly key: string | ((context: DecisionTrailContext) => string);
}

/**
 * A tamper-evident trail of decision records: each record is appended to a
 * chain as a {@link DecisionTrailLink} carrying the hash of the link before
 * it, so {@link verifyDecisionTrail} finds where a chain was altered,
 * reordered or cut. Give one to `createInterventions({ trail })`; every
 * record of every run is appended once its decision is final, before the
 * call it decides goes on. Implement it on your own database, or use
 * {@link createDecisionTrail} on a `Store`.
 *
 * @example
 * ```ts
 * const trail: DecisionTrail = createDecisionTrail({ store: redisStore, key: 'support-bot' });
 * const interventions = createInterventions({ handlers, trail, policyVersion: '2025-06-01' });
 * ```
 */
export interface DecisionTrail {
  /** The chain of a run's records (the `key` option, for this run). */
  keyOf(context: DecisionTrailContext): string;
  /** Appends `record` as the next link of the chain `key`; the link as written. Atomic: two writers never both extend one link. */
  append(key: string, record: DecisionRecord, details: { readonly runId: string | undefined }): Promise<DecisionTrailLink>;
  /** Every entry of the chain `key` as stored, in order, unchecked: {@link verifyDecisionTrail} reads and checks them. */
  entries(key: string): Promise<readonly unknown[]>;
}

/** How many times an append reads the chain's new end and tries again, while other writers keep extending it. */
const MAX_ATTEMPTS = 50;
/** How many chains' ends an instance remembers (only to save a read: the store decides). */
const REMEMBERED_ENDS = 1_024;

/**
 * A {@link DecisionTrail} on a `Store`: each chain is a list of JSON links
 * appended with `Store.append`, a compare-and-append (one Lua script on
 * Redis), so any number of instances appending to one chain never fork
 * it: an append that lost the race reads the new end and chains to it.
 * Appends to one chain from this instance go one at a time, in the order
 * the records were made.
 *
 * @example
 * ```ts
 * import { createDecisionTrail, createInterventions, createRedisStore, verifyDecisionTrail } from 'ai-interventions';
 * import { Redis } from 'ioredis';
 *
 * const store = createRedisStore({ client: new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: 1 }) });
 * const trail = createDecisionTrail({ store, key: ({ runtimeContext }) => `chat:${String(runtimeContext.chatId)}` });
 * const interventions = createInterventions({ trail, policyVersion: 'refunds-v3' });
 * const check = await verifyDecisionTrail({ trail, key: 'chat:42' });
 * if (!check.valid) console.error(`chat:42 ${check.broken.problem} at link ${check.broken.index}: ${check.broken.reason}`);
 * ```
 */
export function createDecisionTrail({ store, key }: DecisionTrailOptions): DecisionTrail {
  if (store === null || typeof store !== 'object' || typeof store.append !== 'function' || typeof store.list !== 'function') {
    throw new InvalidOptionError({
      owner: 'createDecisionTrail',
      option: 'store',
      message: 'store must be a Store with `append` and `list` (createMemoryStore(), createRedisStore(...)).',
    });
  }
  if (typeof key !== 'function' && !isKey(key)) {
    throw new InvalidOptionError({
      owner: 'createDecisionTrail',
      option: 'key',
      message: `key must be a non-empty string or a function of the run, received ${JSON.stringify(key) ?? String(key)}.`,
    });
  }
  const storeKey = (chain: string) => `decision-trail:${chain}`;
  /** The end of each chain as this instance last wrote or read it. */
  const ends = new Map<string, { readonly length: number; readonly hash: string }>();
  /** Per chain, the append under way: this instance's appends to one chain go in order. */
  const queues = new Map<string, Promise<void>>();

  const endAfter = async (chain: string, length: number): Promise<{ length: number; hash: string }> => {
    if (length === 0) return { length: 0, hash: GENESIS };
    const tail = await store.list(storeKey(chain), { start: length - 1 });
    const last = tail.at(-1);
    if (last === undefined) return { length: 0, hash: GENESIS }; // the chain shrank meanwhile: verifying it will say so
    const parsed = parseLink(last);
    // a last entry that is not a link: chain to its text, so the evidence stays and verifying names it
    const hash =
      typeof parsed !== 'string' && isHash(parsed.hash) ? parsed.hash : await sha256(typeof last === 'string' ? last : stableJson(last));
    return { length: length - 1 + tail.length, hash };
  };

  const appendNow = async (chain: string, record: DecisionRecord, runId: string | undefined): Promise<DecisionTrailLink> => {
    let end = ends.get(chain) ?? { length: 0, hash: GENESIS };
    const content = trailRecordOf(record);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const unsigned = {
        key: chain,
        index: end.length,
        prev: end.hash,
        at: new Date().toISOString(),
        ...(runId === undefined ? {} : { runId }),
        record: content,
      };
      const link: DecisionTrailLink = { ...unsigned, hash: await linkHash(unsigned) };
      const written = await store.append(storeKey(chain), stableJson(link), { length: end.length });
      if (written.appended) {
        remember(ends, chain, { length: written.length, hash: link.hash });
        return link;
      }
      end = await endAfter(chain, written.length);
    }
    throw new DecisionTrailError({
      key: chain,
      reason: 'contended',
      message: `The decision trail "${chain}" grew under other writers on each of ${MAX_ATTEMPTS} attempts to append a record of "${record.handler}".`,
    });
  };

  const trail: DecisionTrail = {
    keyOf: (context) => {
      if (typeof key === 'string') return key;
      let chain: unknown;
      try {
        chain = key(context);
      } catch (error) {
        throw new DecisionTrailError({
          key: undefined,
          reason: 'key',
          message: `The decision trail's \`key\` function threw for run ${context.runId ?? '(none)'}: ${error instanceof Error ? error.message : String(error)}`,
          cause: error,
        });
      }
      if (isKey(chain)) return chain;
      throw new DecisionTrailError({
        key: undefined,
        reason: 'key',
        message: `The decision trail's \`key\` function returned ${JSON.stringify(chain) ?? String(chain)} for run ${context.runId ?? '(none)'}; it must return a non-empty string.`,
      });
    },
    append: (chain, record, { runId }) => {
      return inTurn(queues, chain, () => appendNow(chain, record, runId)).catch((error: unknown) => {
        throw DecisionTrailError.isInstance(error)
          ? error
          : new DecisionTrailError({
              key: chain,
              reason: 'store',
              message: `The decision trail "${chain}" could not be written (a record of "${record.handler}"): ${error instanceof Error ? error.message : String(error)}`,
              cause: error,
            });
      });
    },
    entries: (chain) => store.list(storeKey(chain)),
  };
  // a trail on a memory store is a chain per process (a runtime warns when its other state is shared)
  return isInMemory(store) ? markInMemory(trail) : trail;
}

function isKey(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}

function remember<VALUE>(map: Map<string, VALUE>, key: string, value: VALUE): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > REMEMBERED_ENDS) map.delete(map.keys().next().value as string);
}
