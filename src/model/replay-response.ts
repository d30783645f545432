import type { LanguageModelV4GenerateResult, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { replayParts } from './replay-parts.ts';
import { responseToParts } from './response-to-parts.ts';

/** A whole response streamed as a provider streams it (a response served without a provider stream: `responseReplay`). */
export function replayResponse(response: LanguageModelV4GenerateResult): ReadableStream<LanguageModelV4StreamPart> {
  return replayParts(responseToParts(response));
}
