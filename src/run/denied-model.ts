import type { LanguageModelV4, LanguageModelV4GenerateResult } from '@ai-sdk/provider';
import { responseReplay } from '../model/response-replay.ts';

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
  return fixedModel('denied', [{ type: 'text', text: reason }], DENIED_FINISH_REASON);
}

/** The `rawFinishReason` of a step a held approval ended: no model was called (see {@link heldModel}). */
export const HELD_FINISH_REASON = 'intervention-approval-pending';

/**
 * A model that answers nothing and stops, without calling any provider: the
 * step of a request whose answers are held (the wrong person, or a quorum
 * not reached), so the turn waits for the pending approval.
 */
export function heldModel(): LanguageModelV4 {
  return fixedModel('approval-pending', [], HELD_FINISH_REASON);
}

/** A model that answers `content` and stops (`raw`: its raw finish reason), without calling any provider. */
function fixedModel(modelId: string, content: LanguageModelV4GenerateResult['content'], raw: string): LanguageModelV4 {
  const response: LanguageModelV4GenerateResult = {
    content,
    finishReason: { unified: 'stop', raw },
    usage: {
      inputTokens: { total: 0, noCache: 0, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 0, text: 0, reasoning: undefined },
    },
    warnings: [],
  };
  return {
    specificationVersion: 'v4',
    provider: 'ai-interventions',
    modelId,
    supportedUrls: {},
    doGenerate: async () => response,
    doStream: async () => {
      const { replayResponse } = await responseReplay();
      return { stream: replayResponse(response) };
    },
  };
}
