/**
 * The store the server's state lives on when several processes share it:
 * with `REDIS_URL` set, one Redis (`createRedisStore` over an ioredis
 * client) holds the approval ledger, the approval inbox and the chats, so a
 * restart, or another instance, picks up a request where it was left (set
 * `APPROVAL_SECRET` too, the same on every instance). Without it, each keeps
 * its own in this process's memory.
 */
import { createRedisStore, type Store } from 'ai-interventions';
import { Redis } from 'ioredis';

const KEY = Symbol.for('ai-interventions-example.shared-store');

/** The Redis store when `REDIS_URL` is set (one client per process); `undefined`: memory. */
export function sharedStore(): Store | undefined {
  const url = process.env.REDIS_URL;
  if (!url) return undefined;
  const kept = globalThis as typeof globalThis & { [KEY]?: Store };
  if (kept[KEY] === undefined) {
    // fail a command fast while Redis is away, rather than queue it through many reconnects
    const client = new Redis(url, { maxRetriesPerRequest: 1 });
    client.on('error', (error) => console.error(`[example] Redis: ${error.message}`));
    kept[KEY] = createRedisStore({ client, prefix: 'nextjs-example:' });
  }
  return kept[KEY];
}
