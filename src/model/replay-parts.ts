import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';

/** A readable stream of `parts`, ending with `thrown.error` when the original stream threw. */
export function replayParts(
  parts: readonly LanguageModelV4StreamPart[],
  thrown?: { readonly error: unknown },
): ReadableStream<LanguageModelV4StreamPart> {
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      if (thrown === undefined) controller.close();
      else controller.error(thrown.error);
    },
  });
}
