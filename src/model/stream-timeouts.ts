import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart } from '@ai-sdk/provider';

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
 * start, each next one within `chunkMs` of being asked for after the last
 * (output parts as the SDK counts them: text, reasoning and argument deltas,
 * tool calls, files; none once the model's `finish` came, and no tool part
 * when the call's tool choice is `none`, which the SDK withholds). The
 * runtime times the provider, not its own work on what came (deciding a
 * call, the SDK asking `toolApproval`): a part waiting to be read is not
 * late. When
 * one is late, the SDK's signal is aborted with the SDK's own `TimeoutError`
 * (so the step ends with an `abort` part and `onAbort`, as the SDK's own
 * timer ends it), the provider stream is cancelled and this stream errors
 * with that reason. A `held` stream (a step collected whole) only errors:
 * its holder releases what it collected, then aborts (see {@link isLateChunk}).
 */
export function watchStreamTimeouts(
  stream: ReadableStream<LanguageModelV4StreamPart>,
  { firstChunkMs, chunkMs, abort }: StreamTimeouts,
  {
    held = false,
    toolChoice,
  }: {
    readonly held?: boolean;
    /** The call's tool choice: with `none` the SDK passes no tool part on, so none counts as output. */
    readonly toolChoice?: LanguageModelV4CallOptions['toolChoice'];
  } = {},
): ReadableStream<LanguageModelV4StreamPart> {
  if (firstChunkMs === undefined && chunkMs === undefined) return stream;
  const reader = stream.getReader();
  let expired: (() => void) | undefined;
  let late: DOMException | undefined;
  const fire = (label: string, ms: number) => {
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
  };
  const timer = new PartTimer(fire);
  timer.set(firstChunkMs === undefined ? undefined : { label: 'First chunk', ms: firstChunkMs });
  timer.run();
  return new ReadableStream<LanguageModelV4StreamPart>(
    {
      async pull(controller) {
        timer.run();
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
          timer.set(undefined);
          controller.error(next.error);
          return;
        }
        if (next.result.done) {
          timer.set(undefined);
          controller.close();
          return;
        }
        const part = next.result.value;
        // the model's output ends with its finish: the SDK clears its chunk timers there (a step timeout still applies)
        if (part.type === 'finish') timer.set(undefined);
        else if (isOutputPart(part, toolChoice?.type === 'none'))
          timer.set(chunkMs === undefined ? undefined : { label: 'Chunk', ms: chunkMs });
        else timer.pause();
        controller.enqueue(part);
      },
      cancel(reason) {
        timer.set(undefined);
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * The timer of the part a stream waits for: it runs only while that part is
 * asked for (paused while what came waits to be read), with what it has
 * left.
 */
class PartTimer {
  private readonly fire: (label: string, ms: number) => void;
  private current: { readonly label: string; readonly ms: number; left: number } | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private started = 0;

  constructor(fire: (label: string, ms: number) => void) {
    this.fire = fire;
  }

  /** The next part's limit (`undefined`: none), not running yet. */
  set(limit: { readonly label: string; readonly ms: number } | undefined): void {
    this.stop();
    this.current = limit === undefined ? undefined : { ...limit, left: limit.ms };
  }

  /** A part is asked for: the time runs. */
  run(): void {
    const current = this.current;
    if (current === undefined || this.timer !== undefined) return;
    this.started = Date.now();
    this.timer = setTimeout(() => this.fire(current.label, current.ms), current.left);
  }

  /** What came waits to be read: the time stops, and keeps what it has left. */
  pause(): void {
    if (this.timer === undefined || this.current === undefined) return;
    this.stop();
    this.current.left = Math.max(0, this.current.left - (Date.now() - this.started));
  }

  private stop(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}

/** A part the SDK counts as model output (for its chunk timers); tool parts are not when the SDK withholds them. */
function isOutputPart(part: LanguageModelV4StreamPart, withholdsToolParts: boolean): boolean {
  switch (part.type) {
    case 'text-delta':
    case 'reasoning-delta':
      return part.delta.length > 0;
    case 'tool-input-delta':
      return !withholdsToolParts && part.delta.length > 0;
    case 'tool-call':
      return !withholdsToolParts;
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
