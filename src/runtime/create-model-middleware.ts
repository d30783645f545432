import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4GenerateResult,
  LanguageModelV4Middleware,
  LanguageModelV4StreamPart,
  LanguageModelV4StreamResult,
  LanguageModelV4Usage,
} from '@ai-sdk/provider';
import type { Context } from '@ai-sdk/provider-utils';
import type { AfterModelCallEvent } from '../handlers/intervention-events.ts';
import { runOnResponse, runPreRequest } from '../hooks/run-hooks.ts';
import { collectStream } from '../model/collect-stream.ts';
import { partsToStream, responseToParts } from '../model/response-to-stream.ts';
import { redactResponse, redactStream } from '../redaction/redact-model-output.ts';
import { isThenable } from '../util/is-thenable.ts';
import { cloneResponseEvent } from './drafts.ts';
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
  /** Told when a provider stream errors (runs only). */
  streamFailed?(error: unknown): Promise<void>;
  /** Applies run-level changes to a provider request (runs only). */
  prepareRequest?(request: LanguageModelV4CallOptions): LanguageModelV4CallOptions;
}

const NO_SUBJECT = Object.freeze({});

/** A provider stream carried an error: it is replayed as it came. */
class FailedStream {
  readonly parts: readonly LanguageModelV4StreamPart[];
  constructor(parts: readonly LanguageModelV4StreamPart[]) {
    this.parts = parts;
  }
}

/**
 * The model layer as a `LanguageModelV4Middleware`: `preRequest` hooks
 * (modify, or short-circuit with a response) → the provider → `onResponse`
 * hooks → `afterModelCall` handlers (guide discards the response and retries
 * with the feedback, at most `maxGuideRetries` times; transform edits it) →
 * the run's tool-call decisions.
 *
 * Streams pass through untouched unless something must see the whole
 * response (`onResponse` hooks, `afterModelCall` handlers: the step is then
 * held back until they decide) or the tool calls (held until the provider
 * finishes, so every call of the turn is decided before any runs).
 */
export function createModelMiddleware(
  scopeOf: () => ModelScope,
): LanguageModelV4Middleware {
  return {
    specificationVersion: 'v4',

    wrapGenerate: async ({ doGenerate, params, model }) => {
      const scope = scopeOf();
      try {
        const starting = scope.ensureStarted();
    if (starting !== undefined) await starting;
        const first = scope.prepareRequest?.(params) ?? params;
        const response = await respond(scope, model, first, (request) =>
          request === params ? doGenerate() : model.doGenerate(request),
        );
        return scope.decidesToolCalls && scope.decideToolCalls !== undefined
          ? await scope.decideToolCalls(response)
          : response;
      } catch (error) {
        // errors here reach the caller through the SDK; remember whose run they ended
        scope.noteError?.(error);
        throw error;
      }
    },

    wrapStream: async (options) => {
      const scope = scopeOf();
      try {
        return await wrapStream(scope, options);
      } catch (error) {
        scope.noteError?.(error);
        throw error;
      }
    },
  };
}

/** The stream side of {@link createModelMiddleware}. */
async function wrapStream(
  scope: ModelScope,
  { doStream, params, model }: Parameters<NonNullable<LanguageModelV4Middleware['wrapStream']>>[0],
): Promise<LanguageModelV4StreamResult> {
  {
    {
      const { hooks, handlers } = scope.snapshot;
      const holdResponse = hooks.onResponse.length > 0 || handlers.afterModelCall.length > 0;
      const starting = scope.ensureStarted();
    if (starting !== undefined) await starting;
      const first = scope.prepareRequest?.(params) ?? params;
      const { redactors } = scope.snapshot;
      if (
        hooks.preRequest.length === 0 &&
        !holdResponse &&
        !scope.decidesToolCalls &&
        hooks.onStatus.length === 0 &&
        redactors.length === 0 &&
        scope.streamFailed === undefined
      ) {
        return first === params ? doStream() : model.doStream(first);
      }
      const open = (request: LanguageModelV4CallOptions) =>
        request === params ? doStream() : model.doStream(request);

      if (holdResponse) {
        let meta: Omit<LanguageModelV4StreamResult, 'stream'> = {};
        try {
          const response = await respond(scope, model, first, async (request) => {
            const { stream, ...rest } = await open(request);
            meta = rest;
            const collected = await collectStream(stream);
            if (!collected.ok) throw new FailedStream(collected.parts);
            return collected.response;
          });
          const decided =
            scope.decidesToolCalls && scope.decideToolCalls !== undefined ? await scope.decideToolCalls(response) : response;
          return { ...meta, stream: partsToStream(responseToParts(decided)) };
        } catch (error) {
          if (error instanceof FailedStream) return { ...meta, stream: partsToStream(error.parts) };
          throw error;
        }
      }

      let request = first;
      if (hooks.preRequest.length > 0) {
        const pre = await runPreRequest(hooks.preRequest, { ...context(scope, first, model), request: first });
        if (pre.response !== undefined) {
          const response = redactResponse(redactors, pre.response);
          const decided =
            scope.decidesToolCalls && scope.decideToolCalls !== undefined ? await scope.decideToolCalls(response) : response;
          return { stream: partsToStream(responseToParts(decided)) };
        }
        request = pre.request;
      }
      if (hooks.onStatus.length > 0) {
        await scope.status({ type: 'model-call', stepNumber: scope.stepNumber, attempt: 0 });
      }
      const result = await open(request);
      let stream = result.stream;
      if (scope.streamFailed !== undefined) stream = watchErrors(stream, scope.streamFailed.bind(scope));
      if (redactors.length > 0) stream = stream.pipeThrough(redactStream(redactors));
      if (scope.decidesToolCalls && scope.decideToolCalls !== undefined) {
        stream = stream.pipeThrough(holdToolCalls(scope.decideToolCalls.bind(scope)));
      }
      return stream === result.stream ? result : { ...result, stream };
    }
  }
}

