import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4GenerateResult,
  LanguageModelV4Middleware,
  LanguageModelV4StreamResult,
} from '@ai-sdk/provider';
import type { Context } from '@ai-sdk/provider-utils';
import { runPreRequest } from '../hooks/run-hooks.ts';
import { collectStream, type CollectedStream } from '../model/collect-stream.ts';
import { holdToolCalls } from '../model/hold-tool-calls.ts';
import { releaseParts } from '../model/release-parts.ts';
import { replayParts } from '../model/replay-parts.ts';
import { responseToParts } from '../model/response-to-parts.ts';
import { watchStreamErrors } from '../model/watch-stream-errors.ts';
import { redactResponse, redactStream } from '../redaction/redact-model-output.ts';
import { modelHookContext, respond } from './respond.ts';
import type { ToolScope } from './tool-scope.ts';

/** What the model layer needs from a run (or from the standalone runtime). */
export interface ModelScope extends Pick<ToolScope, 'snapshot' | 'evaluate' | 'critical' | 'ensureStarted' | 'status'> {
  readonly runtimeContext: Context | undefined;
  readonly runId: string | undefined;
  readonly stepNumber: number | undefined;
  /** The run's decision pass over a response's tool calls (runs only). */
  decideToolCalls?(response: LanguageModelV4GenerateResult): Promise<LanguageModelV4GenerateResult>;
  /** Whether the decision pass has anything to do. */
  readonly decidesToolCalls: boolean;
  /** Remembers an error raised in the run (runs only). */
  noteError?(error: unknown): void;
  /** Told when a provider stream throws, when the run must know (runs only). */
  readonly streamFailed?: ((error: unknown) => Promise<void>) | undefined;
  /** Applies run-level changes to a provider request (runs only). */
  prepareRequest?(request: LanguageModelV4CallOptions): LanguageModelV4CallOptions;
}

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
 * hooks, `afterModelCall` handlers); the tool calls (and what follows them)
 * are held until the provider finishes when they are decided; redactors hold
 * back at most their look-ahead. Held parts are released as the provider
 * sent them, except what a decision changed.
 */
export function createModelMiddleware(scopeOf: () => ModelScope): LanguageModelV4Middleware {
  return {
    specificationVersion: 'v4',

    wrapGenerate: async ({ doGenerate, params, model }) => {
      const scope = scopeOf();
      try {
        const starting = scope.ensureStarted();
        if (starting !== undefined) await starting;
        const first = scope.prepareRequest?.(params) ?? params;
        const { final } = await respond(scope, model, first, (request) =>
          request === params ? doGenerate() : model.doGenerate(request),
        );
        return decideCalls(scope, final);
      } catch (error) {
        // errors here reach the caller through the SDK; remember whose run they ended
        scope.noteError?.(error);
        throw error;
      }
    },

    wrapStream: async ({ doStream, params, model }) => {
      const scope = scopeOf();
      try {
        const starting = scope.ensureStarted();
        if (starting !== undefined) await starting;
        const first = scope.prepareRequest?.(params) ?? params;
        const open = (request: LanguageModelV4CallOptions) => (request === params ? doStream() : model.doStream(request));
        const { hooks, handlers } = scope.snapshot;
        return hooks.onResponse.length > 0 || handlers.afterModelCall.length > 0
          ? await streamHeldStep(scope, model, first, open)
          : await streamLive(scope, model, first, open);
      } catch (error) {
        scope.noteError?.(error);
        throw error;
      }
    },
  };
}

/** The tool-call decisions of a whole response, when the scope takes them. */
function decideCalls(scope: ModelScope, response: LanguageModelV4GenerateResult): Promise<LanguageModelV4GenerateResult> | LanguageModelV4GenerateResult {
  return scope.decidesToolCalls && scope.decideToolCalls !== undefined ? scope.decideToolCalls(response) : response;
}

/**
 * A step held whole: each attempt's stream is collected (its parts kept),
 * the hooks and handlers decide, then the kept attempt is released: verbatim
 * when nothing changed it, with only the changed items synthesized otherwise.
 * A stream that errored or did not finish is replayed as it came.
 */
async function streamHeldStep(
  scope: ModelScope,
  model: LanguageModelV4,
  first: LanguageModelV4CallOptions,
  open: (request: LanguageModelV4CallOptions) => PromiseLike<LanguageModelV4StreamResult>,
): Promise<LanguageModelV4StreamResult> {
  let meta: Omit<LanguageModelV4StreamResult, 'stream'> = {};
  let collected: Extract<CollectedStream, { ok: true }> | undefined;
  try {
    const { raw, final } = await respond(scope, model, first, async (request) => {
      const { stream, ...rest } = await open(request);
      meta = rest;
      const result = await collectStream(stream);
      if (!result.ok) throw new FailedStream(result);
      collected = result;
      return result.response;
    });
    const decided = await decideCalls(scope, final);
    const parts =
      collected !== undefined && raw === collected.response ? releaseParts(collected, decided) : responseToParts(decided);
    return { ...meta, stream: replayParts(parts) };
  } catch (error) {
    if (!(error instanceof FailedStream)) throw error;
    const { parts, thrown } = error.collected;
    if (thrown !== undefined) await scope.streamFailed?.(thrown.error);
    return { ...meta, stream: replayParts(parts, thrown) };
  }
}

/**
 * A step that streams as it comes: `preRequest` may serve a response (then
 * it is decided and replayed), redactors and the tool-call hold are the only
 * layers added, and none when nothing needs them.
 */
async function streamLive(
  scope: ModelScope,
  model: LanguageModelV4,
  first: LanguageModelV4CallOptions,
  open: (request: LanguageModelV4CallOptions) => PromiseLike<LanguageModelV4StreamResult>,
): Promise<LanguageModelV4StreamResult> {
  const { hooks, redactors } = scope.snapshot;
  let request = first;
  if (hooks.preRequest.length > 0) {
    const pre = await runPreRequest(hooks.preRequest, { ...modelHookContext(scope, first, model), request: first });
    if (pre.response !== undefined) {
      const decided = await decideCalls(scope, redactResponse(redactors, pre.response));
      return { stream: replayParts(responseToParts(decided)) };
    }
    request = pre.request;
  }
  if (hooks.onStatus.length > 0) await scope.status({ type: 'model-call', stepNumber: scope.stepNumber, attempt: 0 });
  const result = await open(request);
  let stream = result.stream;
  if (scope.streamFailed !== undefined) stream = watchStreamErrors(stream, scope.streamFailed);
  if (redactors.length > 0) stream = stream.pipeThrough(redactStream(redactors));
  if (scope.decidesToolCalls && scope.decideToolCalls !== undefined) {
    stream = stream.pipeThrough(holdToolCalls(scope.decideToolCalls.bind(scope)));
  }
  return stream === result.stream ? result : { ...result, stream };
}
