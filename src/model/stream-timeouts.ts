import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';

/** The chunk timeouts of `streamText`'s `timeout` option, and how a late chunk aborts the SDK's step. */
export interface StreamTimeouts {
  readonly firstChunkMs?: number | undefined;
  readonly chunkMs?: number | undefined;
  /** Aborts the signal the SDK was given, with the SDK's own `TimeoutError`: the step ends as the SDK's own timeout ends it. */
  readonly abort: (reason: DOMException) => void;
}

/**
 * Applies `timeout.firstChunkMs` and `timeout.chunkMs` to a provider stream
 * the runtime holds (the SDK's own timers only see what is released, so they
 * cannot): the first output part must arrive within `firstChunkMs` of the
 * start, each next one within `chunkMs` of the last (output parts as the SDK
 * counts them: text, reasoning and argument deltas, tool calls, files). When
 * one is late, the SDK's signal is aborted with the SDK's own `TimeoutError`
 * (so the step ends with an `abort` part and `onAbort`, as the SDK's own
 * timer ends it), the provider stream is cancelled and this stream errors
 * with that reason. A `held` stream (a step collected whole) only errors:
 * its holder releases what it collected, then aborts (see {@link isLateChunk}).
 */
export function watchStreamTimeouts(
  stream: ReadableStream<LanguageModelV4StreamPart>,
  { firstChunkMs, chunkMs, abort }: StreamTimeouts,
  { held = false }: { readonly held?: boolean } = {},
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
      const reason = late;
      lateChunks.add(reason);
      const end = () => {
        reader.cancel(reason).catch(() => {});
        expired?.();
      };
      // a held step aborts once what it collected is released (see isLateChunk); a live one once the SDK
      // has read what passed (its own queues first), then this stream errors, as a provider's aborted fetch does
      if (held) end();
      else
        setTimeout(() => {
          abort(reason);
          end();
        }, 0);
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
        controller.error(late);
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

const lateChunks = new WeakSet<object>();

/** Whether a stream error is the chunk timeout of {@link watchStreamTimeouts}. */
export function isLateChunk(error: unknown): error is DOMException {
  return error instanceof DOMException && lateChunks.has(error);
}
