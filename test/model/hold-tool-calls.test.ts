/**
 * How long a streamed step's tool calls are held before the client and the
 * SDK get them: each call until it is decided, a turn until the provider
 * finishes only when gates must see it whole.
 */
import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { isStepCount, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createInterventions,
  defineHandler,
  type HooksConfig,
  InterventionActions,
  type InterventionHandlerLike,
} from '../../src/index.ts';
import { usage } from '../helpers/scripted-model.ts';
import { DONE_STEP, TWO_CALL_STEP } from '../helpers/streamed-calls.ts';

const echo = (ran: string[]) =>
  tool({
    inputSchema: z.object({ text: z.string() }),
    execute: async ({ text }) => {
      ran.push(text);
      return text;
    },
  });

/**
 * A model whose first step streams call c1 whole, then waits (until `resume`
 * is called, or `waitMs`: a hold that keeps c1 fails a test instead of
 * hanging it) before streaming call c2's arguments and the finish; its second
 * step answers "done". `events` records when the provider gave the finish.
 */
function slowSecondCall(events: string[], waitMs: number) {
  let resume: () => void = () => {};
  const resumed = new Promise<void>((resolve) => {
    resume = resolve;
    setTimeout(resolve, waitMs);
  });
  let calls = 0;
  const first = TWO_CALL_STEP;
  const last = DONE_STEP;
  const model = new MockLanguageModelV4({
    doStream: async () => {
      const parts = calls++ === 0 ? first : last;
      let index = 0;
      return {
        stream: new ReadableStream<LanguageModelV4StreamPart>({
          async pull(controller) {
            const part = parts[index++] as LanguageModelV4StreamPart;
            if (parts === first && part.type === 'tool-input-start' && part.id === 'c2') await resumed;
            if (part.type === 'finish' && parts === first) events.push('provider finished');
            controller.enqueue(part);
            if (index === parts.length) controller.close();
          },
        }),
      };
    },
  });
  return { model, resume };
}

/** `waitMs`: how long the provider waits for the client to get c1 (long enough for a loaded machine when it should). */
async function streamed(handlers: InterventionHandlerLike[], hooks: HooksConfig = {}, waitMs = 2_000) {
  const events: string[] = [];
  const ran: string[] = [];
  const { model, resume } = slowSecondCall(events, waitMs);
  const interventions = createInterventions({ handlers, hooks });
  const result = interventions.streamText({ model, tools: { echo: echo(ran) }, prompt: 'go', stopWhen: isStepCount(2) });
  const deltas: string[] = [];
  for await (const part of result.fullStream) {
    if (part.type === 'tool-call') {
      events.push(`client got ${part.toolCallId}`);
      if (part.toolCallId === 'c1') resume();
    }
    if (part.type === 'tool-input-delta') deltas.push(part.delta);
  }
  return { events, ran, deltas, text: await result.text };
}

const proceed = defineHandler({ name: 'proceed', beforeToolCall: () => InterventionActions.proceed() });

/** Replaces an argument starting with "secret". */
const redactSecrets = defineHandler({
  name: 'redact',
  beforeToolCall: ({ toolCall }) => {
    if (!(toolCall.input as { text: string }).text.startsWith('secret')) return InterventionActions.proceed();
    return InterventionActions.transform((draft) => {
      if ('toolCall' in draft) draft.toolCall.input = { text: '[redacted]' };
    });
  },
});

/** A model streaming `parts` one per read (the rest never read ahead), then ending, or throwing `error`. */
function partsModel(parts: readonly LanguageModelV4StreamPart[], error?: Error) {
  return new MockLanguageModelV4({
    doStream: async () => {
      const left = [...parts];
      return {
        stream: new ReadableStream<LanguageModelV4StreamPart>(
          {
            pull(controller) {
              const part = left.shift();
              if (part !== undefined) controller.enqueue(part);
              else if (error === undefined) controller.close();
              else controller.error(error);
            },
          },
          { highWaterMark: 0 },
        ),
      };
    },
  });
}

/** A part the client gets, as `type id text` (the text: a delta, or a call's input). */
function seen(part: { type: string } & Record<string, unknown>): string {
  const text = part.delta ?? (part.input === undefined ? '' : JSON.stringify(part.input));
  return [part.type, part.id ?? part.toolCallId ?? '', text].join(' ').trim();
}

