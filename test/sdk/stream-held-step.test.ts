import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { streamText } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { createInterventions, defineHandler, InterventionActions } from '../../src/index.ts';

const usage = {
  inputTokens: { total: 3, noCache: 3, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 2, text: 2, reasoning: undefined },
};
const step: LanguageModelV4StreamPart[] = [
  { type: 'stream-start', warnings: [] },
  { type: 'text-start', id: 't' },
  { type: 'text-delta', id: 't', delta: 'Hello' },
  { type: 'text-end', id: 't' },
  { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
];

/** A provider that streams the step, then keeps its stream open until `end` is called: with `after`, a part it sends then. */
function lingeringModel(after?: LanguageModelV4StreamPart) {
  let end: () => void = () => {};
  const provider = { closed: false, cancelled: false };
  const model = new MockLanguageModelV4({
    doStream: async () => ({
      stream: new ReadableStream<LanguageModelV4StreamPart>({
        start(controller) {
          for (const part of step) controller.enqueue(part);
          end = () => {
            if (provider.cancelled) return;
            if (after !== undefined) controller.enqueue(after);
            provider.closed = true;
            controller.close();
          };
        },
        cancel() {
          provider.cancelled = true;
        },
      }),
    }),
  });
  return { model, provider, end: () => end() };
}

/** A step held whole: an `afterModelCall` handler must see it. */
const holding = () =>
  createInterventions({ handlers: [defineHandler({ name: 'reviewer', afterModelCall: () => InterventionActions.proceed() })] });

const variants = { raw: streamText, held: (...args: Parameters<typeof streamText>) => holding().streamText(...args) };

describe('streamHeldStep', () => {
  for (const [name, stream] of Object.entries(variants)) {
    describe(`when the provider keeps its stream open after its finish part (${name})`, () => {
      it('should give the step to the reader before the provider closes its stream', async () => {
        const { model, provider, end } = lingeringModel();
        const reader = stream({ model, prompt: 'hi' }).fullStream.getReader();
        const seen: string[] = [];
        for (let read = await reader.read(); !read.done; read = await reader.read()) {
          seen.push(read.value.type);
          if (read.value.type === 'text-end') break;
        }
        expect(provider.closed).toBe(false);
        end();
        for (let read = await reader.read(); !read.done; read = await reader.read()) seen.push(read.value.type);
        expect(seen).toEqual(['start', 'start-step', 'text-start', 'text-delta', 'text-end', 'finish-step', 'finish']);
      });

      it('should pass on what the provider sends after its finish part, after the step', async () => {
        const { model, end } = lingeringModel({ type: 'raw', rawValue: { late: true } });
        const result = stream({ model, prompt: 'hi', includeRawChunks: true });
        setTimeout(end, 5);
        const parts: unknown[] = [];
        for await (const part of result.fullStream) parts.push(part.type === 'raw' ? part : part.type);
        expect(parts).toEqual([
          'start',
          'start-step',
          'text-start',
          'text-delta',
          'text-end',
          { type: 'raw', rawValue: { late: true } },
          'finish-step',
          'finish',
        ]);
      });
    });
  }
});

describe('when the reader cancels while the provider keeps its stream open', () => {
  it('should leave the provider as the raw SDK leaves it', async () => {
    const outcomes: unknown[] = [];
    for (const stream of Object.values(variants)) {
      const { model, provider, end } = lingeringModel();
      const reader = stream({ model, prompt: 'hi' }).fullStream.getReader();
      for (let read = await reader.read(); !read.done && read.value.type !== 'text-end'; read = await reader.read()) {}
      await reader.cancel('enough');
      await new Promise((resolve) => setTimeout(resolve, 5));
      end();
      outcomes.push({ ...provider });
    }
    expect(outcomes[1]).toEqual(outcomes[0]);
  });
});
