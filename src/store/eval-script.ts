import { digestHex } from '../data/stable-json.ts';

/**
 * The Redis client methods that run Lua scripts, shaped like
 * [ioredis](https://github.com/redis/ioredis): `new Redis(url)` has them. A
 * script runs atomically in Redis, which is how the Redis store and the
 * Redis message queue stay correct with any number of server instances.
 *
 * @example
 * ```ts
 * const client: RedisScriptClient = new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: 1 });
 * const steering = createRedisMessageQueue({ client, key: `steering:${chatId}` });
 * ```
 */
export interface RedisScriptClient {
  /** `EVAL script numkeys ...keys ...args`. */
  eval(script: string, numkeys: number, ...keysAndArgs: Array<string | number>): Promise<unknown>;
  /** `EVALSHA sha1 numkeys ...keys ...args`; when absent, every call sends its script with `EVAL`. */
  evalsha?(sha1: string, numkeys: number, ...keysAndArgs: Array<string | number>): Promise<unknown>;
}

const shas = new Map<string, Promise<string>>();

/**
 * Runs `script` on `keys` and `args`: one `EVALSHA` round trip once Redis
 * has the script, `EVAL` (which caches it) when Redis does not know it yet.
 */
export async function evalScript(
  client: RedisScriptClient,
  script: string,
  keys: readonly string[],
  args: ReadonlyArray<string | number> = [],
): Promise<unknown> {
  if (client.evalsha !== undefined) {
    let sha = shas.get(script);
    if (sha === undefined) {
      sha = sha1(script);
      shas.set(script, sha);
    }
    try {
      return await client.evalsha(await sha, keys.length, ...keys, ...args);
    } catch (error) {
      // Redis does not have the script cached yet (new server, SCRIPT FLUSH): send it
      if (!(error instanceof Error && error.message.startsWith('NOSCRIPT'))) throw error;
    }
  }
  return client.eval(script, keys.length, ...keys, ...args);
}

/** Redis wants whole, positive milliseconds. */
export function milliseconds(ttlMs: number): number {
  return Math.max(1, Math.ceil(ttlMs));
}

/** The SHA-1 Redis names a script by (`EVALSHA`). */
function sha1(text: string): Promise<string> {
  return digestHex('SHA-1', text);
}
