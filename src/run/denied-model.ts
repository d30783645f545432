import type { LanguageModelV4, LanguageModelV4GenerateResult } from '@ai-sdk/provider';
import { replayParts } from '../model/replay-parts.ts';
import { responseToParts } from '../model/response-to-parts.ts';

/**
 * The `rawFinishReason` of a step a `beforeModelCall` deny ended: its text is
 * the deny reason, not a model answer. Use it to tell the two apart.
 *
 * @example
 * ```ts
 * const result = await interventions.generateText({ model, tools, prompt });
 * if (result.finalStep.rawFinishReason === DENIED_FINISH_REASON) {
 *   console.warn('Ended by a handler:', result.text);
 * }
 * ```
 */
export const DENIED_FINISH_REASON = 'intervention-denied';

/**
 * A model that answers with `reason` and stops, without calling any
 * provider: how a `beforeModelCall` deny ends the run with its reason.
 */
export function deniedModel(reason: string): LanguageModelV4 {
  const response: LanguageModelV4GenerateResult = {
    content: [{ type: 'text', text: reason }],
    finishReason: { unified: 'stop', raw: DENIED_FINISH_REASON },
    usage: {
      inputTokens: { total: 0, noCache: 0, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 0, text: 0, reasoning: undefined },
    },
    warnings: [],
  };
  return {
    specificationVersion: 'v4',
    provider: 'ai-interventions',
    modelId: 'denied',
    supportedUrls: {},
    doGenerate: async () => response,
    doStream: async () => ({ stream: replayParts(responseToParts(response)) }),
  };
}
