import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { type StreamTextTransform, streamText, type ToolSet } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { createInterventions, InterventionActions, type InterventionsOptions } from '../../src/index.ts';
import { observeStream } from '../helpers/differential.ts';

type StreamOptions = Parameters<typeof streamText>[0];

/** A provider that starts a response and then sends nothing more (no output part, no finish), recording the signal it was given. */
function silentModel() {
  const signals: AbortSignal[] = [];
  const parts: LanguageModelV4StreamPart[] = [
    { type: 'stream-start', warnings: [] },
    { type: 'response-metadata', id: 'resp-1', modelId: 'mock-model' },
  ];
  const model = new MockLanguageModelV4({
    doStream: async ({ abortSignal }) => {
      if (abortSignal !== undefined) signals.push(abortSignal);
      return {
        stream: new ReadableStream<LanguageModelV4StreamPart>({
          start: (controller) => {
            for (const part of parts) controller.enqueue(part);
          },
        }),
      };
    },
  });
  return { model, signals };
}

/** An `experimental_transform` that stops the step stream as soon as the step starts. */
const stopAtStepStart: StreamTextTransform<ToolSet> = ({ stopStream }) =>
  new TransformStream({
    transform(part, controller) {
      if (part.type === 'start-step') stopStream();
      controller.enqueue(part);
    },
  });

const HOLDING: ReadonlyArray<readonly [string, InterventionsOptions]> = [
  ['an afterModelCall handler holds the step', { handlers: [{ name: 'after', afterModelCall: () => InterventionActions.proceed() }] }],
  ['an onResponse hook holds the step', { hooks: { onResponse: () => undefined } }],
];

const FIRST_CHUNK_MS = 20;

async function observe(run: (options: StreamOptions) => ReturnType<typeof streamText>) {
  const { model, signals } = silentModel();
  const observed = await observeStream(run, {
    model,
    prompt: 'Hello',
    timeout: { firstChunkMs: FIRST_CHUNK_MS },
    experimental_transform: stopAtStepStart,
  });
  // well past the first-chunk timeout: a timer the stop did not clear would have fired
  await new Promise((resolve) => setTimeout(resolve, FIRST_CHUNK_MS * 3));
  return { observed, aborted: signals.map((signal) => signal.aborted) };
}

describe('interventions.streamText', () => {
  for (const [name, options] of HOLDING) {
    describe(`when ${name} and a transform stops the step stream before the first chunk is due`, () => {
      it("should leave the model's abort signal alone and end the stream as the raw SDK does", async () => {
        const interventions = createInterventions(options);
        const raw = await observe((call) => streamText(call));
        const wrapped = await observe((call) => interventions.streamText(call));

        expect(raw.aborted).toEqual([false]);
        expect(wrapped.aborted).toEqual(raw.aborted);
        expect(wrapped.observed).toEqual(raw.observed);
      });
    });
  }
});
