/**
 * `createRedisStore` against a real `redis-server` (its own port on
 * 127.0.0.1, no persistence, killed after): the store contract, the atomic
 * `take` in one script, two server instances in separate processes sharing a
 * rate limit, and Redis going away in the middle of a run.
 *
 * Skipped, with a message, on a machine without `redis-server`.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { isStepCount, tool } from 'ai';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { rateLimit } from '../../src/builtins/rate-limit.ts';
import { createInterventions, InterventionHandlerError, type OnError } from '../../src/index.ts';
import { createRedisStore, type RedisStoreClient } from '../../src/store/create-redis-store.ts';
import { deniedText, MODES, run } from '../helpers/run-both.ts';
import { scriptedModel, step, text, toolCall, toolResultsSent } from '../helpers/scripted-model.ts';
import { hasRedisServer, startRedisServer, type RedisServer } from './redis-server.ts';
import { storeContract } from './store-contract.ts';

const title = hasRedisServer
  ? 'createRedisStore on a real redis-server'
  : 'createRedisStore on a real redis-server (SKIPPED: no `redis-server` on the PATH; on Debian: apt-get install redis-server)';

/** What ioredis rejects with while Redis is away. */
const REDIS_DOWN = /max retries per request|Connection is closed|ECONNREFUSED|writeable/i;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
let prefixes = 0;
const uniquePrefix = () => `test-${process.pid}-${++prefixes}:`;

/** A client that fails fast while Redis is away (the default would queue commands through 20 reconnects). */
function connect(server: RedisServer): Redis {
  const client = new Redis({ host: '127.0.0.1', port: server.port, maxRetriesPerRequest: 0 });
  client.on('error', () => {}); // connection errors reach the store's callers; no log noise
  return client;
}

if (!hasRedisServer) console.warn(`${title}`);

describe.skipIf(!hasRedisServer)(title, () => {
  let server: RedisServer;
  let client: Redis;

  beforeAll(async () => {
    server = await startRedisServer();
    client = connect(server);
  });

  afterAll(async () => {
    client?.disconnect();
    await server?.kill();
  });

  describe('the Store contract', () => {
    storeContract(() => ({ store: createRedisStore({ client, prefix: uniquePrefix() }), advance: sleep }));
  });

  it('should accept an ioredis client as it is, and keep its keys under the prefix', async () => {
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
    expect(await createRedisStore({ client }).get('never-set')).toBeUndefined();
  });

  it('should take with one script call (EVALSHA), and send the script when Redis lost it', async () => {
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
    const prefix = uniquePrefix();
    const store = createRedisStore({ client, prefix });
    await client.set(`${prefix}text`, 'not a number');
    await expect(store.take('text', { amount: 1, limit: 5 })).rejects.toThrow();
    const odd: RedisStoreClient = { ...wrap(client), eval: async () => 'OK', evalsha: async () => 'OK' };
    await expect(createRedisStore({ client: odd }).take('k', { amount: 1, limit: 1 })).rejects.toThrow(
      /createRedisStore: unexpected reply to take: "OK"/,
    );
  });

  it('should never let two server instances in separate processes exceed a shared limit (2 × 250 concurrent calls)', async () => {
    const prefix = uniquePrefix();
    const limit = 137;
    const script = fileURLToPath(new URL('./redis-rate-limit-child.ts', import.meta.url));
    const children = [0, 1].map(() =>
      spawn(
        process.execPath,
        ['--experimental-strip-types', '--disable-warning=ExperimentalWarning', '--conditions=ai-interventions-source', script, String(server.port), prefix, '250', String(limit)],
        { cwd: fileURLToPath(new URL('../..', import.meta.url)), stdio: ['pipe', 'pipe', 'pipe'] },
      ),
    );
    const outputs = children.map((child) => {
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
      });
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      return { read: () => stdout, error: () => stderr, exited };
    });
    // start both at once, once both are connected
    const deadline = Date.now() + 30_000;
    while (!outputs.every((output) => output.read().includes('ready\n'))) {
      const failed = outputs.find((output, index) => children[index]?.exitCode !== null && !output.read().includes('ready'));
      if (failed !== undefined || Date.now() > deadline) throw new Error(`a child did not start:\n${failed?.error() ?? 'timeout'}`);
      await sleep(20);
    }
    for (const child of children) child.stdin.end('go\n');
    const codes = await Promise.all(outputs.map((output) => output.exited));
    expect(codes, outputs.map((output) => output.error()).join('\n')).toEqual([0, 0]);

    const reports = outputs.map(
      (output) => JSON.parse(output.read().trim().split('\n').at(-1) ?? '{}') as { executed: number; denied: number; errors: number; reasons: string[] },
    );
    const executed = reports.reduce((sum, report) => sum + report.executed, 0);
    const denied = reports.reduce((sum, report) => sum + report.denied, 0);
    expect(executed).toBe(limit);
    expect(denied).toBe(500 - limit);
    expect(reports.map((report) => report.errors)).toEqual([0, 0]);
    // the calls of both processes interleaved (both ran some, both were denied some), denied with the limit's reason
    expect(reports.every((report) => report.executed > 0 && report.denied > 0), JSON.stringify(reports)).toBe(true);
    expect([...new Set(reports.flatMap((report) => report.reasons))]).toEqual([
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
        const doomedClient = connect(doomed);
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
