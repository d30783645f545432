import type { UserModelMessage } from 'ai';
import { toBase64 } from '../data/base64.ts';
import { evalScript, milliseconds, type RedisScriptClient } from '../store/eval-script.ts';
import { type MessageQueue, toUserMessage } from './create-message-queue.ts';

/**
 * The {@link MessageQueue} of {@link createRedisMessageQueue}: every method
 * is a Redis round trip, and `size()` asks Redis how many messages wait.
 *
 * @example
 * ```ts
 * const steering: RedisMessageQueue = createRedisMessageQueue({ client, key: `steering:${chatId}` });
 * await steering.push('Use Paris, Texas instead.');
 * console.log(await steering.size()); // 1, until the run drains it
 * ```
 */
export interface RedisMessageQueue extends MessageQueue {
  push(...messages: ReadonlyArray<string | UserModelMessage>): Promise<void>;
  drain(): Promise<UserModelMessage[]>;
  clear(): Promise<void>;
  /** How many messages wait. */
  size(): Promise<number>;
}

/**
 * Options of {@link createRedisMessageQueue}.
 *
 * @example
 * ```ts
 * const options: RedisMessageQueueOptions = { client: new Redis(process.env.REDIS_URL!), key: `steering:${chatId}`, mode: 'one-at-a-time' };
 * const steering = createRedisMessageQueue(options);
 * ```
 */
export interface RedisMessageQueueOptions {
  /** An ioredis-like client (`new Redis(url)`): only `eval` / `evalsha` are used. Its connection is yours. */
  readonly client: RedisScriptClient;
  /** The queue's name: every instance using the same key (and prefix) shares the queue. Name it per conversation. */
  readonly key: string;
  /** Prepended to the key. Default `'ai-interventions:'`, as `createRedisStore`. */
  readonly prefix?: string;
  /** `'all'` (default) hands every waiting message to the run at once; `'one-at-a-time'` one per turn. */
  readonly mode?: 'all' | 'one-at-a-time';
  /**
   * How long waiting messages are kept after the last push, in ms, so a
   * queue no run drains does not stay in Redis. Default 24 hours.
   */
  readonly ttlMs?: number;
}

const DAY_MS = 24 * 60 * 60_000;

// KEYS[1] the list; ARGV ttl in ms, then the messages (JSON). Appends them and (re)starts the TTL.
const PUSH_SCRIPT = `local length = redis.call('RPUSH', KEYS[1], unpack(ARGV, 2))
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return length`;

// KEYS[1] the list; ARGV 'all' or 'one'. Removes and returns every message, or the first, in one step.
const DRAIN_SCRIPT = `if ARGV[1] == 'one' then
  local first = redis.call('LPOP', KEYS[1])
  if first then return {first} end
  return {}
end
local all = redis.call('LRANGE', KEYS[1], 0, -1)
redis.call('DEL', KEYS[1])
return all`;

const SIZE_SCRIPT = `return redis.call('LLEN', KEYS[1])`;
const CLEAR_SCRIPT = `return redis.call('DEL', KEYS[1])`;

/** Messages per `RPUSH`: Lua's `unpack` has a stack limit. */
const PUSH_BATCH = 1_000;

/**
 * A {@link MessageQueue} on a Redis list, shared by every server instance
 * using the same key: a steering message pushed by the instance that
 * received it reaches the run streaming on another instance. Draining is one
 * Lua script (`LRANGE` + `DEL`, or `LPOP` one at a time), so a message is
 * delivered exactly once even with several consumers.
 *
 * Messages are stored as JSON: text, and file or image parts as base64
 * (a `Uint8Array` is sent as its base64 string, which the AI SDK accepts),
 * or URLs. Entries that are not user messages (written to the key by
 * something else) are skipped.
 *
 * @example
 * ```ts
 * const client = new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: 1 });
 * // the instance streaming the run
 * const result = interventions.streamText({
 *   model, tools, messages, maxSteps: 10,
 *   steering: createRedisMessageQueue({ client, key: `steering:${chatId}` }),
 * });
 * // any instance, e.g. the route that receives the user's correction
 * await createRedisMessageQueue({ client, key: `steering:${chatId}` }).push('Use Paris, Texas instead.');
 * ```
 */
export function createRedisMessageQueue({
  client,
  key,
  prefix = 'ai-interventions:',
  mode = 'all',
  ttlMs = DAY_MS,
}: RedisMessageQueueOptions): RedisMessageQueue {
  if (!(ttlMs > 0)) throw new TypeError(`createRedisMessageQueue: ttlMs must be a positive number, received ${String(ttlMs)}.`);
  const keys = [`${prefix}${key}`];
  return {
    push: async (...messages) => {
      const encoded = messages.map((message) => JSON.stringify(toUserMessage(message), binaryAsBase64));
      for (let start = 0; start < encoded.length; start += PUSH_BATCH) {
        await evalScript(client, PUSH_SCRIPT, keys, [milliseconds(ttlMs), ...encoded.slice(start, start + PUSH_BATCH)]);
      }
    },
    drain: async () => {
      const reply = await evalScript(client, DRAIN_SCRIPT, keys, [mode === 'one-at-a-time' ? 'one' : 'all']);
      if (!Array.isArray(reply)) throw new Error(`createRedisMessageQueue: unexpected reply to drain: ${JSON.stringify(reply)}`);
      return reply.flatMap((item: unknown) => {
        const message = typeof item === 'string' ? parseUserMessage(item) : undefined;
        return message === undefined ? [] : [message];
      });
    },
    clear: async () => {
      await evalScript(client, CLEAR_SCRIPT, keys);
    },
    size: async () => Number(await evalScript(client, SIZE_SCRIPT, keys)),
  };
}

/** A JSON replacer: binary data as base64 (read before `toJSON`, which turns a `Buffer` into an object). */
function binaryAsBase64(this: unknown, key: string, value: unknown): unknown {
  const original = (this as Record<string, unknown>)[key];
  if (original instanceof Uint8Array) return toBase64(original);
  if (original instanceof ArrayBuffer) return toBase64(new Uint8Array(original));
  return value;
}

function parseUserMessage(item: string): UserModelMessage | undefined {
  try {
    const value: unknown = JSON.parse(item);
    if (value === null || typeof value !== 'object') return undefined;
    const { role, content } = value as { role?: unknown; content?: unknown };
    return role === 'user' && (typeof content === 'string' || Array.isArray(content)) ? (value as UserModelMessage) : undefined;
  } catch {
    return undefined;
  }
}
