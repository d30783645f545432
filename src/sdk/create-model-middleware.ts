import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4GenerateResult,
  LanguageModelV4Middleware,
  LanguageModelV4StreamPart,
  LanguageModelV4StreamResult,
} from '@ai-sdk/provider';
import { decodePromptAnswers } from '../approvals/decode-prompt-answers.ts';
import { runPreRequest } from '../hooks/run-hooks.ts';
import { type CollectedStream, collectStream } from '../model/collect-stream.ts';
import { holdToolCalls } from '../model/hold-tool-calls.ts';
import { releaseParts } from '../model/release-parts.ts';
import { replayParts } from '../model/replay-parts.ts';
import { responseToParts } from '../model/response-to-parts.ts';
import { isLateChunk, watchStreamTimeouts } from '../model/stream-timeouts.ts';
import { uniqueToolCallIds } from '../model/unique-tool-call-ids.ts';
import { watchStreamErrors } from '../model/watch-stream-errors.ts';
import { withInvocationChanges } from '../run/invocation-changes.ts';
import { modelHookContext, respond } from '../run/respond.ts';
import type { Run } from '../run/run.ts';
import { ensureStarted } from '../run/start-run.ts';
import { decideStreamedCalls, decideTurn } from '../tool-call/decide-turn.ts';
import { decidesInModelLayer, decidesWithTurn } from '../tool-call/decision-point.ts';

/** A provider stream that did not end well: replayed as it came. */
class FailedStream {
  readonly collected: Extract<CollectedStream, { ok: false }>;
  constructor(collected: Extract<CollectedStream, { ok: false }>) {
    this.collected = collected;
  }
}

/**
 * The model layer as a `LanguageModelV4Middleware`: `respond` (the
 * model-level hooks and `afterModelCall` handlers), then the run's decisions
 * on the response's tool calls.
 *
 * Streams pass through untouched unless something can change them. A step
 * is held whole only when something must see the whole response (`onResponse`
 * hooks, `afterModelCall` handlers); a tool call (and what follows it) is
 * held until it is decided, as it comes (the turn until the provider
 * finishes when gates must see it whole); redactors hold back at most their
 * look-ahead. Held parts are released as the provider
 * sent them, except what a decision changed. `beforeCall` checks each call
 * first (the runtime's own middleware refuses what it cannot enforce).
 */
export function createModelMiddleware(
  runOf: () => Run,
  { beforeCall }: { readonly beforeCall?: (params: LanguageModelV4CallOptions) => void } = {},
): LanguageModelV4Middleware {
  return {
    specificationVersion: 'v4',

    wrapGenerate: async ({ doGenerate, params, model }) => {
      beforeCall?.(params);
      const run = runOf();
      try {
        const starting = ensureStarted(run);
        if (starting !== undefined) await starting;
        const first = withInvocationChanges(run.invocation, promptOf(run, params));
        const { final } = await respond(run, model, first, (request) => {
          // the provider gets back what it sent (signed reasoning, stored items), though redaction changed it for everyone else
          const sent = run.redactedOriginals?.restore(request) ?? request;
          return sent === params ? doGenerate() : model.doGenerate(sent);
        });
        return decideCalls(run, final);
      } catch (error) {
        // errors here reach the caller through the SDK; remember whose run they ended
        run.noteError(error);
        throw error;
      }
    },

    wrapStream: async ({ doStream, params, model }) => {
      beforeCall?.(params);
      const run = runOf();
      try {
        const starting = ensureStarted(run);
        if (starting !== undefined) await starting;
        const first = withInvocationChanges(run.invocation, promptOf(run, params));
        const open = (request: LanguageModelV4CallOptions) => {
          const sent = run.redactedOriginals?.restore(request) ?? request;
          return sent === params ? doStream() : model.doStream(sent);
        };
        const { hooks, handlers } = run.snapshot;
        return hooks.onResponse.length > 0 || handlers.afterModelCall.length > 0
          ? await streamHeldStep(run, model, first, open)
          : await streamLive(run, model, first, open);
      } catch (error) {
        run.noteError(error);
        throw error;
      }
    },
  };
}

/**
 * The tool-call decisions of a whole response, when the run takes them
 * (`generateText` and streams alike: a transform is written into the
 * response before the SDK parses it). Each call gets an id of its own
 * first: its decision is then found by that id and by nothing else.
 */
function decideCalls(
  run: Run,
  response: LanguageModelV4GenerateResult,
): Promise<LanguageModelV4GenerateResult> | LanguageModelV4GenerateResult {
  return decidesInModelLayer(run) ? decideTurn(run, uniqueToolCallIds(response)) : response;
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
async function streamHeldStep(
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
    const decided = await decideCalls(run, final);
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

/**
 * A step that streams as it comes: `preRequest` may serve a response (then
 * it is decided and replayed), redactors and the tool-call hold are the only
 * layers added, and none when nothing needs them.
 */
async function streamLive(
  run: Run,
  model: LanguageModelV4,
  first: LanguageModelV4CallOptions,
  open: (request: LanguageModelV4CallOptions) => PromiseLike<LanguageModelV4StreamResult>,
): Promise<LanguageModelV4StreamResult> {
  const { hooks, redactors } = run.snapshot;
  let request = first;
  if (hooks.preRequest.length > 0) {
    const pre = await runPreRequest(hooks.preRequest, { ...modelHookContext(run, first, model), request: first });
    if (pre.response !== undefined) {
      const redaction = redactors.length === 0 ? undefined : await import('../redaction/redact-model-output.ts');
      const decided = await decideCalls(
        run,
        redaction === undefined ? pre.response : redaction.redactResponse(redactors, pre.response, redaction.keepOriginalsIn(run)),
      );
      return { stream: replayParts(responseToParts(decided)) };
    }
    request = pre.request;
  }
  if (hooks.onStatus.length > 0) await run.status({ type: 'model-call', stepNumber: run.stepNumber, attempt: 0 });
  const result = await open(request);
  let stream = result.stream;
  if (run.streamFailed !== undefined) stream = watchStreamErrors(stream, run.streamFailed);
  if (redactors.length > 0) {
    // the redactors' code loads with the first stream a runtime with redactors gets
    const { redactStream, keepOriginalsIn } = await import('../redaction/redact-model-output.ts');
    stream = stream.pipeThrough(redactStream(redactors, keepOriginalsIn(run)));
  }
  if (decidesInModelLayer(run)) {
    if (run.streamTimeouts !== undefined) stream = watchStreamTimeouts(stream, run.streamTimeouts, { toolChoice: request.toolChoice });
    stream = holdToolCalls(stream, { together: decidesWithTurn(run), decide: (calls) => decideStreamedCalls(run, calls) });
  }
  return stream === result.stream ? result : { ...result, stream };
}

/**
 * The request as the model layer takes it: a plain call (`interventions.middleware`
 * on a model used without a run) may carry typed answers still encoded in a
 * denied result, decoded here; a run's history was decoded by its approval
 * session before the SDK read it.
 */
function promptOf(run: Run, params: LanguageModelV4CallOptions): LanguageModelV4CallOptions {
  return run.isDetached ? decodePromptAnswers(params, run.snapshot.wording) : params;
}
