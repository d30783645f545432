import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';

/**
 * A readable stream of `parts`, one per read as a provider hands them out,
 * ending with `thrown.error` after the last part when the original stream
 * threw (erroring a stream drops what it still queues, so the error waits
 * for the parts to be read). `thrown.before` runs right before the error
 * (a held step's chunk timeout aborts the SDK's signal there), and is told
 * whether the reader has cancelled the stream by then: a reader that stopped
 * reading (a transform's `stopStream()`) gets neither.
 */
export function replayParts(
  parts: readonly LanguageModelV4StreamPart[],
  thrown?: {
    readonly error: unknown;
    readonly before?: ((cancelled: () => boolean) => void | Promise<void>) | undefined;
  },
): ReadableStream<LanguageModelV4StreamPart> {
  let next = 0;
  let cancelled = false;
  return new ReadableStream({
    async pull(controller) {
      const part = parts[next++];
      if (part !== undefined) controller.enqueue(part);
      else if (thrown === undefined) controller.close();
      else {
        await thrown.before?.(() => cancelled);
        if (!cancelled) controller.error(thrown.error);
      }
    },
    cancel() {
      cancelled = true;
    },
  });
}
