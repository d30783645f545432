/**
 * One server instance for the Redis steering test, run as its own process
 * (`spawnChild`, args `<redis port> <key prefix> <queue key> <role>`).
 *
 * `run`: on `start`, streams `interventions.streamText` on a scripted model
 * with `steering: createRedisMessageQueue(...)`; the first turn calls a tool
 * that sends `tool-started` and holds until `release`. Sends `finished` with
 * the run's text and every request the model received.
 * `feed`: on `push`, pushes a steering message to the same key; on `drain`,
 * drains the queue itself and sends what it got.
 */
import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import { tool, type UserModelMessage } from 'ai';
import { Redis } from 'ioredis';
import { z } from 'zod';
import { createInterventions } from '../../src/index.ts';
import { createRedisMessageQueue } from '../../src/queue/create-redis-message-queue.ts';
import { connectParent } from '../helpers/child-process.ts';
import { scriptedModel, step, text, toolCall } from '../helpers/scripted-model.ts';

export type SteeringChildCommand =
  | { readonly type: 'start' }
  | { readonly type: 'release' }
  | { readonly type: 'push'; readonly text: string }
  | { readonly type: 'drain' };

export type SteeringChildMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'tool-started' }
  | { readonly type: 'finished'; readonly text: string; readonly prompts: readonly LanguageModelV4Prompt[] }
  | { readonly type: 'pushed' }
  | { readonly type: 'drained'; readonly messages: readonly UserModelMessage[] };

const [port, prefix, key = '', role] = process.argv.slice(2);
const parent = connectParent<SteeringChildCommand, SteeringChildMessage>();
const client = new Redis({ host: '127.0.0.1', port: Number(port), maxRetriesPerRequest: 1 });
const queue = createRedisMessageQueue({ client, key, prefix });
await queue.size(); // connected, scripts warm
parent.send({ type: 'ready' });
const forever = { timeoutMs: Number.POSITIVE_INFINITY };

if (role === 'run') {
  const tools = {
    check_weather: tool({
      inputSchema: z.object({ city: z.string() }),
      execute: async ({ city }) => {
        parent.send({ type: 'tool-started' });
        await parent.receive('release', forever);
        return `Sunny in ${city}, France.`;
      },
    }),
  };
  const model = scriptedModel(step(toolCall('w1', 'check_weather', { city: 'Paris' })), step(text('Checked Paris, Texas.')));
  await parent.receive('start', forever);
  const result = createInterventions().streamText({
    model,
    tools,
    prompt: 'What is the weather in Paris?',
    steering: queue,
    maxSteps: 5,
  });
  parent.send({ type: 'finished', text: await result.text, prompts: model.calls.map((call) => call.prompt) });
} else {
  const { text: message } = await parent.receive('push', forever);
  await queue.push(message);
  parent.send({ type: 'pushed' });
  await parent.receive('drain', forever);
  parent.send({ type: 'drained', messages: await queue.drain() });
}
await client.quit();
