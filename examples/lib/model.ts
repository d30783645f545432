/**
 * The model the examples talk to.
 *
 * With `OPENAI_API_KEY` set, a real OpenAI model (`OPENAI_MODEL`, default
 * `gpt-5-mini`). Without it, a scripted LOCAL model: a `LanguageModelV4`
 * whose n-th answer is the n-th function of a script, called with the
 * request the model received. So after a denial it can read the tool result
 * it was sent and answer accordingly, just as a real model would.
 *
 * Either way the model records every request the provider received
 * (`model.requests`): what the model was actually told, and how many times
 * the provider was called.
 */
import { openai } from '@ai-sdk/openai';
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
  LanguageModelV4ToolResultOutput,
} from '@ai-sdk/provider';
import { wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';

/** Whether the examples run on the scripted local model (no `OPENAI_API_KEY`). */
export const usingScriptedModel = !process.env.OPENAI_API_KEY;

// said first, whatever the example prints next
console.log(
  usingScriptedModel
    ? 'Model: scripted LOCAL model (set OPENAI_API_KEY to use OpenAI)'
    : `Model: OpenAI ${process.env.OPENAI_MODEL ?? 'gpt-5-mini'} (OPENAI_API_KEY is set)`,
);

/** What a scripted turn sees: the provider request, plus readable views of it. */
export interface ModelRequest {
  /** The request exactly as the provider received it. */
  readonly raw: LanguageModelV4CallOptions;
  /** The results of the tool calls the model made last turn, by tool name (as text). */
  readonly toolResults: Readonly<Record<string, string>>;
  /** The text of the last user message: the prompt, or feedback injected by a guide. */
  readonly lastUserText: string;
}

/** One scripted answer: a function of the request the model received. */
export type ScriptedTurn = (request: ModelRequest) => LanguageModelV4Content[];

/** A model that remembers what it was sent. */
export type DemoModel = LanguageModelV4 & {
  /** Every request the provider received, in order. */
  readonly requests: readonly LanguageModelV4CallOptions[];
};

/** The model answers with text. */
export function say(text: string): LanguageModelV4Content {
  return { type: 'text', text };
}

let callIds = 0;

/** The model calls a tool. */
export function callTool(toolName: string, input: Record<string, unknown>): LanguageModelV4Content {
  return { type: 'tool-call', toolCallId: `call-${++callIds}`, toolName, input: JSON.stringify(input) };
}

/**
 * The examples' model: OpenAI when `OPENAI_API_KEY` is set, otherwise the
 * scripted local model answering with `script`, one function per model call.
 *
 * @example
 * ```ts
 * const model = demoModel([
 *   () => [callTool('delete_file', { path: '/tmp/cache' })],
 *   (request) => [say(`I could not delete it: ${request.toolResults.delete_file}`)],
 * ]);
 * ```
 */
export function demoModel(script: readonly ScriptedTurn[]): DemoModel {
  const inner = usingScriptedModel
    ? scriptedModel(script)
    : openai(process.env.OPENAI_MODEL ?? 'gpt-5-mini');
  return recording(inner);
}

/** Records every request the provider receives. */
function recording(model: LanguageModelV4): DemoModel {
  const requests: LanguageModelV4CallOptions[] = [];
  const wrapped = wrapLanguageModel({
    model,
    middleware: {
      specificationVersion: 'v4',
      transformParams: async ({ params }) => {
        requests.push(params);
        return params;
      },
    },
  });
  return Object.assign(wrapped, { requests });
}

function scriptedModel(script: readonly ScriptedTurn[]): LanguageModelV4 {
  let calls = 0;
  const answer = (options: LanguageModelV4CallOptions): LanguageModelV4GenerateResult => {
    const turn = script[calls++];
    if (turn === undefined) {
      throw new Error(`scripted model: nothing scripted for model call #${calls}`);
    }
    const content = turn(readRequest(options));
    return {
      content,
      finishReason: content.some((part) => part.type === 'tool-call')
        ? { unified: 'tool-calls', raw: 'tool_calls' }
        : { unified: 'stop', raw: 'stop' },
      usage: {
        inputTokens: { total: 20, noCache: 20, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: 10, text: 10, reasoning: undefined },
      },
      warnings: [],
    };
  };
  return new MockLanguageModelV4({
    provider: 'local',
    modelId: 'scripted',
    doGenerate: async (options) => answer(options),
    doStream: async (options) => ({ stream: toStream(answer(options)) }),
  });
}

/** A response as a provider stream, text one word at a time. */
function toStream(response: LanguageModelV4GenerateResult): ReadableStream<LanguageModelV4StreamPart> {
  const parts: LanguageModelV4StreamPart[] = [{ type: 'stream-start', warnings: [] }];
  response.content.forEach((part, index) => {
    if (part.type === 'text') {
      parts.push({ type: 'text-start', id: `text-${index}` });
      for (const word of part.text.match(/\S+\s*/g) ?? []) {
        parts.push({ type: 'text-delta', id: `text-${index}`, delta: word });
      }
      parts.push({ type: 'text-end', id: `text-${index}` });
    } else if (part.type === 'tool-call') {
      parts.push(part);
    }
  });
  parts.push({ type: 'finish', finishReason: response.finishReason, usage: response.usage });
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
}

function readRequest(raw: LanguageModelV4CallOptions): ModelRequest {
  const toolResults: Record<string, string> = {};
  const last = raw.prompt.at(-1);
  if (last?.role === 'tool') {
    for (const part of last.content) {
      if (part.type === 'tool-result') toolResults[part.toolName] = outputText(part.output);
    }
  }
  let lastUserText = '';
  for (const message of raw.prompt) {
    if (message.role === 'user') {
      lastUserText = message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
    }
  }
  return { raw, toolResults, lastUserText };
}

/** A tool result as the text a model reads. */
export function outputText(output: LanguageModelV4ToolResultOutput): string {
  switch (output.type) {
    case 'text':
    case 'error-text':
      return output.value;
    case 'json':
    case 'error-json':
      return JSON.stringify(output.value);
    case 'execution-denied':
      return output.reason ?? 'execution denied';
    case 'content':
      return output.value.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('');
  }
}
