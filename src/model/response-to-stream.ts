import type {
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
} from '@ai-sdk/provider';

/**
 * The stream parts that describe a whole response: how a cached or
 * rewritten response is replayed to `streamText`.
 */
export function responseToParts(
  response: LanguageModelV4GenerateResult,
): LanguageModelV4StreamPart[] {
  const parts: LanguageModelV4StreamPart[] = [
    { type: 'stream-start', warnings: response.warnings },
  ];
  if (response.response != null) {
    const { headers: _headers, body: _body, ...metadata } = response.response;
    parts.push({ type: 'response-metadata', ...metadata });
  }
  response.content.forEach((part, index) => {
    const id = String(index);
    const metadata = 'providerMetadata' in part && part.providerMetadata ? { providerMetadata: part.providerMetadata } : {};
    switch (part.type) {
      case 'text':
        parts.push(
          { type: 'text-start', id, ...metadata },
          { type: 'text-delta', id, delta: part.text },
          { type: 'text-end', id },
        );
        break;
      case 'reasoning':
        parts.push(
          { type: 'reasoning-start', id, ...metadata },
          { type: 'reasoning-delta', id, delta: part.text },
          { type: 'reasoning-end', id },
        );
        break;
      default:
        parts.push(part);
    }
  });
  parts.push({
    type: 'finish',
    finishReason: response.finishReason,
    usage: response.usage,
    ...(response.providerMetadata ? { providerMetadata: response.providerMetadata } : {}),
  });
  return parts;
}

/** A readable stream of `parts`. */
export function partsToStream(
  parts: readonly LanguageModelV4StreamPart[],
): ReadableStream<LanguageModelV4StreamPart> {
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
}
