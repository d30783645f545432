import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';

/**
 * A readable stream of `parts`, one per read as a provider hands them out,
 * ending with `thrown.error` after the last part when the original stream
 * threw (erroring a stream drops what it still queues, so the error waits
 * for the parts to be read).
 */
export function replayParts(
  parts: readonly LanguageModelV4StreamPart[],
  thrown?: { readonly error: unknown },
): ReadableStream<LanguageModelV4StreamPart> {
  let next = 0;
  return new ReadableStream({
    pull(controller) {
      const part = parts[next++];
      if (part !== undefined) controller.enqueue(part);
      else if (thrown === undefined) controller.close();
      else controller.error(thrown.error);
    },
  });
}
