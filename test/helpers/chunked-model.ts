import type { LanguageModelV4CallOptions, LanguageModelV4GenerateResult, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { MockLanguageModelV4 } from 'ai/test';
import { usage } from './scripted-model.ts';

/**
 * A scripted model (its n-th call answers with the n-th response) that
 * streams text in chunks of `size` characters, so values are split across
 * chunks. `calls` records every request.
 */
export function chunkedModel(size: number, ...responses: LanguageModelV4GenerateResult[]) {
  const calls: LanguageModelV4CallOptions[] = [];
  const next = (options: LanguageModelV4CallOptions) => {
    calls.push(options);
    const response = responses[calls.length - 1];
    if (response === undefined) throw new Error(`no response scripted for call ${calls.length}`);
    return response;
  };
  const model = new MockLanguageModelV4({
    doGenerate: async (options) => next(options),
    doStream: async (options) => {
      const response = next(options);
      const parts: LanguageModelV4StreamPart[] = [{ type: 'stream-start', warnings: [] }];
      response.content.forEach((part, index) => {
        if (part.type !== 'text') {
          parts.push(part as LanguageModelV4StreamPart);
          return;
        }
        parts.push({ type: 'text-start', id: `t${index}` });
        for (let at = 0; at < part.text.length; at += size) {
          parts.push({ type: 'text-delta', id: `t${index}`, delta: part.text.slice(at, at + size) });
        }
        parts.push({ type: 'text-end', id: `t${index}` });
      });
      parts.push({ type: 'finish', finishReason: response.finishReason, usage });
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
