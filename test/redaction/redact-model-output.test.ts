import { createOpenAI } from '@ai-sdk/openai';
import type { LanguageModelV4Content, LanguageModelV4GenerateResult, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { isStepCount, type LanguageModel, readUIMessageStream, streamText, tool, type UIMessage, type UIMessageChunk } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { cache, createInterventions, createRedactor, defineHandler, InterventionActions, redactSecrets } from '../../src/index.ts';
import { chunkedModel } from '../helpers/chunked-model.ts';
import {
  type OpenAICompatibleServer,
  replyText,
  type ScriptedTurn,
  startOpenAICompatibleServer,
  toolCall as wireToolCall,
} from '../helpers/openai-compatible-server.ts';
import { partsModel } from '../helpers/parts-model.ts';
import { MODES, run } from '../helpers/run-both.ts';
import { step, text, usage } from '../helpers/scripted-model.ts';

const KEY = 'sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z';
const TOKEN = 'Abc123Def456Ghi789';
/** The rule of issue 11: a lookbehind, so the token's context is on the other side of any cut. */
const tokens = createRedactor({ name: 'tokens', rules: [{ pattern: /(?<=token=)[A-Za-z0-9]{12,}/, replacement: '[TOKEN]' }] });
/** Long enough that a stream must release the token's neighbourhood before the text ends. */
const REST = ' and the rest of the answer, which goes on for a while after the token, as answers do.';
const ANSWER = `Here is the configuration you asked for, with the access token included: token=${TOKEN}${REST}`;
const REDACTED_ANSWER = `Here is the configuration you asked for, with the access token included: token=[TOKEN]${REST}`;

/** The parts of one block of `kind`, its text split into `size`-character deltas. */
function block(
  kind: 'text' | 'reasoning',
  id: string,
  value: string,
  {
    size = 3,
    start,
    end,
  }: { size?: number; start?: Record<string, Record<string, string>>; end?: Record<string, Record<string, string>> } = {},
): LanguageModelV4StreamPart[] {
  const deltas: LanguageModelV4StreamPart[] = [];
  for (let at = 0; at < value.length; at += size) {
    deltas.push({ type: `${kind}-delta`, id, delta: value.slice(at, at + size) } as LanguageModelV4StreamPart);
  }
  return [
    { type: `${kind}-start`, id, ...(start === undefined ? {} : { providerMetadata: start }) } as LanguageModelV4StreamPart,
    ...deltas,
    { type: `${kind}-end`, id, ...(end === undefined ? {} : { providerMetadata: end }) } as LanguageModelV4StreamPart,
  ];
}

const streamOf = (...blocks: LanguageModelV4StreamPart[][]): LanguageModelV4StreamPart[] => [
  { type: 'stream-start', warnings: [] },
  ...blocks.flat(),
  { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
];

/** The last UI message of a `streamText` result, as `useChat` would hold it. */
async function uiMessage(result: { toUIMessageStream(): ReadableStream<UIMessageChunk> }) {
  let last: UIMessage | undefined;
  for await (const message of readUIMessageStream({ stream: result.toUIMessageStream() })) last = message;
  if (last === undefined) throw new Error('no UI message');
  return last;
}

describe('redacting model output', () => {
  describe('when a rule has a lookbehind (issue 11)', () => {
    it('should stream exactly what generateText gives, in every channel, whatever the chunk size', async () => {
      const interventions = createInterventions({ redactors: [tokens] });
      const generated = await interventions.generateText({ model: chunkedModel(5, step(text(ANSWER))), prompt: 'config?' });
      expect(generated.text).toBe(REDACTED_ANSWER);

      for (const size of [1, 7, 64, 500]) {
        const result = interventions.streamText({ model: chunkedModel(size, step(text(ANSWER))), prompt: 'config?' });
        let streamed = '';
        for await (const delta of result.textStream) streamed += delta;
        expect(streamed).toBe(REDACTED_ANSWER);
        expect(await result.text).toBe(REDACTED_ANSWER);
        expect(JSON.stringify(await result.responseMessages)).not.toContain(TOKEN);

        const ui = await uiMessage(interventions.streamText({ model: chunkedModel(size, step(text(ANSWER))), prompt: 'config?' }));
        expect(ui.parts.filter((part) => part.type === 'text').map((part) => part.text)).toEqual([REDACTED_ANSWER]);
      }
    });
  });

  describe('when the model reasons (reasoning summaries)', () => {
    const REASONING = `I will call the billing API with ${KEY} and report back.`;
    const REDACTED_REASONING = 'I will call the billing API with [API_KEY] and report back.';
    // the shapes @ai-sdk/openai gives Responses API reasoning: an item id that a later request references
    const reasoningMetadata = { openai: { itemId: 'rs_1' } };
    const generated: LanguageModelV4GenerateResult = {
      ...step(text('Done.')),
      content: [
        { type: 'reasoning', text: REASONING, providerMetadata: reasoningMetadata } as LanguageModelV4Content,
        { type: 'text', text: 'Done.' },
      ],
    };
    const parts = streamOf(
      block('reasoning', 'r1', REASONING, { start: reasoningMetadata, end: reasoningMetadata }),
      block('text', 't1', 'Done.'),
    );

    it('should redact it in generateText, and forget the item that holds the original', async () => {
      const { redactor } = redactSecrets();
      const result = await createInterventions({ redactors: [redactor] }).generateText({
        model: partsModel(parts, generated),
        prompt: 'bill',
      });

      expect(result.reasoningText).toBe(REDACTED_REASONING);
      expect(result.responseMessages).toEqual([
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: REDACTED_REASONING },
            { type: 'text', text: 'Done.' },
          ],
        },
      ]);
    });

    it('should redact it as it streams, in the result, the response messages and the UI message', async () => {
      const { redactor } = redactSecrets();
      const interventions = createInterventions({ redactors: [redactor] });
      const result = interventions.streamText({ model: partsModel(parts), prompt: 'bill' });
      let streamed = '';
      for await (const part of result.fullStream) if (part.type === 'reasoning-delta') streamed += part.text;

      expect(streamed).toBe(REDACTED_REASONING);
      expect(await result.reasoningText).toBe(REDACTED_REASONING);
      expect(await result.responseMessages).toEqual([
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: REDACTED_REASONING },
            { type: 'text', text: 'Done.' },
          ],
        },
      ]);
      const ui = await uiMessage(interventions.streamText({ model: partsModel(parts), prompt: 'bill' }));
      const reasoning = ui.parts.find((part) => part.type === 'reasoning');
      expect(reasoning).toMatchObject({ type: 'reasoning', text: REDACTED_REASONING, state: 'done' });
      expect(reasoning?.providerMetadata).toBeUndefined();
    });
  });

  describe('with redactors registered, when a streamed block is not changed', () => {
    const start = { openai: { itemId: 'msg_1' } };
    const end = { openai: { itemId: 'msg_1', phase: 'final_answer' } };
    const parts = streamOf(
      block('text', 't1', 'Nothing secret here.', { start, end }),
      block('text', 't2', `But the key is ${KEY}.`, { start: { openai: { itemId: 'msg_2' } } }),
    );

    it("should keep the provider's metadata as the raw SDK merges it, and drop it from the block that changed", async () => {
      const { redactor } = redactSecrets();
      const raw = streamText({ model: partsModel(parts), prompt: 'x' });
      const wrapped = createInterventions({ redactors: [redactor] }).streamText({ model: partsModel(parts), prompt: 'x' });

      const [rawMessages, wrappedMessages] = [await raw.responseMessages, await wrapped.responseMessages];
      const rawContent = rawMessages[0]?.content as Array<{ type: string; text: string; providerOptions?: unknown }>;
      expect(rawContent[0]).toEqual({ type: 'text', text: 'Nothing secret here.', providerOptions: end });
      expect(wrappedMessages[0]?.content).toEqual([rawContent[0], { type: 'text', text: 'But the key is [API_KEY].' }]);

      const rawUi = await uiMessage(streamText({ model: partsModel(parts), prompt: 'x' }));
      const wrappedUi = await uiMessage(
        createInterventions({ redactors: [redactor] }).streamText({ model: partsModel(parts), prompt: 'x' }),
      );
      expect(wrappedUi.parts.filter((part) => part.type === 'text')).toEqual([
        rawUi.parts.find((part) => part.type === 'text'),
        { type: 'text', text: 'But the key is [API_KEY].', state: 'done' },
      ]);
    });
  });

  describe("with redactors registered, the channels that carry the provider's own copy", () => {
    it('should not pass on raw chunks (includeRawChunks), which carry the unredacted text', async () => {
      const parts = streamOf(
        [{ type: 'raw', rawValue: { type: 'response.output_text.delta', delta: KEY } }],
        block('text', 't1', `key ${KEY}`),
      );
      const { redactor } = redactSecrets();
      const result = createInterventions({ redactors: [redactor] }).streamText({
        model: partsModel(parts),
        prompt: 'x',
        includeRawChunks: true,
      });
      const seen: unknown[] = [];
      for await (const part of result.fullStream) seen.push(part);
      expect(JSON.stringify(seen)).not.toContain(KEY);
      expect(await result.text).toBe('key [API_KEY]');
    });

    it('should redact the response body a generateText result keeps (include: { responseBody: true })', async () => {
      const response = {
        ...step(text(`key ${KEY}`)),
        response: { body: { output: [{ content: [{ type: 'output_text', text: `key ${KEY}` }] }] } },
      };
      const { redactor } = redactSecrets();
      const result = await createInterventions({ redactors: [redactor] }).generateText({
        model: partsModel([], response),
        prompt: 'x',
        include: { responseBody: true },
      });
      expect(result.text).toBe('key [API_KEY]');
      expect(result.response.body).toEqual({ output: [{ content: [{ type: 'output_text', text: 'key [API_KEY]' }] }] });
      expect(JSON.stringify(result.steps)).not.toContain(KEY);
    });
  });

  describe.each(['chat', 'responses'] as const)('through the real @ai-sdk/openai provider (%s API)', (api) => {
    const servers: OpenAICompatibleServer[] = [];
    afterEach(async () => {
      await Promise.all(servers.splice(0).map((server) => server.close()));
    });
    const serve = async (...script: ScriptedTurn[]) => {
      const server = await startOpenAICompatibleServer({ script });
      servers.push(server);
      const provider = createOpenAI({ baseURL: server.baseURL, apiKey: 'test' });
      const model: LanguageModel = api === 'chat' ? provider.chat('gpt-test') : provider.responses('gpt-test');
      return { server, model };
    };
    const tools = { search: tool({ inputSchema: z.object({ q: z.string() }), execute: async ({ q }) => `found ${q}` }) };
    const turn = (say: string): ScriptedTurn => ({ text: say, toolCalls: [wireToolCall('call_1', 'search', { q: 'config' })] });

    it.each(MODES)('should send the next request the redacted text, not a reference to the original (%s)', async (mode) => {
      const { server, model } = await serve(turn(ANSWER), replyText('Done.'));
      const result = await run(createInterventions({ redactors: [tokens] }), mode, {
        model,
        tools,
        stopWhen: isStepCount(3),
        prompt: 'config?',
      });

      expect(result.text).toBe('Done.');
      const sent = JSON.stringify(server.requests[1]?.body);
      expect(sent).toContain(REDACTED_ANSWER);
      expect(sent).not.toContain(TOKEN);
      expect(sent).not.toContain('item_reference');
    });

    it.each([
      [
        'an afterModelCall handler',
        () =>
          createInterventions({
            redactors: [tokens],
            handlers: [defineHandler({ name: 'look', afterModelCall: () => InterventionActions.proceed() })],
          }),
      ],
      ['an onResponse hook', () => createInterventions({ redactors: [tokens], hooks: { onResponse: () => undefined } })],
      ['cache()', () => createInterventions({ redactors: [tokens], hooks: cache() })],
    ] as const)('should pass no raw chunk on when %s holds the step (includeRawChunks)', async (_, make) => {
      const { model } = await serve(replyText(ANSWER));
      const seen: unknown[] = [];
      const chunks: unknown[] = [];
      const result = make().streamText({
        model,
        prompt: 'config?',
        includeRawChunks: true,
        onChunk: ({ chunk }) => void chunks.push(chunk),
      });
      for await (const part of result.fullStream) seen.push(part);
      expect(await result.text).toBe(REDACTED_ANSWER);
      expect(JSON.stringify(seen)).not.toContain(TOKEN);
      expect(JSON.stringify(chunks)).not.toContain(TOKEN);
      expect(seen.filter((part) => (part as { type: string }).type === 'raw')).toEqual([]);
    });

    it.each(MODES)('should send the next request what the raw SDK sends when nothing was redacted (%s)', async (mode) => {
      const say = 'Let me search the configuration first.';
      const { server: rawServer, model: rawModel } = await serve(turn(say), replyText('Done.'));
      await run(createInterventions(), mode, { model: rawModel, tools, stopWhen: isStepCount(3), prompt: 'config?' });
      const { server, model } = await serve(turn(say), replyText('Done.'));
      await run(createInterventions({ redactors: [redactSecrets().redactor] }), mode, {
        model,
        tools,
        stopWhen: isStepCount(3),
        prompt: 'config?',
      });

      // on the Responses API, the unchanged message is an item_reference, as without redaction
      expect(server.requests[1]?.body).toEqual(rawServer.requests[1]?.body);
    });
  });
});
