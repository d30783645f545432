import type { LanguageModelV4GenerateResult, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { contentToParts } from './content-to-parts.ts';

/**
 * The stream parts that describe a whole response that has no stream of its
 * own: a response a `preRequest` hook served, or the answer of a denied step.
 */
export function responseToParts(response: LanguageModelV4GenerateResult): LanguageModelV4StreamPart[] {
  const parts: LanguageModelV4StreamPart[] = [{ type: 'stream-start', warnings: response.warnings }];
  if (response.response != null) {
    const { headers: _headers, body: _body, ...metadata } = response.response;
    parts.push({ type: 'response-metadata', ...metadata });
  }
  for (const [index, part] of response.content.entries()) parts.push(...contentToParts(part, String(index)));
  parts.push({
    type: 'finish',
    finishReason: response.finishReason,
    usage: response.usage,
    ...(response.providerMetadata ? { providerMetadata: response.providerMetadata } : {}),
  });
  return parts;
}
