import { createRequire } from 'node:module';
import { createOpenAI } from '@ai-sdk/openai';
import { convertToModelMessages, isStepCount, type ModelMessage, readUIMessageStream, tool, type UIMessage } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createInterventions,
  createRedactor,
  InterventionHandler,
  type RedactedToolValue,
  redactPii,
  redactSecrets,
  type ToolErrorRedacting,
} from '../../src/index.ts';
import {
  type OpenAICompatibleServer,
  replyText,
  replyToolCalls,
  startOpenAICompatibleServer,
  toolCall as wireToolCall,
} from '../helpers/openai-compatible-server.ts';
import { MODES, run } from '../helpers/run-both.ts';
import { scriptedModel, step, text, toolCall, toolResultsSent } from '../helpers/scripted-model.ts';

const KEY = 'sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z';
const EMAIL = 'jane.doe@acme-corp.com';
const SECRETS = [KEY, EMAIL];
const REDACTED_MESSAGE = 'POST https://billing.example.com/v1/invoices failed (401) with key [API_KEY] for [EMAIL]';
/**
 * From ai 7.0.171 the UI stream carries a tool's error as the model reads it;
 * before, it carries `toUIMessageStream`'s `onError` text, by default
 * 'An error occurred.' (CI also runs this file against the lowest supported `ai`).
 */
const UI_SEES_TOOL_ERRORS = (() => {
  const { version } = createRequire(import.meta.url)('ai/package.json') as { version: string };
  const [major = 0, minor = 0, patch = 0] = version.split(/[.-]/).map(Number);
  return major > 7 || (major === 7 && (minor > 0 || patch >= 171));
})();

/** An HTTP client's error: its message and its fields quote the request. */
class UpstreamError extends Error {
  override readonly name = 'UpstreamError';
  readonly status: number;
  readonly responseBody: string;
  constructor(message: string, status: number, responseBody: string) {
    super(message);
    this.status = status;
    this.responseBody = responseBody;
  }
}

/** A billing tool whose request fails, quoting its API key and the customer's email. */
function billingTools(thrown: () => unknown = () => upstreamError()) {
  return {
    fetch_invoice: tool({
      inputSchema: z.object({ id: z.string() }),
      execute: async (): Promise<string> => {
        throw thrown();
      },
    }),
  };
}

function upstreamError() {
  return new UpstreamError(
    `POST https://billing.example.com/v1/invoices failed (401) with key ${KEY} for ${EMAIL}`,
    401,
    `{"error":"invalid key ${KEY}"}`,
  );
}

function expectNoSecret(value: unknown) {
  const serialized = typeof value === 'string' ? value : JSON.stringify(value);
  for (const secret of SECRETS) expect(serialized).not.toContain(secret);
}

const USER: ModelMessage = { role: 'user', content: 'Fetch invoice 42' };

