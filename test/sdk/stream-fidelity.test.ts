import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { isStepCount, streamText, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createInterventions, defineHandler, InterventionActions, type InterventionsOptions } from '../../src/index.ts';
import { modelRequests, observeStream } from '../helpers/differential.ts';

const usage = {
  inputTokens: { total: 3, noCache: 3, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 4, text: 4, reasoning: 1 },
};
const signature = { anthropic: { signature: 'sig-abc' } };

/** A step with everything a provider may stream: metadata on every kind of part, raw chunks, streamed arguments. */
const richStep: LanguageModelV4StreamPart[] = [
  { type: 'stream-start', warnings: [{ type: 'other', message: 'heads up' }] },
  { type: 'response-metadata', id: 'resp-1', modelId: 'mock-model' },
  { type: 'raw', rawValue: { chunk: 1 } },
  { type: 'reasoning-start', id: 'r1', providerMetadata: signature },
  { type: 'reasoning-delta', id: 'r1', delta: 'Thinking ' },
  { type: 'reasoning-delta', id: 'r1', delta: 'hard.', providerMetadata: signature },
  { type: 'reasoning-end', id: 'r1', providerMetadata: signature },
  { type: 'text-start', id: 'txt-7', providerMetadata: { openai: { itemId: 'msg_1' } } },
  { type: 'text-delta', id: 'txt-7', delta: 'Let me ' },
  { type: 'text-delta', id: 'txt-7', delta: 'check.' },
  { type: 'text-end', id: 'txt-7' },
  { type: 'tool-input-start', id: 'c1', toolName: 'search', providerMetadata: { openai: { itemId: 'fc_1' } } },
  { type: 'tool-input-delta', id: 'c1', delta: '{"query":' },
  { type: 'tool-input-delta', id: 'c1', delta: '"cats"}' },
  { type: 'tool-input-end', id: 'c1' },
  { type: 'raw', rawValue: { chunk: 2 } },
  { type: 'tool-call', toolCallId: 'c1', toolName: 'search', input: '{"query":"cats"}', providerMetadata: { openai: { itemId: 'fc_1' } } },
  { type: 'tool-call', toolCallId: 'p1', toolName: 'web_search', input: '{}', providerExecuted: true },
  { type: 'tool-result', toolCallId: 'p1', toolName: 'web_search', result: { hits: 2 } },
  { type: 'text-start', id: 'txt-8' },
  { type: 'text-delta', id: 'txt-8', delta: 'More after the calls.' },
  { type: 'text-end', id: 'txt-8' },
  { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_use' }, usage, providerMetadata: { mock: { cost: 1 } } },
];

const answerStep: LanguageModelV4StreamPart[] = [
  { type: 'stream-start', warnings: [] },
  { type: 'text-start', id: 'a' },
  { type: 'text-delta', id: 'a', delta: 'Found ' },
  { type: 'text-delta', id: 'a', delta: 'two.' },
  { type: 'text-end', id: 'a' },
  { type: 'finish', finishReason: { unified: 'stop', raw: 'end_turn' }, usage },
];

function scripted(...steps: LanguageModelV4StreamPart[][]) {
  let call = 0;
  return new MockLanguageModelV4({
    doStream: async () => {
      const parts = steps[call++] ?? [];
      return {
        stream: new ReadableStream({
          start: (controller) => {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  });
}

function tools(received: unknown[]) {
  return {
    search: tool({
      inputSchema: z.object({ query: z.string() }),
      execute: async (input, { abortSignal }) => (received.push({ input, abortSignal: abortSignal !== undefined }), 'two hits'),
    }),
  };
}

const noop = defineHandler({
  name: 'noop',
  beforeInvocation: () => InterventionActions.proceed(),
  beforeModelCall: () => InterventionActions.proceed(),
  afterModelCall: () => InterventionActions.proceed(),
  beforeToolCall: () => InterventionActions.proceed(),
  afterToolCall: () => InterventionActions.proceed(),
});

const configurations: Record<string, InterventionsOptions> = {
  'nothing registered': {},
  'a held step (afterModelCall)': { handlers: [defineHandler({ name: 'after', afterModelCall: () => InterventionActions.proceed() })] },
  'a held step (onResponse hook)': { hooks: { onResponse: () => undefined } },
  'held tool calls (beforeToolCall)': {
    handlers: [defineHandler({ name: 'before', beforeToolCall: () => InterventionActions.proceed() })],
  },
  'held tool calls (gateToolCalls)': { hooks: { gateToolCalls: ({ calls }) => calls.map(() => InterventionActions.proceed()) } },
  'every lifecycle method and every hook': {
    handlers: [noop],
    hooks: {
      preRequest: () => undefined,
      onResponse: () => undefined,
      preToolCall: () => undefined,
      onToolCallResult: () => undefined,
      onToolCallError: () => undefined,
      gateToolCalls: ({ calls }) => calls.map(() => InterventionActions.proceed()),
      transformContext: () => undefined,
      onMessage: () => undefined,
      onDecision: () => undefined,
      onStatus: () => undefined,
      onChatStart: () => undefined,
      onChatDone: () => undefined,
      onChatError: () => undefined,
      onChatAbort: () => undefined,
    },
  },
};

describe('interventions.streamText', () => {
  for (const [name, options] of Object.entries(configurations)) {
    describe(`when ${name}`, () => {
      it('should stream, return and send exactly what the raw SDK does', async () => {
        const rawReceived: unknown[] = [];
        const rawModel = scripted(richStep, answerStep);
        const raw = await observeStream(streamText, {
          model: rawModel,
          tools: tools(rawReceived),
          stopWhen: isStepCount(3),
          prompt: 'find cats',
          includeRawChunks: true,
        });

        const wrappedReceived: unknown[] = [];
        const wrappedModel = scripted(richStep, answerStep);
        const interventions = createInterventions(options);
        const wrapped = await observeStream(interventions.streamText as typeof streamText, {
          model: wrappedModel,
          tools: tools(wrappedReceived),
          stopWhen: isStepCount(3),
          prompt: 'find cats',
          includeRawChunks: true,
        });

        expect(wrapped.parts).toEqual(raw.parts);
        expect(wrapped).toEqual(raw);
        expect(wrappedReceived).toEqual(rawReceived);
        expect(modelRequests(wrappedModel.doStreamCalls)).toEqual(modelRequests(rawModel.doStreamCalls));
      });
    });
  }

  describe('when a held step fails mid-stream', () => {
    const failing: LanguageModelV4StreamPart[] = [
      { type: 'stream-start', warnings: [] },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'Partial' },
      { type: 'error', error: new Error('overloaded') },
    ];
    for (const [name, options] of Object.entries(configurations)) {
      it(`should report the provider's error as the raw SDK does (${name})`, async () => {
        const raw = await observeStream(streamText, { model: scripted(failing), prompt: 'hi' });
        const wrapped = await observeStream(createInterventions(options).streamText as typeof streamText, {
          model: scripted(failing),
          prompt: 'hi',
        });
        expect(wrapped).toEqual(raw);
      });
    }

    it('should replay a provider stream that throws as it came, then throw the same error', async () => {
      const throwing = () =>
        new MockLanguageModelV4({
          doStream: async () => ({
            stream: new ReadableStream<LanguageModelV4StreamPart>({
              start(controller) {
                controller.enqueue({ type: 'stream-start', warnings: [] });
                controller.enqueue({ type: 'text-start', id: 't' });
                controller.enqueue({ type: 'text-delta', id: 't', delta: 'Partial' });
                controller.error(new Error('connection reset'));
              },
            }),
          }),
        });
      const raw = await observeStream(streamText, { model: throwing(), prompt: 'hi' });
      const wrapped = await observeStream(
        createInterventions(configurations['a held step (afterModelCall)']).streamText as typeof streamText,
        {
          model: throwing(),
          prompt: 'hi',
        },
      );
      expect(wrapped).toEqual(raw);
    });
  });
});
