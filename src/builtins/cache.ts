import { sha256, stableJson } from '../data/stable-json.ts';
import type { HooksConfig, ModelHookContext, ProviderRequest, ProviderResponse } from '../hooks/hook-types.ts';
import type { Awaitable } from '../util/awaitable.ts';
import { knownOptions } from '../util/known-options.ts';

/**
 * Options of {@link cache}.
 *
 * @example
 * ```ts
 * const options: CacheOptions = {
 *   maxEntries: 1_000,
 *   ttlMs: 10 * 60_000,
 *   // one cache for several models: tell their requests apart
 *   key: (request, { runtimeContext }) => `${String(runtimeContext?.modelId)}:${JSON.stringify(request.prompt)}`,
 * };
 * ```
 */
export interface CacheOptions {
  /** How many responses to keep; the least recently used is dropped first. Default 500. */
  readonly maxEntries?: number;
  /** How long a response may be served after it was stored. Default: until evicted. */
  readonly ttlMs?: number;
  /**
   * What makes two requests the same. Default: a SHA-256 of the request's
   * prompt, tools, tool choice, settings, response format and provider
   * options (not its abort signal, headers or `includeRawChunks`).
   */
  readonly key?: (request: ProviderRequest, context: ModelHookContext) => Awaitable<string>;
  /** The clock for `ttlMs`, in milliseconds. Default `Date.now`. */
  readonly now?: () => number;
}

/** The keys of {@link CacheOptions}: `cache` checks its options against them. */
export const CACHE_OPTIONS = knownOptions<CacheOptions>({
  maxEntries: true,
  ttlMs: true,
  key: true,
  now: true,
});

/**
 * What a {@link cache} did so far.
 *
 * @example
 * ```ts
 * const responses = cache({ ttlMs: 60_000 });
 * const interventions = createInterventions({ hooks: responses });
 * // … later
 * const { hits, misses } = responses.stats;
 * console.log(`hit rate: ${((hits / Math.max(1, hits + misses)) * 100).toFixed(1)}%`);
 * ```
 */
export interface CacheStats {
  /** Requests answered from the cache (the provider was not called). */
  readonly hits: number;
  /** Requests not in the cache (or expired): the provider was called. */
  readonly misses: number;
  /** Responses stored. */
  readonly stores: number;
  /** Responses not stored: finish reason `error`, or not cloneable. */
  readonly skipped: number;
  /** Entries dropped to stay within `maxEntries`. */
  readonly evictions: number;
  /** Entries held now (expired ones included until they are looked up). */
  readonly size: number;
}

/**
 * The hooks of a {@link cache}, plus its counters and a way to empty it.
 * `stats` and `clear` are not enumerable, so the object can be passed as
 * `hooks` (or to `mergeHooks`) as it is.
 *
 * @example
 * ```ts
 * const responses: CacheHooks = cache();
 * const interventions = createInterventions({ hooks: responses });
 * afterEach(() => responses.clear());
 * ```
 */
export type CacheHooks = HooksConfig & {
  readonly stats: CacheStats;
  clear(): void;
};

interface Entry {
  readonly response: ProviderResponse;
  readonly expiresAt: number | undefined;
}

/**
 * A least-recently-used cache of model responses, as `preRequest` /
 * `onResponse` hooks: an identical request is answered from the cache and
 * the provider is not called. It works at the provider level, so a response
 * stored from `generateText` also serves `streamText` (and the reverse), and
 * every step of a tool loop is cached on its own. Responses that finished
 * with `error` are not stored; responses are copied in and out, so nothing
 * downstream can change a cached entry.
 *
 * Good to know:
 * - Register it after `preRequest` hooks that rewrite the request, so it
 *   keys on the request that is sent.
 * - A response is stored before the `afterModelCall` handlers see it, so a
 *   response they guide away is stored too (the retry, with the feedback in
 *   its prompt, is a different request).
 * - With `onResponse` hooks, `streamText` holds each step until the response
 *   is complete (the cache needs all of it): the text arrives at once.
 * - Requests do not name the model: one cache shared by several models needs
 *   a `key` that tells them apart (e.g. from `runtimeContext`).
 *
 * @example
 * ```ts
 * const responses = cache({ maxEntries: 200, ttlMs: 5 * 60_000 });
 * const interventions = createInterventions({ hooks: responses });
 *
 * await interventions.generateText({ model, prompt: 'How tall is the Eiffel Tower?' }); // provider called
 * const again = interventions.streamText({ model, prompt: 'How tall is the Eiffel Tower?' }); // from the cache
 * console.log(await again.text, responses.stats); // { hits: 1, misses: 1, stores: 1, ... }
 * ```
 */
