import { evalScript, milliseconds, type RedisScriptClient } from './eval-script.ts';
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
export interface RedisStoreClient extends RedisScriptClient {
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

// KEYS[1]; ARGV value, ttl in ms (0: none). 1 when set, 0 when the key had a value.
const SET_IF_ABSENT_SCRIPT = `local set
if tonumber(ARGV[2]) > 0 then
  set = redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])
else
  set = redis.call('SET', KEYS[1], ARGV[1], 'NX')
end
if set then return 1 end
return 0`;

// KEYS[1]; ARGV value, late value, until (ms since the epoch, on Redis's clock), ttl in ms (0: none),
// whether there is a value ('1') or the key stays absent before the deadline ('0').
// {1, stored} when this call set it, {0, current} when the key had a value, {0} when it stays absent.
// Redis's clock, in ms since the epoch
const NOW_SCRIPT = `local time = redis.call('TIME')
return tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)`;

const SET_IF_ABSENT_UNTIL_SCRIPT = `local current = redis.call('GET', KEYS[1])
if current then return {0, current} end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local stored = ARGV[1]
if now >= tonumber(ARGV[3]) then
  stored = ARGV[2]
elseif ARGV[5] == '0' then
  return {0}
end
if tonumber(ARGV[4]) > 0 then
  redis.call('SET', KEYS[1], stored, 'PX', ARGV[4])
else
  redis.call('SET', KEYS[1], stored)
end
return {1, stored}`;

// KEYS[1] a Redis set; ARGV member, ttl in ms (0: none), set when the set is created. Every member after.
const ADD_TO_SET_SCRIPT = `local created = redis.call('EXISTS', KEYS[1]) == 0
redis.call('SADD', KEYS[1], ARGV[1])
if created and tonumber(ARGV[2]) > 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return redis.call('SMEMBERS', KEYS[1])`;

// KEYS[1]. The value (nil when missing), removed. As GETDEL, which needs Redis 6.2.
const GET_AND_DELETE_SCRIPT = `local value = redis.call('GET', KEYS[1])
if value then redis.call('DEL', KEYS[1]) end
return value`;

// KEYS[1] the list; ARGV value, the length the list must have. {1, length after} when appended, {0, length} when not.
const APPEND_SCRIPT = `local length = redis.call('LLEN', KEYS[1])
if length ~= tonumber(ARGV[2]) then return {0, length} end
return {1, redis.call('RPUSH', KEYS[1], ARGV[1])}`;

// KEYS[1] the list; ARGV start. Its entries from start on (LRANGE, as a script: the client needs no list command).
const LIST_SCRIPT = `return redis.call('LRANGE', KEYS[1], ARGV[1], -1)`;

/**
 * A {@link Store} on Redis, shared by every server instance that uses the
 * same Redis: rate-limit counters and budgets survive restarts and
 * serverless cold starts. `take`, `setIfAbsent`, `getAndDelete` and
 * `append` (a list's compare-and-append) are each one Lua script (`EVALSHA`, falling back to `EVAL` when Redis does not know
 * it yet), so each is atomic across every instance; `setIfAbsentUntil` reads
 * Redis's own clock (`TIME`), one clock for every instance. Errors of the client (Redis down, a timeout) reject; the handlers
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
    setIfAbsent: async (key, value, options) => {
      const ttl = options?.ttlMs === undefined ? 0 : milliseconds(options.ttlMs);
      const reply = await evalScript(client, SET_IF_ABSENT_SCRIPT, [keyOf(key)], [value, ttl]);
      if (reply === 0 || reply === 1) return reply === 1;
      throw unexpected('setIfAbsent', reply);
    },
    now: async () => {
      const reply = await evalScript(client, NOW_SCRIPT, [], []);
      if (typeof reply === 'number') return reply;
      throw unexpected('now', reply);
    },
    setIfAbsentUntil: async (key, value, { until, lateValue, ttlMs }) => {
      const ttl = ttlMs === undefined ? 0 : milliseconds(ttlMs);
      const args = [value ?? '', lateValue, Math.floor(until), ttl, value === undefined ? '0' : '1'];
      const reply = await evalScript(client, SET_IF_ABSENT_UNTIL_SCRIPT, [keyOf(key)], args);
      if (Array.isArray(reply) && reply.length === 1 && reply[0] === 0) return { set: false, value: undefined };
      if (Array.isArray(reply) && reply.length === 2 && (reply[0] === 0 || reply[0] === 1) && typeof reply[1] === 'string') {
        return { set: reply[0] === 1, value: reply[1] };
      }
      throw unexpected('setIfAbsentUntil', reply);
    },
    addToSet: async (key, member, options) => {
      const ttl = options?.ttlMs === undefined ? 0 : milliseconds(options.ttlMs);
      const reply = await evalScript(client, ADD_TO_SET_SCRIPT, [keyOf(key)], [member, ttl]);
      if (Array.isArray(reply) && reply.every((item) => typeof item === 'string')) return reply as string[];
      throw unexpected('addToSet', reply);
    },
    getAndDelete: async (key) => {
      const reply = await evalScript(client, GET_AND_DELETE_SCRIPT, [keyOf(key)]);
      if (reply === null || reply === undefined) return undefined;
      if (typeof reply === 'string') return reply;
      throw unexpected('getAndDelete', reply);
    },
    take: async (key, { amount, limit, ttlMs }) => {
      const args = [
        String(amount),
        limit === Number.POSITIVE_INFINITY ? 'inf' : String(limit),
        ttlMs === undefined ? 0 : milliseconds(ttlMs),
      ];
      return parseTake(await evalScript(client, TAKE_SCRIPT, [keyOf(key)], args));
    },
    append: async (key, value, { length }) => {
      const reply = await evalScript(client, APPEND_SCRIPT, [keyOf(key)], [value, length]);
      if (Array.isArray(reply) && reply.length === 2 && (reply[0] === 0 || reply[0] === 1) && typeof reply[1] === 'number') {
        return { appended: reply[0] === 1, length: reply[1] };
      }
      throw unexpected('append', reply);
    },
    list: async (key, options) => {
      const reply = await evalScript(client, LIST_SCRIPT, [keyOf(key)], [options?.start ?? 0]);
      if (Array.isArray(reply) && reply.every((entry) => typeof entry === 'string')) return reply as string[];
      throw unexpected('list', reply);
    },
  };
}

function parseTake(reply: unknown): { taken: boolean; value: number } {
  if (Array.isArray(reply) && reply.length === 2) {
    const [taken, value] = reply as [unknown, unknown];
    const number = Number(value);
    if ((taken === 0 || taken === 1) && (typeof value === 'string' || typeof value === 'number') && !Number.isNaN(number)) {
      return { taken: taken === 1, value: number };
    }
  }
  throw unexpected('take', reply);
}

function unexpected(method: string, reply: unknown): Error {
  return new Error(`createRedisStore: unexpected reply to ${method}: ${JSON.stringify(reply)}`);
}
