import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';

/** The chunk timeouts of `streamText`'s `timeout` option. */
export interface StreamTimeouts {
  readonly firstChunkMs?: number | undefined;
  readonly chunkMs?: number | undefined;
}

/**
 * Applies `timeout.firstChunkMs` and `timeout.chunkMs` to a provider stream
 * the runtime holds (the SDK's own timers only see what is released, so they
 * cannot): the first output part must arrive within `firstChunkMs` of the
 * start, each next one within `chunkMs` of the last (output parts as the SDK
 * counts them: text, reasoning and argument deltas, tool calls, files). When
 * one is late, the provider stream is cancelled and this stream ends with an
 * `error` part carrying the SDK's own `TimeoutError`.
 */
export function watchStreamTimeouts(
  stream: ReadableStream<LanguageModelV4StreamPart>,
  { firstChunkMs, chunkMs }: StreamTimeouts,
): ReadableStream<LanguageModelV4StreamPart> {
  if (firstChunkMs === undefined && chunkMs === undefined) return stream;
  const reader = stream.getReader();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let expired: (() => void) | undefined;
  let late: DOMException | undefined;
  const arm = (label: string, ms: number | undefined) => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (ms === undefined) return;
    timer = setTimeout(() => {
      late = new DOMException(`${label} timeout of ${ms}ms exceeded`, 'TimeoutError');
      reader.cancel(late).catch(() => {});
      expired?.();
    }, ms);
  };
  arm('First chunk', firstChunkMs);
  return new ReadableStream<LanguageModelV4StreamPart>({
    async pull(controller) {
      const next = await Promise.race([
        reader.read().then(
          (result) => ({ result }),
          (error: unknown) => ({ error }),
        ),
        new Promise<undefined>((resolve) => (expired = () => resolve(undefined))),
      ]);
      if (late !== undefined || next === undefined) {
        controller.enqueue({ type: 'error', error: late });
        controller.close();
        return;
      }
      if ('error' in next) {
        arm('', undefined);
        controller.error(next.error);
        return;
      }
      if (next.result.done) {
        arm('', undefined);
        controller.close();
        return;
      }
      if (isOutputPart(next.result.value)) arm('Chunk', chunkMs);
      controller.enqueue(next.result.value);
    },
    cancel(reason) {
      arm('', undefined);
      return reader.cancel(reason);
    },
  });
}

function isOutputPart(part: LanguageModelV4StreamPart): boolean {
  switch (part.type) {
    case 'text-delta':
    case 'reasoning-delta':
    case 'tool-input-delta':
      return part.delta.length > 0;
    case 'tool-call':
    case 'file':
    case 'reasoning-file':
      return true;
    default:
      return false;
  }
}