/** One step of `parts` through interventions.streamText with `redactSecrets`: the tool parts the client got, and what ran. */
async function oneStep(parts: readonly LanguageModelV4StreamPart[]) {
  const ran: string[] = [];
  const interventions = createInterventions({ handlers: [redactSecrets] });
  const result = interventions.streamText({ model: partsModel(parts), tools: { echo: echo(ran) }, prompt: 'go', stopWhen: isStepCount(1) });
  const got: string[] = [];
  for await (const part of result.fullStream) if (part.type.startsWith('tool-')) got.push(seen(part));
  return { got, ran };
}

describe('holdToolCalls (through interventions.streamText)', () => {
  describe('when beforeToolCall handlers decide the calls', () => {
    it('should hand each call to the client as soon as it is decided, before the provider finishes the step', async () => {
      const { events, ran, text } = await streamed([proceed]);

      expect(events).toEqual(['client got c1', 'provider finished', 'client got c2']);
      expect(ran).toEqual(['secret-1', 'two']);
      expect(text).toBe('done');
    });

    it("should stream no argument of a call before its decision, and the transformed call's arguments only", async () => {
      const { events, ran, deltas } = await streamed([redactSecrets]);

      expect(deltas.join('')).not.toContain('secret');
      expect(deltas).toEqual(['{"text":"[redacted]"}', '{"text":"two"}']);
      expect(ran).toEqual(['[redacted]', 'two']);
      expect(events[0]).toBe('client got c1');
    });
  });

  describe('when a call is decided while the arguments of another are still streaming', () => {
    it('should hold the decided call behind the other until that one is decided too, so none of its arguments leaks', async () => {
      const parts: LanguageModelV4StreamPart[] = [
        { type: 'stream-start', warnings: [] },
        { type: 'tool-input-start', id: 'c1', toolName: 'echo' },
        { type: 'tool-input-start', id: 'c2', toolName: 'echo' },
        { type: 'tool-input-delta', id: 'c1', delta: '{"text":"one"}' },
        { type: 'tool-input-end', id: 'c1' },
        { type: 'tool-call', toolCallId: 'c1', toolName: 'echo', input: '{"text":"one"}' },
        { type: 'tool-input-delta', id: 'c2', delta: '{"text":"secret-2"}' },
        { type: 'tool-input-end', id: 'c2' },
        { type: 'tool-call', toolCallId: 'c2', toolName: 'echo', input: '{"text":"secret-2"}' },
        { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage },
      ];
      const { got, ran } = await oneStep(parts);

      expect(got).toEqual([
        'tool-input-start c1',
        'tool-input-start c2',
        'tool-input-delta c1 {"text":"one"}',
        'tool-input-end c1',
        'tool-call c1 {"text":"one"}',
        'tool-input-delta c2 {"text":"[redacted]"}',
        'tool-input-end c2',
        'tool-call c2 {"text":"[redacted]"}',
        'tool-result c1 {"text":"one"}',
        'tool-result c2 {"text":"[redacted]"}',
      ]);
      expect(ran).toEqual(['one', '[redacted]']);
    });
  });

  describe('when the provider repeats a call id in a step', () => {
    it('should give each later call an id of its own on all its parts, so each is decided, run and answered alone', async () => {
      const streamedCall = (input: string): LanguageModelV4StreamPart[] => [
        { type: 'tool-input-start', id: 'c1', toolName: 'echo' },
        { type: 'tool-input-delta', id: 'c1', delta: input },
        { type: 'tool-input-end', id: 'c1' },
        { type: 'tool-call', toolCallId: 'c1', toolName: 'echo', input },
      ];
      const parts: LanguageModelV4StreamPart[] = [
        { type: 'stream-start', warnings: [] },
        ...streamedCall('{"text":"secret-1"}'),
        ...streamedCall('{"text":"two"}'),
        { type: 'tool-call', toolCallId: 'c1', toolName: 'echo', input: '{"text":"three"}' },
        { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage },
      ];
      const { got, ran } = await oneStep(parts);

      expect(got).toEqual([
        'tool-input-start c1',
        'tool-input-delta c1 {"text":"[redacted]"}',
        'tool-input-end c1',
        'tool-call c1 {"text":"[redacted]"}',
        'tool-input-start c1-2',
        'tool-input-delta c1-2 {"text":"two"}',
        'tool-input-end c1-2',
        'tool-call c1-2 {"text":"two"}',
        'tool-call c1-3 {"text":"three"}',
        'tool-result c1 {"text":"[redacted]"}',
        'tool-result c1-2 {"text":"two"}',
        'tool-result c1-3 {"text":"three"}',
      ]);
      expect(ran).toEqual(['[redacted]', 'two', 'three']);
    });
  });

  describe('when a call is decided while another never completes', () => {
    it('should release the decided call as decided at the finish, and run nothing for the incomplete one', async () => {
      const ran: string[] = [];
      const parts: LanguageModelV4StreamPart[] = [
        { type: 'stream-start', warnings: [] },
        { type: 'tool-input-start', id: 'c1', toolName: 'echo' },
        { type: 'tool-input-delta', id: 'c1', delta: '{"text":"nev' },
        { type: 'tool-call', toolCallId: 'c2', toolName: 'echo', input: '{"text":"secret-2"}' },
        { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage },
      ];
      const model = new MockLanguageModelV4({
        doStream: async () => ({
          stream: new ReadableStream<LanguageModelV4StreamPart>({
            start(controller) {
              for (const part of parts) controller.enqueue(part);
              controller.close();
            },
          }),
        }),
      });
      const interventions = createInterventions({ handlers: [redactSecrets] });

      const result = interventions.streamText({ model, tools: { echo: echo(ran) }, prompt: 'go', stopWhen: isStepCount(1) });
      const calls: unknown[] = [];
      for await (const part of result.fullStream) if (part.type === 'tool-call') calls.push(part.input);

      expect(ran).toEqual(['[redacted]']);
      expect(calls).toEqual([{ text: '[redacted]' }]);
    });
  });

  describe('when the caller aborts while a call is held and a read of the provider is under way', () => {
    it('should end as an abort and write nothing to the cancelled stream', async () => {
      const rejections: unknown[] = [];
      const onRejection = (reason: unknown) => rejections.push(reason);
      process.on('unhandledRejection', onRejection);
      try {
        const ran: string[] = [];
        const abort = new AbortController();
        const model = new MockLanguageModelV4({
          doStream: async () => ({
            stream: new ReadableStream<LanguageModelV4StreamPart>({
              start(controller) {
                controller.enqueue({ type: 'stream-start', warnings: [] });
                controller.enqueue({ type: 'tool-input-start', id: 'c1', toolName: 'echo' });
                controller.enqueue({ type: 'tool-input-delta', id: 'c1', delta: '{"text":"nev' });
                // and sends nothing more: the read under way ends only when the stream is cancelled
              },
            }),
          }),
        });
        const interventions = createInterventions({ handlers: [proceed] });

        const result = interventions.streamText({
          model,
          tools: { echo: echo(ran) },
          prompt: 'go',
          stopWhen: isStepCount(1),
          abortSignal: abort.signal,
        });
        setTimeout(() => abort.abort(new Error('the user left')), 20);
        const types: string[] = [];
        for await (const part of result.fullStream) types.push(part.type);
        await new Promise((resolve) => setTimeout(resolve, 50)); // the read under way settles meanwhile

        expect(types).toEqual(['start', 'abort']);
        expect(ran).toEqual([]);
        expect(rejections).toEqual([]);
      } finally {
        process.off('unhandledRejection', onRejection);
      }
    });
  });

  describe("when the provider's stream throws while calls are held", () => {
    it('should release each held call, decided as decided and the other as it came, then end with the error', async () => {
      const ran: string[] = [];
      // c1 is decided (its secret redacted) while c2's arguments still stream: c1 is held behind c2
      const parts: LanguageModelV4StreamPart[] = [
        { type: 'stream-start', warnings: [] },
        { type: 'tool-input-start', id: 'c1', toolName: 'echo' },
        { type: 'tool-input-start', id: 'c2', toolName: 'echo' },
        { type: 'tool-input-delta', id: 'c1', delta: '{"text":"secret-1"}' },
        { type: 'tool-input-end', id: 'c1' },
        { type: 'tool-call', toolCallId: 'c1', toolName: 'echo', input: '{"text":"secret-1"}' },
        { type: 'tool-input-delta', id: 'c2', delta: '{"text":"tw' },
      ];
      const model = partsModel(parts, new Error('connection reset'));
      const interventions = createInterventions({ handlers: [redactSecrets] });

      const result = interventions.streamText({ model, tools: { echo: echo(ran) }, prompt: 'go', stopWhen: isStepCount(2) });
      const got: string[] = [];
      await expect(
        (async () => {
          for await (const part of result.fullStream) got.push(seen(part));
        })(),
      ).rejects.toThrow('connection reset');

      expect(got).toEqual([
        'start',
        'start-step',
        'tool-input-start c1',
        'tool-input-start c2',
        'tool-input-delta c1 {"text":"[redacted]"}',
        'tool-input-end c1',
        'tool-call c1 {"text":"[redacted]"}',
        'tool-input-delta c2 {"text":"tw',
      ]);
      expect(ran).toEqual([]);
      expect(model.doStreamCalls).toHaveLength(1);
    });
  });

  describe.each([
    ['a handler', 'transforms the call'],
    ['a handler', 'throws'],
    ['a gateToolCalls hook', 'allows the turn'],
  ] as const)('when the caller aborts while %s decides a held call, and it %s after the abort', (who, then) => {
    it('should end as an abort and pass nothing more on: no part of the call, no tool run, no unhandled rejection', async () => {
      const rejections: unknown[] = [];
      const onRejection = (reason: unknown) => rejections.push(reason);
      process.on('unhandledRejection', onRejection);
      try {
        const ran: string[] = [];
        const abort = new AbortController();
        let answer: () => void = () => {};
        const answered = new Promise<void>((resolve) => {
          answer = resolve;
        });
        const events: string[] = [];
        /** Aborts, then waits to be answered (it ignores the signal): it settles after the abort. */
        const decideLate = async () => {
          setTimeout(() => abort.abort(new Error('the user left')), 5);
          await answered;
          events.push('settled');
        };
        const late = defineHandler({
          name: 'late',
          beforeToolCall: async () => {
            if (who === 'a handler') await decideLate();
            if (then === 'throws') throw new Error('too late');
            return InterventionActions.transform((draft) => {
              if ('toolCall' in draft) draft.toolCall.input = { text: '[redacted]' };
            });
          },
        });
        const gate: HooksConfig['gateToolCalls'] = async ({ calls }) => {
          await decideLate();
          return calls.map(() => InterventionActions.proceed());
        };
        const model = partsModel(TWO_CALL_STEP);
        const interventions = createInterventions({ handlers: [late], hooks: who === 'a handler' ? {} : { gateToolCalls: gate } });

        const result = interventions.streamText({
          model,
          tools: { echo: echo(ran) },
          prompt: 'go',
          stopWhen: isStepCount(2),
          abortSignal: abort.signal,
        });
        const got: string[] = [];
        for await (const part of result.fullStream) got.push(seen(part));
        answer();
        await new Promise((resolve) => setTimeout(resolve, 50)); // it settles meanwhile

        expect(events).toEqual(['settled']);
        expect(got).toEqual(['start', 'abort']);
        expect(ran).toEqual([]);
        expect(model.doStreamCalls).toHaveLength(1);
        expect(rejections).toEqual([]);
      } finally {
        process.off('unhandledRejection', onRejection);
      }
    });
  });

  describe('when gateToolCalls hooks must see the turn', () => {
    it("should hold the turn's calls until the provider finishes, and decide them together", async () => {
      const seen: string[][] = [];
      const { events, ran } = await streamed(
        [proceed],
        {
          gateToolCalls: ({ calls }) => {
            seen.push(calls.map((call) => call.toolCallId));
            return calls.map(() => InterventionActions.proceed());
          },
        },
        300, // c1 is held until the finish: the provider goes on without the client getting it
      );

      expect(events).toEqual(['provider finished', 'client got c1', 'client got c2']);
      expect(seen).toEqual([['c1', 'c2']]);
      expect(ran).toEqual(['secret-1', 'two']);
    });
  });
});
