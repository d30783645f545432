/**
 * `createRedisStore` against a real `redis-server` (its own port on
 * 127.0.0.1, no persistence, killed after): the store contract, the atomic
 * `take` in one script, two server instances in separate processes sharing a
 * rate limit, and Redis going away in the middle of a run.
 *
 * Skipped, with a message, on a machine without `redis-server`.
 */
import { isStepCount, tool } from 'ai';
import type { Redis } from 'ioredis';
import { describe, expect, it, onTestFinished } from 'vitest';
import { z } from 'zod';
import { rateLimit } from '../../src/builtins/rate-limit.ts';
import { createInterventions, InterventionHandlerError, type OnError } from '../../src/index.ts';
import { createRedisStore, type RedisStoreClient } from '../../src/store/create-redis-store.ts';
import { spawnChild } from '../helpers/child-process.ts';
import { connectRedis, hasRedisServer, redisTitle, startRedisServer, uniquePrefix, useRedisServer } from '../helpers/redis-server.ts';
import { deniedText, MODES, run } from '../helpers/run-both.ts';
import { scriptedModel, step, text, toolCall, toolResultsSent } from '../helpers/scripted-model.ts';
import type { RateLimitChildMessage } from './redis-rate-limit-child.ts';
import { storeContract } from './store-contract.ts';