/** One model call with the hooks and the `afterModelCall` handlers around it. */
async function respond(
  scope: ModelScope,
  model: LanguageModelV4,
  params: LanguageModelV4CallOptions,
  call: (request: LanguageModelV4CallOptions) => PromiseLike<LanguageModelV4GenerateResult>,
): Promise<LanguageModelV4GenerateResult> {
  const { hooks, handlers, maxGuideRetries, wording } = scope.snapshot;
  const discarded: LanguageModelV4Usage[] = [];
  let request = params;

  for (let attempt = 0; ; attempt++) {
    let cached: LanguageModelV4GenerateResult | undefined;
    let sent = request;
    if (hooks.preRequest.length > 0) {
      const pre = await runPreRequest(hooks.preRequest, { ...context(scope, request, model), request });
      sent = pre.request;
      cached = pre.response;
    }
    if (cached === undefined && hooks.onStatus.length > 0) {
      await scope.status({ type: 'model-call', stepNumber: scope.stepNumber, attempt });
    }
    const raw = cached ?? (await call(sent));
    // redaction first: nothing downstream (hooks, handlers, caches, the client) sees what it removes
    let response = redactResponse(scope.snapshot.redactors, raw);
    if (hooks.onResponse.length > 0) {
      response = await runOnResponse(hooks.onResponse, { ...context(scope, sent, model), request: sent, response });
    }
    if (handlers.afterModelCall.length === 0) return withUsage(forgetChangedItems(raw, response), discarded);

    const exhausted = attempt >= maxGuideRetries;
    const event: AfterModelCallEvent = {
      lifecycle: 'afterModelCall',
      runtimeContext: scope.runtimeContext ?? {},
      runId: scope.runId,
      abortSignal: request.abortSignal,
      stepNumber: scope.stepNumber,
      attempt,
      response,
    };
    const evaluation = scope.evaluate({
      event,
      makeDraft: cloneResponseEvent,
      subject: scope.stepNumber === undefined ? NO_SUBJECT : { stepNumber: scope.stepNumber },
      ...(exhausted
        ? { downgradeGuide: `guide retries exhausted (maxGuideRetries: ${maxGuideRetries}); the response was kept` }
        : {}),
    });
    const verdict = isThenable(evaluation) ? await evaluation : evaluation;
    if (verdict.type === 'guide') {
      const feedback = wording.modelGuidance({ guidance: verdict.guidance });
      if (hooks.onStatus.length > 0) {
        await scope.status({ type: 'guide-retry', stepNumber: scope.stepNumber, attempt: attempt + 1, feedback });
      }
      discarded.push(response.usage);
      request = {
        ...request,
        prompt: [
          ...request.prompt,
          { role: 'user', content: [{ type: 'text', text: feedback }] },
        ],
      };
      continue;
    }
    const final = verdict.type === 'deny' ? response : verdict.event.response;
    return withUsage(forgetChangedItems(raw, final), discarded);
  }
}

/**
 * Drops the provider metadata of text the hooks, handlers or redactors
 * changed: it can point at the provider's stored copy of the original (an
 * OpenAI Responses item id is sent back as an `item_reference`), which would
 * hand the model back what was rewritten.
 */
