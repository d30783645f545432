import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';

/**
 * A readable stream of `parts` (queued at once), ending with `thrown.error`
 * after the last part when the original stream threw: erroring a stream
 * drops what it still queues, so then the parts are handed out one per read
 * and the error waits for them.
 */
export function replayParts(
  parts: readonly LanguageModelV4StreamPart[],
  thrown?: { readonly error: unknown },
): ReadableStream<LanguageModelV4StreamPart> {
  if (thrown === undefined) {
    return new ReadableStream({
      start(controller) {
        for (const part of parts) controller.enqueue(part);
        controller.close();
      },
    });
  }
  let next = 0;
  return new ReadableStream({
    pull(controller) {
      const part = parts[next++];
      if (part !== undefined) controller.enqueue(part);
      else controller.error(thrown.error);
    },
  });
}
