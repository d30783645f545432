import type { Store } from './store.ts';

/**
 * The Redis client methods {@link createRedisStore} uses, shaped like
 * [ioredis](https://github.com/redis/ioredis): pass `new Redis(url)`. No
 * Redis library is imported here; any client with these methods works
 * (wrap others, e.g. node-redis, in an object of this shape).
 *
 * @example
 * ```ts
 * import { createRedisStore, type RedisStoreClient } from 'ai-interventions';
 * import { Redis } from 'ioredis';
 *
 * const client: RedisStoreClient = new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: 1 });
 * const store = createRedisStore({ client });
 * ```
 */
export interface RedisStoreClient {
  /** `EVAL script numkeys ...keys ...args`. */
  eval(script: string, numkeys: number, ...keysAndArgs: Array<string | number>): Promise<unknown>;
  /** `EVALSHA sha1 numkeys ...keys ...args`; when absent, every `take` sends the script with `EVAL`. */
  evalsha?(sha1: string, numkeys: number, ...keysAndArgs: Array<string | number>): Promise<unknown>;
  /** `GET key`: the value, or `null`. */
  get(key: string): Promise<string | null>;
  /** `SET key value`, or `SET key value PX milliseconds`. */
  set(key: string, value: string): Promise<unknown>;
  set(key: string, value: string, expiryMode: 'PX', milliseconds: number): Promise<unknown>;
  /** `DEL key`. */
  del(key: string): Promise<number>;
}

/**
 * Options of {@link createRedisStore}.
 *
 * @example
 * ```ts
 * const options: RedisStoreOptions = { client: redis, prefix: 'my-app:interventions:' };
 * const store = createRedisStore(options);
 * ```
 */
export interface RedisStoreOptions {
  /** An ioredis-like client (`new Redis(url)`). Its connection is yours: the store never closes it. */
  readonly client: RedisStoreClient;
  /** Prepended to every key. Default `'ai-interventions:'`. */
  readonly prefix?: string;
}

// The check-and-increment of `take`, as one script so Redis runs it
// atomically: concurrent takes from any number of servers never overshoot.
// KEYS[1] the counter; ARGV amount, limit ('inf' for none), ttl in ms (0: none).
// The TTL is set when the counter is created (or had none), like the memory store.
const TAKE_SCRIPT = `local current = redis.call('GET', KEYS[1])
if ARGV[2] ~= 'inf' and tonumber(current or '0') + tonumber(ARGV[1]) > tonumber(ARGV[2]) then
  return {0, current or '0'}
end
local value = redis.call('INCRBYFLOAT', KEYS[1], ARGV[1])
local ttl = tonumber(ARGV[3])
if ttl > 0 and redis.call('PTTL', KEYS[1]) < 0 then
  redis.call('PEXPIRE', KEYS[1], ttl)
end
return {1, value}`;

let takeScriptSha: Promise<string> | undefined;

/**
 * A {@link Store} on Redis, shared by every server instance that uses the
 * same Redis: rate-limit counters and budgets survive restarts and
 * serverless cold starts. `take` is one Lua script (`EVALSHA`, falling back to
 * `EVAL` when Redis does not know it yet), so the check and the increment are
 * atomic. Errors of the client (Redis down, a timeout) reject; the handlers
 * using the store then follow their `onError` (fail closed by default).
 *
 * Configure the client to fail fast rather than queue commands for a long
 * time while Redis is unreachable (ioredis: `maxRetriesPerRequest`), or give
 * the handlers a `timeoutMs`.
 *
 * @example
 * ```ts
 * import { createInterventions, createRedisStore, rateLimit } from 'ai-interventions';
 * import { Redis } from 'ioredis';
 *
 * const store = createRedisStore({ client: new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: 1 }) });
 * const interventions = createInterventions({
 *   handlers: [rateLimit({ limit: 20, windowMs: 60_000, per: 'user', store })],
 * });
 * ```
 */
export function createRedisStore({ client, prefix = 'ai-interventions:' }: RedisStoreOptions): Store {
  const keyOf = (key: string) => `${prefix}${key}`;
  return {
    get: async (key) => (await client.get(keyOf(key))) ?? undefined,
    set: async (key, value, options) => {
      if (options?.ttlMs === undefined) await client.set(keyOf(key), value);
      else await client.set(keyOf(key), value, 'PX', milliseconds(options.ttlMs));
    },
    delete: async (key) => {
      await client.del(keyOf(key));
    },
    take: async (key, { amount, limit, ttlMs }) => {
      const args = [
        keyOf(key),
        String(amount),
        limit === Number.POSITIVE_INFINITY ? 'inf' : String(limit),
        ttlMs === undefined ? 0 : milliseconds(ttlMs),
      ];
      return parseTake(await evalTake(client, args));
    },
  };
}

async function evalTake(client: RedisStoreClient, args: Array<string | number>): Promise<unknown> {
  if (client.evalsha !== undefined) {
    takeScriptSha ??= sha1(TAKE_SCRIPT);
    try {
      return await client.evalsha(await takeScriptSha, 1, ...args);
    } catch (error) {
      // Redis does not have the script cached yet (new server, SCRIPT FLUSH): send it
      if (!(error instanceof Error && error.message.startsWith('NOSCRIPT'))) throw error;
    }
  }
  return client.eval(TAKE_SCRIPT, 1, ...args);
}

function parseTake(reply: unknown): { taken: boolean; value: number } {
  if (Array.isArray(reply) && reply.length === 2) {
    const [taken, value] = reply as [unknown, unknown];
    const number = Number(value);
    if ((taken === 0 || taken === 1) && (typeof value === 'string' || typeof value === 'number') && !Number.isNaN(number)) {
      return { taken: taken === 1, value: number };
    }
  }
  throw new Error(`createRedisStore: unexpected reply to take: ${JSON.stringify(reply)}`);
}

/** Redis wants whole, positive milliseconds. */
function milliseconds(ttlMs: number): number {
  return Math.max(1, Math.ceil(ttlMs));
}

async function sha1(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-1', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