describe('the errors tools throw', () => {
  describe.each(MODES)('through interventions.%s', (mode) => {
    it('should be redacted by registered redaction handlers before the next request and the response messages read them', async () => {
      const reported: RedactedToolValue[] = [];
      const secrets = redactSecrets({ onRedacted: (value) => void reported.push(value) });
      const interventions = createInterventions({ handlers: [secrets, redactPii()] });
      const model = scriptedModel(step(toolCall('c1', 'fetch_invoice', { id: '42' })), step(text('The billing service refused.')));

      const result = await run(interventions, mode, { model, tools: billingTools(), stopWhen: isStepCount(3), messages: [USER] });

      expect(toolResultsSent(model, 1).c1).toEqual({ type: 'error-text', value: `UpstreamError: ${REDACTED_MESSAGE}` });
      expectNoSecret(model.calls);
      expectNoSecret(result.responseMessages);
      // the error keeps its class and fields, redacted
      const failed = result.steps[0]?.content.find((part) => part.type === 'tool-error');
      expect(failed?.error).toBeInstanceOf(UpstreamError);
      expect(failed?.error).toMatchObject({ status: 401, responseBody: '{"error":"invalid key [API_KEY]"}', message: REDACTED_MESSAGE });
      expectNoSecret(String((failed?.error as Error).stack));
      expect(reported.map(({ where, toolCall: call }) => `${call.toolName}:${where}`)).toEqual(['fetch_invoice:error']);
      expect(reported[0]?.original).toBeInstanceOf(UpstreamError);
    });

    it("should be redacted by the runtime's redactors, and replaced by onToolCallError hooks before it is", async () => {
      const ssn = createRedactor({ name: 'ssn', rules: [{ pattern: /\b\d{3}-\d{2}-\d{4}\b/, replacement: '[SSN]' }] });
      const interventions = createInterventions({
        redactors: [ssn],
        hooks: { onToolCallError: ({ error }) => ({ error: `lookup failed: ${(error as Error).message}` }) },
      });
      const model = scriptedModel(step(toolCall('c1', 'fetch_invoice', { id: '42' })), step(text('ok')));
      const tools = billingTools(() => new Error('no customer with SSN 123-45-6789'));

      const result = await run(interventions, mode, { model, tools, stopWhen: isStepCount(3), messages: [USER] });

      expect(toolResultsSent(model, 1).c1).toEqual({ type: 'error-text', value: 'lookup failed: no customer with SSN [SSN]' });
      expect(JSON.stringify(result.responseMessages)).not.toContain('123-45-6789');
    });

    it('should redact a thrown string or plain object, and leave an error with nothing to redact untouched', async () => {
      const thrown: unknown[] = [`denied for ${EMAIL}`, { code: 'E_AUTH', detail: `key ${KEY}` }];
      const original = new Error('timeout after 30 s');
      thrown.push(original);
      const interventions = createInterventions({ handlers: [redactSecrets(), redactPii()] });
      const model = scriptedModel(
        step(
          toolCall('c1', 'fetch_invoice', { id: '1' }),
          toolCall('c2', 'fetch_invoice', { id: '2' }),
          toolCall('c3', 'fetch_invoice', { id: '3' }),
        ),
        step(text('ok')),
      );
      let index = 0;

      const result = await run(interventions, mode, {
        model,
        tools: billingTools(() => thrown[index++]),
        stopWhen: isStepCount(3),
        messages: [USER],
      });

      expect(toolResultsSent(model, 1)).toEqual({
        c1: { type: 'error-text', value: 'denied for [EMAIL]' },
        c2: { type: 'error-text', value: '{"code":"E_AUTH","detail":"key [API_KEY]"}' },
        c3: { type: 'error-text', value: 'Error: timeout after 30 s' },
      });
      const errors = result.steps[0]?.content.filter((part) => part.type === 'tool-error').map((part) => part.error);
      expect(errors?.[2]).toBe(original);
    });

    it('should apply only enforced handlers scoped to the tool, and withhold an error a handler fails to redact', async () => {
      const failing = new (class extends InterventionHandler implements ToolErrorRedacting {
        readonly name = 'failing';
        readonly tools = ['fetch_invoice'];
        redactToolError(): unknown {
          throw new Error('redaction backend down');
        }
      })();
      const shadow = Object.assign(redactSecrets({ name: 'shadow-secrets' }), { mode: 'shadow' as const });
      // scoped to another tool of the run
      const elsewhere = Object.assign(redactPii({ name: 'other-tools' }), { tools: ['send_email'] });
      const sendEmail = tool({ inputSchema: z.object({ to: z.string() }), execute: async () => 'sent' });
      const model = scriptedModel(step(toolCall('c1', 'fetch_invoice', { id: '42' })), step(text('ok')));

      await run(createInterventions({ handlers: [shadow, elsewhere] }), mode, {
        model,
        tools: { ...billingTools(), send_email: sendEmail },
        stopWhen: isStepCount(3),
        messages: [USER],
      });
      expect(JSON.stringify(toolResultsSent(model, 1).c1)).toContain(KEY);

      const closed = scriptedModel(step(toolCall('c1', 'fetch_invoice', { id: '42' })), step(text('ok')));
      await run(createInterventions({ handlers: [failing] }), mode, {
        model: closed,
        tools: billingTools(),
        stopWhen: isStepCount(3),
        messages: [USER],
      });
      expect(toolResultsSent(closed, 1).c1).toEqual({
        type: 'error-text',
        value: 'Error: The tool failed; its error message was withheld because it could not be redacted.',
      });
    });
  });

  describe('in a useChat round trip', () => {
    it('should reach the UI stream redacted, and so the history the client sends back', async () => {
      const tools = billingTools();
      const interventions = createInterventions({ handlers: [redactSecrets(), redactPii()] });
      const user: UIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Fetch invoice 42' }] };
      const first = interventions.streamText({
        model: scriptedModel(step(toolCall('c1', 'fetch_invoice', { id: '42' })), step(text('The billing service refused.'))),
        tools,
        stopWhen: isStepCount(3),
        messages: await convertToModelMessages([user], { tools }),
      });
      let assistant: UIMessage | undefined;
      for await (const update of readUIMessageStream({ stream: first.toUIMessageStream() })) assistant = update;
      if (assistant === undefined) throw new Error('no assistant message');

      expect(assistant.parts.find((part) => part.type === 'tool-fetch_invoice')).toMatchObject({
        state: 'output-error',
        errorText: UI_SEES_TOOL_ERRORS ? `UpstreamError: ${REDACTED_MESSAGE}` : 'An error occurred.',
      });
      expectNoSecret(assistant);

      const model = scriptedModel(step(text('Shall I retry?')));
      const second = interventions.streamText({
        model,
        tools,
        messages: await convertToModelMessages(
          [user, { ...assistant, id: 'a1' }, { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'why?' }] }],
          { tools },
        ),
      });
      expect(await second.text).toBe('Shall I retry?');
      if (UI_SEES_TOOL_ERRORS) expect(JSON.stringify(model.calls[0]?.prompt)).toContain('[API_KEY]');
      expectNoSecret(model.calls);
    });
  });

  describe.each(['chat', 'responses'] as const)('through the real @ai-sdk/openai provider (%s API)', (api) => {
    const servers: OpenAICompatibleServer[] = [];
    afterEach(async () => {
      await Promise.all(servers.splice(0).map((server) => server.close()));
    });

    it.each(MODES)('should never put the secret on the wire (%s)', async (mode) => {
      const server = await startOpenAICompatibleServer({
        script: [replyToolCalls(wireToolCall('call_1', 'fetch_invoice', { id: '42' })), replyText('It failed.')],
      });
      servers.push(server);
      const provider = createOpenAI({ baseURL: server.baseURL, apiKey: 'test' });
      const model = api === 'chat' ? provider.chat('gpt-test') : provider.responses('gpt-test');
      const interventions = createInterventions({ handlers: [redactSecrets(), redactPii()] });

      const result = await run(interventions, mode, { model, tools: billingTools(), stopWhen: isStepCount(3), messages: [USER] });

      expect(result.text).toBe('It failed.');
      expect(server.requests).toHaveLength(2);
      const sent = JSON.stringify(server.requests[1]?.body);
      expect(sent).toContain(REDACTED_MESSAGE);
      expectNoSecret(sent);
    });
  });
});
