import type {
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
} from '@ai-sdk/provider';
import { MockLanguageModelV4 } from 'ai/test';

export const usage: LanguageModelV4Usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

export function toolCall(toolCallId: string, toolName: string, input: unknown): LanguageModelV4Content {
  return {
    type: 'tool-call',
    toolCallId,
    toolName,
    input: typeof input === 'string' ? input : JSON.stringify(input),
  };
}

export function text(value: string): LanguageModelV4Content {
  return { type: 'text', text: value };
}

/** A model response: `tool-calls` when it has calls, `stop` otherwise. */
export function step(...content: LanguageModelV4Content[]): LanguageModelV4GenerateResult {
  const calls = content.some((part) => part.type === 'tool-call');
  return {
    content,
    finishReason: calls ? { unified: 'tool-calls', raw: 'tool_calls' } : { unified: 'stop', raw: 'stop' },
    usage,
    warnings: [],
  };
}

/** The stream parts of a response, text split into one delta per word. */
export function streamParts(response: LanguageModelV4GenerateResult): LanguageModelV4StreamPart[] {
  const parts: LanguageModelV4StreamPart[] = [{ type: 'stream-start', warnings: [] }];
  response.content.forEach((part, index) => {
    if (part.type === 'text') {
      const id = `t${index}`;
      parts.push({ type: 'text-start', id });
      for (const word of part.text.match(/\S+\s*|\s+/g) ?? []) {
        parts.push({ type: 'text-delta', id, delta: word });
      }
      parts.push({ type: 'text-end', id });
    } else {
      parts.push(part as LanguageModelV4StreamPart);
    }
  });
  parts.push({ type: 'finish', finishReason: response.finishReason, usage: response.usage });
  return parts;
}

/**
 * A `MockLanguageModelV4` answering its n-th call (generate or stream) with
 * the n-th response. `calls` records every request the model received.
 */
export function scriptedModel(...responses: LanguageModelV4GenerateResult[]) {
  const calls: LanguageModelV4CallOptions[] = [];
  const next = (options: LanguageModelV4CallOptions) => {
    calls.push(options);
    const response = responses[calls.length - 1];
    if (response === undefined) {
      throw new Error(`scriptedModel: no response scripted for call ${calls.length}`);
    }
    return response;
  };
  const model = new MockLanguageModelV4({
    doGenerate: async (options) => next(options),
    doStream: async (options) => {
      const parts = streamParts(next(options));
      return {
        stream: new ReadableStream({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  });
  return Object.assign(model, { calls });
}

/** The last message of the n-th request, e.g. the tool results the model read. */
export function lastMessage(model: { calls: LanguageModelV4CallOptions[] }, call: number) {
  return model.calls[call]?.prompt.at(-1);
}

/** The text of every tool result in the n-th request, by tool call id. */
export function toolResultsSent(model: { calls: LanguageModelV4CallOptions[] }, call: number): Record<string, unknown> {
  const results: Record<string, unknown> = {};
  for (const message of model.calls[call]?.prompt ?? []) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type === 'tool-result') results[part.toolCallId] = part.output;
    }
  }
  return results;
}
