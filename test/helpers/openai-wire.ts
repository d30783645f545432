/**
 * The wrappers against the REAL `@ai-sdk/openai` provider on a loopback
 * server (`openai-compatible-server.ts`): the two APIs' wire formats (Chat
 * Completions and Responses), a server and model per test (closed after
 * each test of the importing file), and one way to run either wrapper.
 */
import { createOpenAI } from '@ai-sdk/openai';
import { isStepCount, type LanguageModel, type ModelMessage, type ToolSet } from 'ai';
import { afterEach } from 'vitest';
import type { DecisionRecord, Interventions } from '../../src/index.ts';
import {
  type OpenAICompatibleServer,
  type RecordedRequest,
  type ScriptedTurn,
  startOpenAICompatibleServer,
} from './openai-compatible-server.ts';

export interface WireCall {
  readonly id: string;
  readonly name: string;
  readonly args: Record<string, unknown>;
}

/** How one API puts a conversation on the wire. */
export interface Wire {
  readonly path: string;
  /** The conversation of a request body (`messages` / `input`). */
  items(request: RecordedRequest | undefined): unknown[];
  /** A user message holding `text`. */
  user(text: string): unknown;
  /** The assistant turn that made `calls` (one message, or one item per call). */
  assistantCalls(calls: readonly WireCall[]): unknown[];
  /** The results the model reads, in this order. */
  outputs(results: ReadonlyArray<readonly [callId: string, output: string]>): unknown[];
  /** Every tool output of a request, in order, as `[callId, output]`. */
  toolOutputs(request: RecordedRequest | undefined): Array<[string, string]>;
  /** Every tool call of a request's history, in order, arguments parsed. */
  toolCalls(request: RecordedRequest | undefined): WireCall[];
}

interface ChatMessage {
  role: string;
  content?: unknown;
  tool_call_id?: string;
  tool_calls?: Array<{ id: string; type: string; function: { name: string; arguments: string } }>;
}

export const chatWire: Wire = {
  path: '/v1/chat/completions',
  items: (request) => (request?.body.messages ?? []) as unknown[],
  user: (text) => ({ role: 'user', content: text }),
  assistantCalls: (calls) => [
    {
      role: 'assistant',
      content: null,
      tool_calls: calls.map((call) => ({
        id: call.id,
        type: 'function',
        function: { name: call.name, arguments: JSON.stringify(call.args) },
      })),
    },
  ],
  outputs: (results) => results.map(([id, output]) => ({ role: 'tool', tool_call_id: id, content: output })),
  toolOutputs: (request) =>
    (chatWire.items(request) as ChatMessage[])
      .filter((message) => message.role === 'tool')
      .map((message) => [message.tool_call_id!, message.content as string]),
  toolCalls: (request) =>
    (chatWire.items(request) as ChatMessage[]).flatMap((message) =>
      message.role === 'assistant'
        ? (message.tool_calls ?? []).map((call) => ({
            id: call.id,
            name: call.function.name,
            args: JSON.parse(call.function.arguments) as Record<string, unknown>,
          }))
        : [],
    ),
};

interface ResponsesItem {
  type?: string;
  role?: string;
  call_id?: string;
  name?: string;
  arguments?: string;
  output?: unknown;
}

export const responsesWire: Wire = {
  path: '/v1/responses',
  items: (request) => (request?.body.input ?? []) as unknown[],
  user: (text) => ({ role: 'user', content: [{ type: 'input_text', text }] }),
  assistantCalls: (calls) =>
    calls.map((call) => ({
      type: 'function_call',
      call_id: call.id,
      name: call.name,
      arguments: JSON.stringify(call.args),
    })),
  outputs: (results) => results.map(([id, output]) => ({ type: 'function_call_output', call_id: id, output })),
  toolOutputs: (request) =>
    (responsesWire.items(request) as ResponsesItem[])
      .filter((item) => item.type === 'function_call_output')
      .map((item) => [item.call_id!, item.output as string]),
  toolCalls: (request) =>
    (responsesWire.items(request) as ResponsesItem[])
      .filter((item) => item.type === 'function_call')
      .map((item) => ({
        id: item.call_id!,
        name: item.name!,
        args: JSON.parse(item.arguments!) as Record<string, unknown>,
      })),
};

// ---------------------------------------------------------------------------
// running a scenario: server, model, wrapper
// ---------------------------------------------------------------------------

export type Api = 'chat' | 'responses';
export type Mode = 'generateText' | 'streamText';

export const APIS: ReadonlyArray<{ readonly api: Api; readonly wire: Wire }> = [
  { api: 'chat', wire: chatWire },
  { api: 'responses', wire: responsesWire },
];
export const MODES: readonly Mode[] = ['generateText', 'streamText'];
export const CASES = APIS.flatMap(({ api, wire }) => MODES.map((mode) => ({ api, mode, wire })));

const servers: OpenAICompatibleServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A loopback server answering with `script`, and the real provider's model for `api` on it (closed after each test). */
export async function serve(api: Api, ...script: ScriptedTurn[]) {
  const server = await startOpenAICompatibleServer({ script });
  servers.push(server);
  const provider = createOpenAI({ baseURL: server.baseURL, apiKey: 'test' });
  const model: LanguageModel = api === 'chat' ? provider.chat('gpt-test') : provider.responses('gpt-test');
  return { server, model };
}

/** What a test reads from a run, the same for both wrappers. */
export interface RunOutcome {
  readonly text: string;
  readonly content: ReadonlyArray<{ type: string }>;
  readonly responseMessages: ModelMessage[];
  readonly decisions: readonly DecisionRecord[];
  readonly steps: ReadonlyArray<{
    finishReason: string;
    rawFinishReason?: string | undefined;
    usage: { inputTokens: number | undefined; outputTokens: number | undefined };
  }>;
  /** streamText only: the `tool-call` parts of the full stream. */
  readonly streamedToolCalls: ReadonlyArray<{ toolCallId: string; input: unknown }>;
}

export interface RunOptions {
  readonly model: LanguageModel;
  readonly tools: ToolSet;
  readonly messages: ModelMessage[];
  /** The step cap (`isStepCount`). Default 5. */
  readonly steps?: number;
}

export async function run(mode: Mode, interventions: Interventions, { steps = 5, ...options }: RunOptions): Promise<RunOutcome> {
  const call = { ...options, stopWhen: isStepCount(steps) };
  if (mode === 'generateText') {
    const result = await interventions.generateText(call);
    return {
      text: result.text,
      content: result.content,
      responseMessages: result.responseMessages,
      decisions: result.interventions.decisions,
      steps: result.steps,
      streamedToolCalls: [],
    };
  }
  const errors: unknown[] = [];
  const result = interventions.streamText({
    ...call,
    onError: ({ error }) => {
      errors.push(error);
    },
  });
  const streamedToolCalls: Array<{ toolCallId: string; input: unknown }> = [];
  for await (const part of result.fullStream) {
    if (part.type === 'tool-call') streamedToolCalls.push({ toolCallId: part.toolCallId, input: part.input });
    if (part.type === 'error') errors.push(part.error);
  }
  if (errors.length > 0) throw errors[0];
  return {
    text: await result.text,
    content: await result.content,
    responseMessages: await result.responseMessages,
    decisions: result.interventions.decisions,
    steps: await result.steps,
    streamedToolCalls,
  };
}

/** Each call id's outputs: every id must map to exactly one. */
export function outputsById(outputs: ReadonlyArray<[string, string]>): Record<string, string[]> {
  const byId: Record<string, string[]> = {};
  for (const [id, output] of outputs) (byId[id] ??= []).push(output);
  return byId;
}
