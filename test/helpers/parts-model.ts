import type { LanguageModelV4GenerateResult, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { MockLanguageModelV4 } from 'ai/test';
import { step } from './scripted-model.ts';

/**
 * A model that streams exactly `parts` (any part the provider interface
 * has: reasoning, provider metadata, raw chunks) and answers `generateText`
 * with `response` (an empty stop step by default), every time it is called.
 */
export function partsModel(parts: readonly LanguageModelV4StreamPart[], response: LanguageModelV4GenerateResult = step()) {
  return new MockLanguageModelV4({
    doStream: async () => ({
      stream: new ReadableStream({
        start(controller) {
          for (const part of parts) controller.enqueue(part);
          controller.close();
        },
      }),
    }),
    doGenerate: async () => response,
  });
}