function forgetChangedItems(
  raw: LanguageModelV4GenerateResult,
  final: LanguageModelV4GenerateResult,
): LanguageModelV4GenerateResult {
  if (raw === final) return final;
  let changed = false;
  const content = final.content.map((part, index) => {
    if ((part.type !== 'text' && part.type !== 'reasoning') || part.providerMetadata === undefined) return part;
    const before = raw.content[index];
    if (before?.type === part.type && before.text === part.text) return part;
    changed = true;
    const { providerMetadata: _stale, ...rest } = part;
    return rest;
  });
  return changed ? { ...final, content } : final;
}

/** Passes a stream through, telling `onError` (once) when it errors. */
function watchErrors<T>(stream: ReadableStream<T>, onError: (error: unknown) => Promise<void>): ReadableStream<T> {
  const reader = stream.getReader();
  return new ReadableStream<T>({
    async pull(controller) {
      let next: ReadableStreamReadResult<T>;
      try {
        next = await reader.read();
      } catch (error) {
        await onError(error);
        controller.error(error);
        return;
      }
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

/** Holds a stream's tool calls until the provider finishes, then decides them together. */
function holdToolCalls(
  decide: (response: LanguageModelV4GenerateResult) => Promise<LanguageModelV4GenerateResult>,
): TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart> {
  const held: LanguageModelV4StreamPart[] = [];
  const providerExecuted = new Set<string>();
  const release = (
    calls: readonly LanguageModelV4StreamPart[],
    controller: TransformStreamDefaultController<LanguageModelV4StreamPart>,
  ) => {
    for (const call of calls) {
      // the arguments stream to the client once decided (a transform may have changed them)
      if (call.type === 'tool-call' && call.providerExecuted !== true) {
        controller.enqueue({ type: 'tool-input-start', id: call.toolCallId, toolName: call.toolName });
        controller.enqueue({ type: 'tool-input-delta', id: call.toolCallId, delta: call.input });
        controller.enqueue({ type: 'tool-input-end', id: call.toolCallId });
      }
      controller.enqueue(call);
    }
  };
  return new TransformStream({
    async transform(part, controller) {
      if (part.type === 'tool-call') {
        held.push(part);
        return;
      }
      // arguments stream before they are decided: hold them back with the call
      // (provider-executed tools are not decided here and stream as they come)
      if (part.type === 'tool-input-start') {
        if (part.providerExecuted !== true) return;
        providerExecuted.add(part.id);
      }
      if ((part.type === 'tool-input-delta' || part.type === 'tool-input-end') && !providerExecuted.has(part.id)) return;
      if (part.type === 'finish' && held.length > 0) {
        const decided = await decide({
          content: held.splice(0) as LanguageModelV4GenerateResult['content'],
          finishReason: part.finishReason,
          usage: part.usage,
          warnings: [],
        });
        release(decided.content as LanguageModelV4StreamPart[], controller);
      }
      controller.enqueue(part);
    },
    flush(controller) {
      release(held.splice(0), controller);
    },
  });
}

function context(scope: ModelScope, request: LanguageModelV4CallOptions, model: LanguageModelV4) {
  return {
    model: { provider: model.provider, modelId: model.modelId },
    stepNumber: scope.stepNumber,
    runtimeContext: scope.runtimeContext,
    runId: scope.runId,
    abortSignal: request.abortSignal,
  };
}

/** Adds the usage of discarded (guided) attempts to the kept response. */
function withUsage(
  response: LanguageModelV4GenerateResult,
  discarded: readonly LanguageModelV4Usage[],
): LanguageModelV4GenerateResult {
  if (discarded.length === 0) return response;
  const usage = [...discarded, response.usage].reduce((total, next) => ({
    inputTokens: {
      total: add(total.inputTokens.total, next.inputTokens.total),
      noCache: add(total.inputTokens.noCache, next.inputTokens.noCache),
      cacheRead: add(total.inputTokens.cacheRead, next.inputTokens.cacheRead),
      cacheWrite: add(total.inputTokens.cacheWrite, next.inputTokens.cacheWrite),
    },
    outputTokens: {
      total: add(total.outputTokens.total, next.outputTokens.total),
      text: add(total.outputTokens.text, next.outputTokens.text),
      reasoning: add(total.outputTokens.reasoning, next.outputTokens.reasoning),
    },
  }));
  return { ...response, usage };
}

function add(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined && b === undefined ? undefined : (a ?? 0) + (b ?? 0);
}