/** What ioredis rejects with while Redis is away. */
const REDIS_DOWN = /max retries per request|Connection is closed|ECONNREFUSED|writeable/i;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe.skipIf(!hasRedisServer)(redisTitle('createRedisStore on a real redis-server'), () => {
  const redis = useRedisServer();

  describe('the Store contract', () => {
    storeContract(() => ({
      store: createRedisStore({ client: redis.client, prefix: uniquePrefix() }),
      advance: sleep,
      now: () => Date.now(),
    }));
  });

  it('should accept an ioredis client as it is, and keep its keys under the prefix', async () => {
    const { client } = redis;
    const prefix = uniquePrefix();
    const store = createRedisStore({ client, prefix });

    await store.set('plain', 'value');
    await store.take('counter', { amount: 1, limit: 5, ttlMs: 60_000 });

    expect(await client.get(`${prefix}plain`)).toBe('value');
    expect(await client.get(`${prefix}counter`)).toBe('1');
    expect(await client.get('counter')).toBeNull();
    // the TTL is set when the counter is created
    const ttl = await client.pttl(`${prefix}counter`);
    expect(ttl).toBeGreaterThan(55_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
    expect(await client.pttl(`${prefix}plain`)).toBe(-1);
    await store.set('expiring', 'value', { ttlMs: 30_000 });
    expect(await client.pttl(`${prefix}expiring`)).toBeGreaterThan(25_000);
    expect(await store.setIfAbsent('claimed', 'once', { ttlMs: 30_000 })).toBe(true);
    expect(await client.get(`${prefix}claimed`)).toBe('once');
    expect(await client.pttl(`${prefix}claimed`)).toBeGreaterThan(25_000);
    expect(await store.setIfAbsent('claimed-forever', 'once')).toBe(true);
    expect(await client.pttl(`${prefix}claimed-forever`)).toBe(-1);
    expect(await store.getAndDelete('claimed')).toBe('once');
    expect(await client.exists(`${prefix}claimed`)).toBe(0);
    expect(await createRedisStore({ client }).get('never-set')).toBeUndefined();
  });

  it('should take with one script call (EVALSHA), and send the script when Redis lost it', async () => {
    const { client } = redis;
    const calls: string[] = [];
    const spy: RedisStoreClient = {
      eval: (script, numkeys, ...args) => {
        calls.push('eval');
        return client.eval(script, numkeys, ...args);
      },
      evalsha: (sha, numkeys, ...args) => {
        calls.push('evalsha');
        return client.evalsha(sha, numkeys, ...args);
      },
      get: (key) => {
        calls.push('get');
        return client.get(key);
      },
      set: (key: string, value: string, mode?: 'PX', ms?: number) => {
        calls.push('set');
        return mode === undefined || ms === undefined ? client.set(key, value) : client.set(key, value, mode, ms);
      },
      del: (key) => {
        calls.push('del');
        return client.del(key);
      },
    };
    const store = createRedisStore({ client: spy, prefix: uniquePrefix() });

    await client.script('FLUSH');
    expect(await store.take('k', { amount: 1, limit: 3 })).toEqual({ taken: true, value: 1 });
    expect(calls).toEqual(['evalsha', 'eval']); // NOSCRIPT, then the script itself
    calls.length = 0;
    expect(await store.take('k', { amount: 1, limit: 3 })).toEqual({ taken: true, value: 2 });
    expect(calls).toEqual(['evalsha']); // cached now: one round trip

    // a client without evalsha sends the script each time
    const { evalsha: _unused, ...withoutEvalsha } = spy;
    calls.length = 0;
    expect(await createRedisStore({ client: withoutEvalsha, prefix: uniquePrefix() }).take('k', { amount: 2, limit: 3 })).toEqual({
      taken: true,
      value: 2,
    });
    expect(calls).toEqual(['eval']);
  });

  it('should reject when the reply is not a take reply, or Redis refuses', async () => {
    const { client } = redis;
    const prefix = uniquePrefix();
    const store = createRedisStore({ client, prefix });
    await client.set(`${prefix}text`, 'not a number');
    await expect(store.take('text', { amount: 1, limit: 5 })).rejects.toThrow();
    const odd: RedisStoreClient = { ...wrap(client), eval: async () => 'OK', evalsha: async () => 'OK' };
    await expect(createRedisStore({ client: odd }).take('k', { amount: 1, limit: 1 })).rejects.toThrow(
      /createRedisStore: unexpected reply to take: "OK"/,
    );
    await expect(createRedisStore({ client: odd }).setIfAbsent('k', 'v')).rejects.toThrow(
      /createRedisStore: unexpected reply to setIfAbsent: "OK"/,
    );
    const numeric: RedisStoreClient = { ...wrap(client), eval: async () => 1 };
    await expect(createRedisStore({ client: numeric }).getAndDelete('k')).rejects.toThrow(
      /createRedisStore: unexpected reply to getAndDelete: 1/,
    );
  });

  it('should never let two server instances in separate processes exceed a shared limit (2 × 250 concurrent calls)', async () => {
    const { client } = redis;
    const prefix = uniquePrefix();
    const limit = 137;
    // each process: 50 calls at once (both batches fit under the limit: every call runs, so both processes take
    // slots of the one counter), then, once both are done (a barrier), 200 more at once, racing for the last 37
    // slots (each process is denied at least 163): what each process gets never rests on how the machine schedules them
    const batches = [50, 200] as const;
    const children = [0, 1].map(() =>
      spawnChild<RateLimitChildMessage, { readonly type: 'go' }>(new URL('./redis-rate-limit-child.ts', import.meta.url), {
        args: [redis.server.port, prefix, limit, ...batches],
      }),
    );
    onTestFinished(() => Promise.all(children.map((child) => child.kill())).then(() => undefined));
    await Promise.all(children.map((child) => child.receive('ready', { timeoutMs: 30_000 })));
    const reports = [];
    for (const _ of batches) {
      // start both at once, once both are ready
      for (const child of children) child.send({ type: 'go' });
      reports.push(await Promise.all(children.map((child) => child.receive('report', { timeoutMs: 30_000 }))));
    }
    await Promise.all(children.map((child) => child.close()));
    const [first = [], second = []] = reports;

    // the first batches all ran, in both processes, on one counter
    expect(first.map((report) => [report.executed, report.denied])).toEqual([
      [50, 0],
      [50, 0],
    ]);
    // the second batches raced for what was left: the limit, never more, each of its slots taken once
    const all = [...first, ...second];
    const executed = all.reduce((sum, report) => sum + report.executed, 0);
    const denied = all.reduce((sum, report) => sum + report.denied, 0);
    expect(executed).toBe(limit);
    expect(denied).toBe(500 - limit);
    expect(all.flatMap((report) => report.slots).sort((a, b) => a - b)).toEqual(Array.from({ length: limit }, (_, slot) => slot + 1));
    expect(all.map((report) => report.errors)).toEqual([0, 0, 0, 0]);
    // both processes ran some (all of their first batch) and were denied some (of the second, at least all but what
    // was left), denied with the limit's reason
    for (const report of second) expect(report.denied, JSON.stringify(reports)).toBeGreaterThanOrEqual(200 - (limit - 100));
    expect([...new Set(second.flatMap((report) => report.reasons))]).toEqual([
      'Rate limit reached: 137 calls per 365 days for this user. The limit resets in ….',
    ]);
    const keys = await client.keys(`${prefix}*:user=shared-user`);
    expect(keys).toHaveLength(1);
    expect(await client.get(keys[0] ?? '')).toBe(String(limit));
  }, 60_000);

  describe.each(MODES)('Redis going away in the middle of a run (interventions.%s)', (mode) => {
    const cases: ReadonlyArray<readonly [OnError, string]> = [
      ['deny', 'the call is denied (fail closed)'],
      ['proceed', 'the call runs'],
      ['throw', 'the run ends with InterventionHandlerError'],
    ];
    for (const [onError, outcome] of cases) {
      it(`onError '${onError}': ${outcome}`, async () => {
        const doomed = await startRedisServer();
        const doomedClient = connectRedis(doomed.port);
        try {
          const ran: string[] = [];
          const tools = {
            search: tool({
              inputSchema: z.object({ q: z.string() }),
              execute: async ({ q }) => {
                ran.push(q);
                if (q === 'first') {
                  // Redis dies after the first call was counted
                  await doomed.kill();
                  while (doomedClient.status === 'ready') await sleep(5);
                }
                return `found ${q}`;
              },
            }),
          };
          const interventions = createInterventions({
            handlers: [
              rateLimit({
                limit: 10,
                windowMs: 60_000,
                per: 'run',
                store: createRedisStore({ client: doomedClient, prefix: uniquePrefix() }),
                onError,
                timeoutMs: 5_000,
              }),
            ],
          });
          const model = scriptedModel(
            step(toolCall('c1', 'search', { q: 'first' })),
            step(toolCall('c2', 'search', { q: 'second' })),
            step(text('done')),
          );

          const outcome = await run(interventions, mode, { model, tools, stopWhen: isStepCount(5), prompt: 'go' }).then(
            (result) => ({ result }),
            (error: unknown) => ({ error }),
          );

          expect(doomed.exited).toBe(true);
          if (onError === 'throw') {
            expect('error' in outcome && InterventionHandlerError.isInstance(outcome.error)).toBe(true);
            expect(outcome).toMatchObject({ error: { handlerName: 'rate-limit', lifecycle: 'beforeToolCall' } });
            expect(String('error' in outcome && (outcome.error as Error).cause)).toMatch(REDIS_DOWN);
            expect(ran).toEqual(['first']);
            expect(model.calls).toHaveLength(2);
            return;
          }
          expect('result' in outcome).toBe(true);
          const decisions = 'result' in outcome ? outcome.result.decisions : [];
          expect(decisions[0]).toMatchObject({ toolCallId: 'c1', action: 'proceed' });
          expect(decisions[0]?.error).toBeUndefined();
          expect(decisions[1]?.toolCallId).toBe('c2');
          // the client's own error, at once (not the handler's timeout)
          expect(String(decisions[1]?.error)).toMatch(/max retries per request|Connection is closed|ECONNREFUSED|writeable/i);
          if (onError === 'deny') {
            expect(ran).toEqual(['first']);
            expect(deniedText(toolResultsSent(model, 2).c2)).toContain('The "rate-limit" check failed, so this was blocked (fail closed).');
          } else {
            expect(ran).toEqual(['first', 'second']);
            expect(toolResultsSent(model, 2).c2).toEqual({ type: 'text', value: 'found second' });
          }
        } finally {
          doomedClient.disconnect();
          await doomed.kill();
        }
      });
    }
  });
});

/** The store's methods of an ioredis client, as a plain object. */
function wrap(client: Redis): RedisStoreClient {
  return {
    eval: (script, numkeys, ...args) => client.eval(script, numkeys, ...args),
    get: (key) => client.get(key),
    set: (key: string, value: string, mode?: 'PX', ms?: number) =>
      mode === undefined || ms === undefined ? client.set(key, value) : client.set(key, value, mode, ms),
    del: (key) => client.del(key),
  };
}
