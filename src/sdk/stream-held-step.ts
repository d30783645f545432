import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
  LanguageModelV4StreamResult,
} from '@ai-sdk/provider';
import { type CollectedStream, collectStream } from '../model/collect-stream.ts';
import { releaseParts } from '../model/release-parts.ts';
import { replayParts } from '../model/replay-parts.ts';
import { responseToParts } from '../model/response-to-parts.ts';
import { isLateChunk, watchStreamTimeouts } from '../model/stream-timeouts.ts';
import { type Responded, respond } from '../run/respond.ts';
import type { Run } from '../run/run.ts';
import { decideResponse } from '../tool-call/decide-turn.ts';

type Open = (request: LanguageModelV4CallOptions) => PromiseLike<LanguageModelV4StreamResult>;
type Collected = Extract<CollectedStream, { ok: true }>;

/** A provider stream that did not end well: replayed as it came. */
class FailedStream {
  readonly collected: Extract<CollectedStream, { ok: false }>;
  readonly opened: LanguageModelV4StreamResult;
  constructor(collected: Extract<CollectedStream, { ok: false }>, opened: LanguageModelV4StreamResult) {
    this.collected = collected;
    this.opened = opened;
  }
}

/**
 * A step held whole: each attempt's stream is collected up to the
 * provider's finish (its parts kept, its content built as they come), the
 * hooks and handlers decide, then the kept attempt is released (all its
 * parts queued at once): verbatim when nothing changed it, with only the
 * changed items synthesized otherwise, followed by whatever the provider
 * still sends. A stream that errored or did not finish is replayed as it
 * came. A promise chain, without an async function around it.
 */
export function streamHeldStep(
  run: Run,
  model: LanguageModelV4,
  first: LanguageModelV4CallOptions,
  open: Open,
): Promise<LanguageModelV4StreamResult> {
  const step = new HeldStep(run, open);
  return respond(run, model, first, step.attempt).then(step.decide, step.failed);
}

/** One held step: the attempt the run keeps (the last one read), and how it is released. */
class HeldStep {
  private readonly run: Run;
  private readonly open: Open;
  /** The last attempt's stream, read up to its finish, and what the provider answered around it. */
  private collected: Collected | undefined;
  private opened: LanguageModelV4StreamResult | undefined;

  constructor(run: Run, open: Open) {
    this.run = run;
    this.open = open;
  }

  /** One attempt: the provider's stream read up to its finish, as the response it describes. */
  readonly attempt = (request: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> => {
    // a retry: the attempt a guide discarded is not read further
    this.discard();
    return Promise.resolve(this.open(request)).then((opened) => {
      this.opened = opened;
      const timeouts = this.run.streamTimeouts;
      const stream =
        timeouts === undefined
          ? opened.stream
          : watchStreamTimeouts(opened.stream, timeouts, { held: true, toolChoice: request.toolChoice });
      return collectStream(stream).then((collected) => {
        if (!collected.ok) throw new FailedStream(collected, opened);
        this.collected = collected;
        return collected.response;
      });
    });
  };

  /** The calls of the response the run keeps decided, then the step released. */
  readonly decide = ({
    raw,
    final,
  }: Responded<LanguageModelV4GenerateResult>): LanguageModelV4StreamResult | Promise<LanguageModelV4StreamResult> => {
    return decideResponse(this.run, final, 'streamed').then((decided) => this.release(raw, decided), this.failed);
  };

  private release(raw: LanguageModelV4GenerateResult, decided: LanguageModelV4GenerateResult): LanguageModelV4StreamResult {
    // what the provider answered around its stream (none when a preRequest hook served the response)
    const { run, collected, opened } = this;
    if (collected === undefined || raw !== collected.response) {
      // a preRequest hook's response, or one a hook replaced: its parts synthesized
      this.discard();
      return { ...opened, stream: replayParts(withoutRawChunks(run, responseToParts(decided))) };
    }
    const parts = withoutRawChunks(run, releaseParts(collected, decided));
    // a provider stream found over since the finish part is not read further
    if (collected.rest.ended) return { ...opened, stream: replayParts(parts) };
    const keep = run.snapshot.redactors.length === 0 ? undefined : isNotRaw;
    return { ...opened, stream: replayParts(parts, { rest: collected.rest, keep, failed: run.streamFailed }) };
  }

  /** A failed attempt: a stream that did not end well is replayed as it came; anything else ends the step. */
  readonly failed = (error: unknown): Promise<LanguageModelV4StreamResult> | LanguageModelV4StreamResult => {
    this.discard();
    if (!(error instanceof FailedStream)) {
      // errors here reach the caller through the SDK; remember whose run they ended
      this.run.noteError(error);
      throw error;
    }
    const { run } = this;
    const { parts, thrown } = error.collected;
    const timeouts = run.streamTimeouts;
    if (thrown !== undefined && timeouts !== undefined && isLateChunk(thrown.error)) {
      // a late chunk: what came before it is released, then the SDK's step is aborted, as its own timer aborts it
      const late = thrown.error;
      const abortOnceReleased = async (cancelled: () => boolean) => {
        // the SDK reads the released parts through its own queues first: the abort comes after them, as it would raw;
        // a step stream the SDK cancelled meanwhile (a transform's stopStream()) had its chunk timers cleared, raw
        await new Promise((resolve) => setTimeout(resolve, 0));
        if (!cancelled()) timeouts.abort(late);
      };
      return { ...error.opened, stream: replayParts(withoutRawChunks(run, parts), { error: late, before: abortOnceReleased }) };
    }
    const replayed = { ...error.opened, stream: replayParts(withoutRawChunks(run, parts), thrown) };
    if (thrown === undefined || run.streamFailed === undefined) return replayed;
    return Promise.resolve(run.streamFailed(thrown.error)).then(() => replayed);
  };

  /** The provider's stream of the last attempt, no longer read. */
  private discard(): void {
    this.collected?.rest.reader.cancel().catch(() => {});
    this.collected = undefined;
  }
}

const isNotRaw = (part: LanguageModelV4StreamPart): boolean => part.type !== 'raw';

/**
 * The parts a held step releases: raw chunks (`includeRawChunks`) carry the
 * provider's unredacted text, so while redactors are registered none is
 * passed on, as on the live path (`redactStream`).
 */
function withoutRawChunks(run: Run, parts: readonly LanguageModelV4StreamPart[]): readonly LanguageModelV4StreamPart[] {
  return run.snapshot.redactors.length === 0 ? parts : parts.filter(isNotRaw);
}
