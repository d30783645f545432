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
 * is called, or 300 ms) before streaming call c2's arguments and the finish;
 * its second step answers "done". `events` records when the provider gave
 * the finish.
 */
function slowSecondCall(events: string[]) {
  let resume: () => void = () => {};
  const resumed = new Promise<void>((resolve) => {
    resume = resolve;
    setTimeout(resolve, 300);
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

async function streamed(handlers: InterventionHandlerLike[], hooks: HooksConfig = {}) {
  const events: string[] = [];
  const ran: string[] = [];
  const { model, resume } = slowSecondCall(events);
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

  describe('when gateToolCalls hooks must see the turn', () => {
    it("should hold the turn's calls until the provider finishes, and decide them together", async () => {
      const seen: string[][] = [];
      const { events, ran } = await streamed([proceed], {
        gateToolCalls: ({ calls }) => {
          seen.push(calls.map((call) => call.toolCallId));
          return calls.map(() => InterventionActions.proceed());
        },
      });

      expect(events).toEqual(['provider finished', 'client got c1', 'client got c2']);
      expect(seen).toEqual([['c1', 'c2']]);
      expect(ran).toEqual(['secret-1', 'two']);
    });
  });
});
