/**
 * One server instance for the Redis store test, run as its own process
 * (`spawnChild`, args `<port> <prefix> <limit> <runs>...`).
 *
 * Connects and warms up, sends `ready`; then for each number of `runs`, waits
 * for `go`, makes that many concurrent `interventions.generateText` calls of
 * one tool call each (arriving over 200 ms), all counted by one `rateLimit`
 * under the same Redis key, and sends a `report` of that batch: how many
 * calls ran and how many were denied (and why), and the counter's value
 * each call that ran took (its slot under the limit).
 */
import { isStepCount, tool } from 'ai';
import { Redis } from 'ioredis';
import { z } from 'zod';
import { rateLimit } from '../../src/builtins/rate-limit.ts';
import { createInterventions } from '../../src/index.ts';
import { createRedisStore } from '../../src/store/create-redis-store.ts';
import { connectParent } from '../helpers/child-process.ts';
import { scriptedModel, step, text, toolCall } from '../helpers/scripted-model.ts';

/** What the child sends. */
export type RateLimitChildMessage =
  | { readonly type: 'ready' }
  | {
      readonly type: 'report';
      readonly executed: number;
      readonly denied: number;
      readonly errors: number;
      readonly reasons: readonly string[];
      /** The counter's value after each take that was granted: the slots this batch's calls took. */
      readonly slots: readonly number[];
    };

const parent = connectParent<{ readonly type: 'go' }, RateLimitChildMessage>();

const [port, prefix, limit, ...batches] = process.argv.slice(2);
const client = new Redis({ host: '127.0.0.1', port: Number(port), maxRetriesPerRequest: 1 });
const store = createRedisStore({ client, prefix });
let slots: number[] = [];
const interventions = createInterventions({
  handlers: [
    rateLimit({
      name: 'shared-limit',
      limit: Number(limit),
      windowMs: 365 * 86_400_000, // one window for the whole test
      per: 'user',
      // the store as it is, but each granted take's value noted
      store: {
        ...store,
        take: async (key, options) => {
          const taken = await store.take(key, options);
          if (taken.taken) slots.push(taken.value);
          return taken;
        },
      },
    }),
  ],
});
let executed = 0;
const tools = {
  search: tool({
    inputSchema: z.object({ q: z.string() }),
    execute: async ({ q }) => {
      executed++;
      return `found ${q}`;
    },
  }),
};

// warm up (first-call costs), on a key of its own, so the two processes then race
await interventions.generateText({
  model: scriptedModel(step(toolCall('warm-up', 'search', { q: 'warm-up' })), step(text('done'))),
  tools,
  stopWhen: isStepCount(3),
  prompt: 'warm up',
  runtimeContext: { userId: `warm-up-${process.pid}` },
});
parent.send({ type: 'ready' });

for (const [batch, runs] of batches.entries()) {
  await parent.receive('go', { timeoutMs: Number.POSITIVE_INFINITY });
  executed = 0;
  slots = [];
  // all runs in flight together, arriving over 200 ms (like requests), so the two processes' calls race at Redis
  const results = await Promise.all(
    Array.from({ length: Number(runs) }, async (_, index) => {
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 200));
      return interventions.generateText({
        model: scriptedModel(step(toolCall(`c${batch}-${index}`, 'search', { q: `q${index}` })), step(text('done'))),
        tools,
        stopWhen: isStepCount(3),
        prompt: `search ${index}`,
        runtimeContext: { userId: 'shared-user' },
      });
    }),
  );
  const records = results.flatMap((result) => result.interventions.decisions);
  parent.send({
    type: 'report',
    executed,
    denied: records.filter((record) => record.action === 'deny').length,
    errors: records.filter((record) => record.error !== undefined).length,
    reasons: [
      ...new Set(
        records.flatMap((record) =>
          record.reason === undefined ? [] : [record.reason.replace(/resets in \d+ \w+ \(at [^)]*\)/, 'resets in …')],
        ),
      ),
    ],
    slots,
  });
}
await client.quit();