export function cache(options: CacheOptions = {}): CacheHooks {
  CACHE_OPTIONS.check(options, 'cache');
  const { maxEntries = 500, ttlMs, key = defaultKey, now = Date.now } = options;
  if (!Number.isInteger(maxEntries) || maxEntries < 1) {
    throw new TypeError(`cache: expected \`maxEntries\` to be a positive integer, received ${String(maxEntries)}.`);
  }
  if (ttlMs !== undefined && !(typeof ttlMs === 'number' && ttlMs > 0)) {
    throw new TypeError(`cache: expected \`ttlMs\` to be a positive number of milliseconds, received ${String(ttlMs)}.`);
  }

  const entries = new Map<string, Entry>();
  /** The key each missed request was looked up under, so the store uses the same one. */
  const missed = new WeakMap<ProviderRequest, string>();
  /** Requests answered from the cache: their `onResponse` must not store again. */
  const served = new WeakSet<ProviderRequest>();
  const counts = { hits: 0, misses: 0, stores: 0, skipped: 0, evictions: 0 };

  const lookup = (cacheKey: string): ProviderResponse | undefined => {
    const entry = entries.get(cacheKey);
    if (entry === undefined) return undefined;
    entries.delete(cacheKey);
    if (entry.expiresAt !== undefined && entry.expiresAt <= now()) return undefined;
    entries.set(cacheKey, entry); // most recently used last
    return entry.response;
  };

  const hooks: HooksConfig = {
    preRequest: async (preRequest) => {
      const { request } = preRequest;
      const cacheKey = await key(request, preRequest);
      const cached = lookup(cacheKey);
      const response = cached === undefined ? undefined : copy(cached);
      if (response === undefined) {
        counts.misses++;
        missed.set(request, cacheKey);
        return undefined;
      }
      counts.hits++;
      served.add(request);
      return { response };
    },

    onResponse: async (onResponse) => {
      const { request, response } = onResponse;
      if (served.has(request)) return undefined;
      const cacheKey = missed.get(request) ?? (await key(request, onResponse));
      const stored = response.finishReason.unified === 'error' ? undefined : copy(response);
      if (stored === undefined) {
        counts.skipped++;
        return undefined;
      }
      entries.delete(cacheKey);
      entries.set(cacheKey, { response: stored, expiresAt: ttlMs === undefined ? undefined : now() + ttlMs });
      counts.stores++;
      for (const oldest of entries.keys()) {
        if (entries.size <= maxEntries) break;
        entries.delete(oldest);
        counts.evictions++;
      }
      return undefined;
    },
  };

  return Object.defineProperties(hooks, {
    stats: { get: (): CacheStats => ({ ...counts, size: entries.size }), enumerable: false },
    clear: { value: () => entries.clear(), enumerable: false },
  }) as CacheHooks;
}

/** A SHA-256 (hex) of what makes the request what it is. */
async function defaultKey(request: ProviderRequest): Promise<string> {
  const { abortSignal: _signal, headers: _headers, includeRawChunks: _raw, ...identity } = request;
  return sha256(stableJson(identity));
}

/** A deep copy of a response, or `undefined` when it holds something that cannot be copied. */
function copy(response: ProviderResponse): ProviderResponse | undefined {
  try {
    return structuredClone(response);
  } catch {
    return undefined;
  }
}
