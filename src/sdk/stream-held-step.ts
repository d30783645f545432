import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4StreamPart, LanguageModelV4StreamResult } from '@ai-sdk/provider';
import { type CollectedStream, collectStream } from '../model/collect-stream.ts';
import { releaseParts } from '../model/release-parts.ts';
import { replayParts } from '../model/replay-parts.ts';
import { responseToParts } from '../model/response-to-parts.ts';
import { isLateChunk, watchStreamTimeouts } from '../model/stream-timeouts.ts';
import { respond } from '../run/respond.ts';
import type { Run } from '../run/run.ts';
import { decideCalls } from './decide-calls.ts';

/** A provider stream that did not end well: replayed as it came. */
class FailedStream {
  readonly collected: Extract<CollectedStream, { ok: false }>;
  constructor(collected: Extract<CollectedStream, { ok: false }>) {
    this.collected = collected;
  }
}

/**
 * A step held whole: each attempt's stream is collected up to the
 * provider's finish (its parts kept, its content built as they come), the
 * hooks and handlers decide, then the kept attempt is released (all its
 * parts queued at once): verbatim when nothing changed it, with only the
 * changed items synthesized otherwise, followed by whatever the provider
 * still sends. A stream that errored or did not finish is replayed as it
 * came.
 */
export async function streamHeldStep(
  run: Run,
  model: LanguageModelV4,
  first: LanguageModelV4CallOptions,
  open: (request: LanguageModelV4CallOptions) => PromiseLike<LanguageModelV4StreamResult>,
): Promise<LanguageModelV4StreamResult> {
  let meta: Omit<LanguageModelV4StreamResult, 'stream'> = {};
  let collected: Extract<CollectedStream, { ok: true }> | undefined;
  try {
    const { raw, final } = await respond(run, model, first, async (request) => {
      // a retry: the attempt a guide discarded is not read further
      collected?.rest.cancel().catch(() => {});
      collected = undefined;
      const { stream, ...rest } = await open(request);
      meta = rest;
      const result = await collectStream(
        run.streamTimeouts === undefined
          ? stream
          : watchStreamTimeouts(stream, run.streamTimeouts, { held: true, toolChoice: request.toolChoice }),
      );
      if (!result.ok) throw new FailedStream(result);
      collected = result;
      return result.response;
    });
    const decided = await decideCalls(run, final, { streamed: true });
    const kept = collected !== undefined && raw === collected.response ? collected : undefined;
    if (kept === undefined) {
      collected?.rest.cancel().catch(() => {});
      return { ...meta, stream: replayParts(withoutRawChunks(run, responseToParts(decided))) };
    }
    const keep = run.snapshot.redactors.length === 0 ? undefined : isNotRaw;
    const end = { rest: kept.rest, keep, failed: run.streamFailed };
    return { ...meta, stream: replayParts(withoutRawChunks(run, releaseParts(kept, decided)), end) };
  } catch (error) {
    collected?.rest.cancel().catch(() => {});
    if (!(error instanceof FailedStream)) throw error;
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
      return { ...meta, stream: replayParts(withoutRawChunks(run, parts), { error: late, before: abortOnceReleased }) };
    }
    if (thrown !== undefined) await run.streamFailed?.(thrown.error);
    return { ...meta, stream: replayParts(withoutRawChunks(run, parts), thrown) };
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
