import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';

type Part = LanguageModelV4StreamPart;

/** How a replay ends after its parts: with an error, or with what the provider's stream still sends. */
export type ReplayEnd =
  | {
      /** The error the original stream threw (raised once the parts are read: erroring drops what a stream queues). */
      readonly error: unknown;
      /**
       * Runs right before the error (a held step's chunk timeout aborts the
       * SDK's signal there), told whether the reader has cancelled the stream
       * by then: a reader that stopped reading (a transform's `stopStream()`)
       * gets neither.
       */
      readonly before?: ((cancelled: () => boolean) => void | Promise<void>) | undefined;
    }
  | {
      /** The provider's stream after the parts (its end, as a rule), passed on as it comes. */
      readonly rest: ReadableStreamDefaultReader<Part>;
      /** Which of its parts pass (all when absent). */
      readonly keep?: ((part: Part) => boolean) | undefined;
      /** Told when it throws, before the stream errors with it. */
      readonly failed?: ((error: unknown) => void | Promise<void>) | undefined;
    };

/**
 * A readable stream of `parts`, all queued at once (no pull per part: the
 * cheapest replay Node's web streams have), then `end`: nothing more, an
 * error, or the rest of the provider's stream. With a high-water mark of 0,
 * the end is asked for only once the parts are read and the reader wants
 * more.
 */
export function replayParts(parts: readonly Part[], end?: ReplayEnd): ReadableStream<Part> {
  if (end === undefined) {
    return new ReadableStream({
      start(controller) {
        for (const part of parts) controller.enqueue(part);
        controller.close();
      },
    });
  }
  if ('error' in end) {
    let cancelled = false;
    return new ReadableStream(
      {
        start(controller) {
          for (const part of parts) controller.enqueue(part);
        },
        async pull(controller) {
          await end.before?.(() => cancelled);
          if (!cancelled) controller.error(end.error);
        },
        cancel() {
          cancelled = true;
        },
      },
      { highWaterMark: 0 },
    );
  }
  return new ReadableStream(new ReplayThenRest(parts, end), { highWaterMark: 0 });
}

/** The source of a replay followed by the rest of the provider's stream (one read per pull, no async function). */
class ReplayThenRest implements UnderlyingDefaultSource<Part> {
  private readonly parts: readonly Part[];
  private readonly end: Extract<ReplayEnd, { rest: unknown }>;
  private controller!: ReadableStreamDefaultController<Part>;
  private readonly onRead = (next: ReadableStreamReadResult<Part>): void | Promise<void> => {
    if (next.done) this.controller.close();
    else if (this.end.keep?.(next.value) === false) return this.pull();
    else this.controller.enqueue(next.value);
  };
  private readonly onThrow = async (error: unknown): Promise<void> => {
    await this.end.failed?.(error);
    this.controller.error(error);
  };

  constructor(parts: readonly Part[], end: Extract<ReplayEnd, { rest: unknown }>) {
    this.parts = parts;
    this.end = end;
  }

  start(controller: ReadableStreamDefaultController<Part>): void {
    this.controller = controller;
    for (const part of this.parts) controller.enqueue(part);
  }

  pull(): Promise<void> {
    return this.end.rest.read().then(this.onRead, this.onThrow);
  }

  cancel(reason: unknown): Promise<void> {
    return this.end.rest.cancel(reason);
  }
}
