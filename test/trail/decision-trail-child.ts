/**
 * One server instance for the decision trail's two-process test, run as its
 * own process (`spawnChild`, args `<redis port> <key prefix> <name>`).
 *
 * Sends `ready`; on each `run`, makes `runs` calls of
 * `interventions.generateText` at once (arriving over 100 ms), each deciding
 * three tool calls, with a trail on a Redis store keyed by the chat, and
 * sends `ran`: the ids of those runs and where each of their records was
 * written (index and hash). The test sends `run` again once both processes
 * have sent `ran` (a barrier): every record of a batch is then in the chain
 * before any of the next, whatever the machine's scheduling.
 */
import { isStepCount } from 'ai';
import { Redis } from 'ioredis';
import { createDecisionTrail, createInterventions, createRedisStore, type DecisionTrailPosition } from '../../src/index.ts';
import { connectParent } from '../helpers/child-process.ts';
import { noWipes, wipeAndLookupTools } from '../helpers/recording-tools.ts';
import { scriptedModel, step, text, toolCall } from '../helpers/scripted-model.ts';

export type TrailChildCommand = { readonly type: 'run'; readonly runs: number; readonly chatId: string };

export type TrailChildMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'ran'; readonly runIds: readonly string[]; readonly positions: readonly DecisionTrailPosition[] };

const [port, prefix, name = '?'] = process.argv.slice(2);
const parent = connectParent<TrailChildCommand, TrailChildMessage>();
const client = new Redis({ host: '127.0.0.1', port: Number(port), maxRetriesPerRequest: 1 });
const store = createRedisStore({ client, prefix });
const trail = createDecisionTrail({ store, key: ({ runtimeContext }) => `chat:${String(runtimeContext.chatId)}` });
const runIds: string[] = [];
const interventions = createInterventions({
  handlers: [noWipes],
  trail,
  policyVersion: `child-${name}`,
  hooks: { onChatStart: ({ runId }) => void (runId === undefined || runIds.push(runId)) },
});
const { tools } = wipeAndLookupTools();
// warm up (the connection, the scripts) on a chain of its own, so the two then race evenly
await store.append(`warm-up-${process.pid}`, 'x', { length: 0 });
parent.send({ type: 'ready' });

for (let batch = 0; ; batch++) {
  let command: TrailChildCommand;
  try {
    command = await parent.receive('run', { timeoutMs: Number.POSITIVE_INFINITY });
  } catch {
    break; // the test closed the channel: no more batches
  }
  const positions = await runBatch(command, batch);
  parent.send({ type: 'ran', runIds: runIds.splice(0), positions });
}
await client.quit();

/** `runs` runs at once on the shared chat, each with its three decisions; where their records were written. */
async function runBatch({ runs, chatId }: TrailChildCommand, batch: number): Promise<DecisionTrailPosition[]> {
  const positions: DecisionTrailPosition[] = [];
  await Promise.all(
    Array.from({ length: runs }, async (_, index) => {
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 100));
      const model = scriptedModel(
        step(
          toolCall('c1', 'wipe_disk', { disk: 'prod' }),
          toolCall('c2', 'lookup', { q: `${name}-${batch}-${index}` }),
          toolCall('c3', 'lookup', { q: 'weather' }),
        ),
        step(text('done')),
      );
      const result = await interventions.generateText({ model, tools, prompt: 'go', stopWhen: isStepCount(3), runtimeContext: { chatId } });
      for (const record of result.interventions.decisions) {
        if (record.trail === undefined) throw new Error(`a record of ${record.handler} was not written to the trail`);
        positions.push(record.trail);
      }
    }),
  );
  return positions;
}
