/**
 * A run that steers (a steering or follow-up queue, a drain hook, `maxSteps`)
 * gives the SDK a steering object of its own, and from `ai` 7.0.177 on the
 * SDK then gives every model call a signal of its own (one only an
 * interrupting steer aborts): the provider, `repairToolCall` and the
 * `experimental_download` function get exactly the signal the raw SDK gives
 * them, none where it gives none, whatever `ai` release runs
 * (`npm run test:ai-range` runs these on the lowest and the newest).
 */
import { generateText, isStepCount, streamText, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createInterventions, createMessageQueue, type Interventions } from '../../src/index.ts';
import { type CallOptions, MODES, type Mode, run } from '../helpers/run-both.ts';
import { scriptedModel, step, text, toolCall } from '../helpers/scripted-model.ts';

const echo = tool({ inputSchema: z.object({}), execute: async () => 'ok' });

/** The raw SDK's call, the stream consumed. */
async function raw(mode: Mode, options: CallOptions): Promise<void> {
  if (mode === 'generateText') {
    await generateText(options as Parameters<typeof generateText>[0]);
    return;
  }
  const result = streamText(options as Parameters<typeof streamText>[0]);
  for await (const _ of result.fullStream);
}

/** Runs `options` (a fresh model each time) raw, then through `interventions`: what `seen` records, per side. */
async function bothSides<T>(
  mode: Mode,
  interventions: Interventions,
  options: () => CallOptions & { readonly seen: T[] },
): Promise<{ raw: T[]; wrapped: T[] }> {
  const rawOptions = options();
  await raw(mode, rawOptions);
  const wrappedOptions = options();
  await run(interventions, mode, wrappedOptions);
  return { raw: rawOptions.seen, wrapped: wrappedOptions.seen };
}

// the ways a run comes to steer with a steering object of its own
const steers = [
  ['a drain hook', () => ({ interventions: createInterventions({ hooks: { drainSteering: () => undefined } }), extra: {} })],
  ['a steering queue', () => ({ interventions: createInterventions(), extra: { steering: createMessageQueue() } })],
  [
    'a follow-up queue and maxSteps',
    () => ({ interventions: createInterventions(), extra: { followUp: createMessageQueue(), maxSteps: 3 } }),
  ],
] as const;

describe('the signal of a model call in a run that steers', () => {
  for (const mode of MODES) {
    it.each(steers)(`should be the raw SDK's, none when the caller gives none (%s, ${mode})`, async (_, setup) => {
      const { interventions, extra } = setup();
      const seen = await bothSides(mode, interventions, () => {
        const model = scriptedModel(step(toolCall('c1', 'echo', {})), step(text('done')));
        return { model, tools: { echo }, stopWhen: isStepCount(3), prompt: 'go', ...extra, seen: model.calls };
      });
      const signals = (calls: typeof seen.raw) => calls.map((call) => call.abortSignal);
      expect(signals(seen.raw)).toEqual([undefined, undefined]);
      expect(signals(seen.wrapped)).toEqual(signals(seen.raw));
    });

    it(`should carry the caller's abortSignal and timeout, as the raw SDK's does (${mode})`, async () => {
      const { interventions } = steers[0][1]();
      for (const given of [{ abortSignal: 'signal' }, { timeout: { stepMs: 60_000 } }, { timeout: 60_000 }] as const) {
        const controllers: AbortController[] = [];
        const seen = await bothSides(mode, interventions, () => {
          const controller = new AbortController();
          controllers.push(controller);
          const model = scriptedModel(step(text('done')));
          const options = 'abortSignal' in given ? { abortSignal: controller.signal } : given;
          return { model, prompt: 'go', ...options, seen: model.calls };
        });
        for (const controller of controllers) controller.abort(new Error('stop'));
        const state = (calls: typeof seen.raw) => calls.map((call) => call.abortSignal?.aborted);
        expect(state(seen.raw), JSON.stringify(given)).toEqual(['abortSignal' in given]);
        expect(state(seen.wrapped), JSON.stringify(given)).toEqual(state(seen.raw));
      }
    });

    it(`should reach repairToolCall as the raw SDK's does (${mode})`, async () => {
      const { interventions } = steers[0][1]();
      const seen = await bothSides(mode, interventions, () => {
        const signals: Array<AbortSignal | undefined> = [];
        return {
          model: scriptedModel(step(toolCall('c1', 'ech', {})), step(text('done'))),
          tools: { echo },
          stopWhen: isStepCount(3),
          prompt: 'go',
          repairToolCall: async ({ toolCall: call, abortSignal }) => (signals.push(abortSignal), { ...call, toolName: 'echo' }),
          seen: signals,
        };
      });
      expect(seen.raw).toEqual([undefined]);
      expect(seen.wrapped).toEqual(seen.raw);
    });

    it(`should reach the experimental_download function as the raw SDK's does (${mode})`, async () => {
      const { interventions } = steers[0][1]();
      const seen = await bothSides(mode, interventions, () => {
        const signals: Array<AbortSignal | undefined> = [];
        return {
          model: scriptedModel(step(text('a cat'))),
          messages: [
            {
              role: 'user',
              content: [{ type: 'file', data: new URL('https://example.com/cat.png'), mediaType: 'image/png' }],
            },
          ],
          // (object: ai 7.0.163's type of a download request has no abortSignal; later releases' has)
          experimental_download: async (requests: ReadonlyArray<object>) =>
            requests.map(
              (request) => (
                signals.push((request as { abortSignal?: AbortSignal }).abortSignal), { data: new Uint8Array([1]), mediaType: 'image/png' }
              ),
            ),
          seen: signals,
        };
      });
      expect(seen.raw).toEqual([undefined]);
      expect(seen.wrapped).toEqual(seen.raw);
    });
  }
});
