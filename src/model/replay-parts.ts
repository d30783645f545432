import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import type { StreamRest } from './collect-stream.ts';

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
      readonly rest: StreamRest;
      /** Which of its parts pass (all when absent). */
      readonly keep?: ((part: Part) => boolean) | undefined;
      /** Told when it throws, before the stream errors with it. */
      readonly failed?: ((error: unknown) => void | Promise<void>) | undefined;
    };

/**
 * A readable stream of `parts`, all queued at once (no pull per part: the
 * cheapest replay Node's web streams have), then `end`: nothing more, an
 * error, or the rest of the provider's stream. An error is raised only once
 * the parts are read and the reader wants more (a high-water mark of 0);
 * the rest is read at once (see {@link replayThenRest}).
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
  return replayThenRest(parts, end);
}

/**
 * The parts, then the rest of the provider's stream, its first read under
 * way since the finish part (one read at a time, each answered by the same function:
 * no pull per part, no async function): what it sends after its finish (its
 * end, as a rule) follows the parts in order, and a provider slow to close
 * holds back nothing already queued. Cancelling stops the reading and
 * cancels the provider's stream.
 */
function replayThenRest(
  parts: readonly Part[],
  { rest: { reader, next: first }, keep, failed }: Extract<ReplayEnd, { rest: unknown }>,
): ReadableStream<Part> {
  let cancelled = false;
  /** The error the rest threw, raised once the parts are read (erroring drops what a stream queues). */
  let failure: { readonly error: unknown } | undefined;
  return new ReadableStream<Part>(
    {
      start(controller) {
        for (const part of parts) controller.enqueue(part);
        const thrown = async (error: unknown): Promise<void> => {
          if (cancelled) return;
          await failed?.(error);
          if (cancelled) return;
          // nothing queued (a high-water mark of 0): nothing to drop; otherwise the next pull raises it
          if (controller.desiredSize === 0) controller.error(error);
          else failure = { error };
        };
        const next = (read: ReadableStreamReadResult<Part>): void => {
          if (cancelled) return;
          if (read.done) {
            controller.close();
            return;
          }
          if (keep?.(read.value) !== false) controller.enqueue(read.value);
          reader.read().then(next, thrown);
        };
        first.then(next, thrown);
      },
      pull(controller) {
        if (failure !== undefined) controller.error(failure.error);
      },
      cancel(reason) {
        cancelled = true;
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}
