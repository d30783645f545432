import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4Middleware, LanguageModelV4StreamResult } from '@ai-sdk/provider';
import { decodePromptAnswers } from '../answers/decode-prompt-answers.ts';
import { runPreRequest } from '../hooks/run-hooks.ts';
import { responseReplay } from '../model/response-replay.ts';
import { watchStreamErrors } from '../model/watch-stream-errors.ts';
import { type ModelOutputRedaction, modelOutputRedaction } from '../redaction/model-output-redaction.ts';
import { withInvocationChanges } from '../run/invocation-changes.ts';
import type { OwnPrompts } from '../run/own-prompts.ts';
import { modelHookContext, respond } from '../run/respond.ts';
import type { Run } from '../run/run.ts';
import { ensureStarted } from '../run/start-run.ts';
import { decideResponse, holdCalls } from '../tool-call/decide-turn.ts';
import { isThenable } from '../util/is-thenable.ts';
import { onDemand } from '../util/on-demand.ts';

/** The held step's code: loads with the first step a runtime that holds steps streams. */
const heldStep = onDemand(() => import('./stream-held-step.ts'));
/** The chunk timers' code: loads with the first step a runtime times itself. */
const streamTimers = onDemand(() => import('../model/stream-timeouts.ts'));
type StreamTimers = Awaited<ReturnType<typeof streamTimers>>;

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
 * sent them, except what a decision changed. A request whose prompt is in
 * `own` (`RuntimeSnapshot.ownPrompts`: the runtime sent it on already) goes
 * on as it is.
 */
export function createModelMiddleware(runOf: () => Run, { own }: { readonly own?: OwnPrompts } = {}): LanguageModelV4Middleware {
  return {
    specificationVersion: 'v4',

    wrapGenerate: async ({ doGenerate, params, model }) => {
      // a request the runtime already guards (its run, or this middleware further out) goes on as it is
      if (own?.has(params.prompt) === true) return doGenerate();
      const run = runOf();
      try {
        const starting = ensureStarted(run);
        if (starting !== undefined) await starting;
        const first = requestOf(run, params);
        const { final } = await respond(run, model, first, (request) => {
          // the provider gets back what it sent (signed reasoning, stored items), though redaction changed it for everyone else
          const sent = run.redactedOriginals?.restore(request) ?? request;
          run.snapshot.ownPrompts?.add(sent.prompt);
          return sent === params ? doGenerate() : model.doGenerate(sent);
        });
        return await decideResponse(run, final);
      } catch (error) {
        // errors here reach the caller through the SDK; remember whose run they ended
        run.noteError(error);
        throw error;
      }
    },

    wrapStream: ({ doStream, params, model }) => {
      if (own?.has(params.prompt) === true) return doStream();
      let run: Run | undefined;
      try {
        const current = (run = runOf());
        const open = (request: LanguageModelV4CallOptions) => {
          const sent = current.redactedOriginals?.restore(request) ?? request;
          current.snapshot.ownPrompts?.add(sent.prompt);
          return sent === params ? doStream() : model.doStream(sent);
        };
        const starting = ensureStarted(current);
        const whole = starting === undefined && holdsWhole(current) ? heldStep() : undefined;
        if (whole !== undefined && !isThenable(whole)) {
          // a step held whole, its code loaded: the held step's own promise (it notes its errors), without an async function around it
          return whole.streamHeldStep(current, model, requestOf(current, params), open);
        }
        const hold = current.plan.holds;
        const { hooks, handlers, redactors } = current.snapshot;
        // nothing to await before the provider is asked: no hooks or handlers around the step, no redactors, no timers of its own
        const atOnce =
          hooks.onResponse.length + handlers.afterModelCall.length + hooks.preRequest.length + hooks.onStatus.length + redactors.length ===
            0 && current.streamTimeouts === undefined;
        if (starting !== undefined || !atOnce) {
          return streamAfterWaiting(current, model, params, open, starting);
        }
        // the common step, without an async function around it: nothing to await before the provider is asked
        const first = requestOf(current, params);
        return Promise.resolve(open(first)).then(
          (result) => liveStream(current, result, first, hold),
          (error: unknown) => {
            current.noteError(error);
            throw error;
          },
        );
      } catch (error) {
        // as from an async function: a rejected promise, never a throw
        run?.noteError(error);
        return Promise.reject(error);
      }
    },
  };
}

/** Whether a step is held whole: something must see the whole response (`onResponse` hooks, `afterModelCall` handlers). */
function holdsWhole({ snapshot: { hooks, handlers } }: Run): boolean {
  return hooks.onResponse.length > 0 || handlers.afterModelCall.length > 0;
}

/** A step the run starts first, holds whole, or whose hooks or layers it awaits. */
async function streamAfterWaiting(
  run: Run,
  model: LanguageModelV4,
  params: LanguageModelV4CallOptions,
  open: (request: LanguageModelV4CallOptions) => PromiseLike<LanguageModelV4StreamResult>,
  starting: Promise<void> | undefined,
): Promise<LanguageModelV4StreamResult> {
  try {
    if (starting !== undefined) await starting;
    const first = requestOf(run, params);
    if (!holdsWhole(run)) return await streamLive(run, model, first, open);
    const { streamHeldStep } = await heldStep();
    return await streamHeldStep(run, model, first, open);
  } catch (error) {
    run.noteError(error);
    throw error;
  }
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
      const redacting = redactors.length === 0 ? undefined : await modelOutputRedaction();
      const decided = await decideResponse(
        run,
        redacting === undefined ? pre.response : redacting.redactResponse(redactors, pre.response, redacting.keepOriginalsIn(run)),
        'streamed',
      );
      const { replayResponse } = await responseReplay();
      return { stream: replayResponse(decided) };
    }
    request = pre.request;
  }
  if (hooks.onStatus.length > 0) await run.status({ type: 'model-call', stepNumber: run.stepNumber, attempt: 0 });
  // before the provider is asked: the timers start with its stream
  const hold = run.plan.holds;
  const timers = run.streamTimeouts !== undefined && hold ? await streamTimers() : undefined;
  const result = await open(request);
  const redacting = redactors.length > 0 ? await modelOutputRedaction() : undefined;
  return liveStream(run, result, request, hold, timers, redacting);
}

/**
 * The provider's stream with the layers a live step needs: errors watched,
 * redaction, the chunk timers, the tool-call hold (`hold`: when the step's
 * calls are held).
 */
function liveStream(
  run: Run,
  result: LanguageModelV4StreamResult,
  request: LanguageModelV4CallOptions,
  hold: boolean,
  timers?: StreamTimers,
  redacting?: ModelOutputRedaction,
): LanguageModelV4StreamResult {
  let stream = result.stream;
  if (run.streamFailed !== undefined) stream = watchStreamErrors(stream, run.streamFailed);
  if (redacting !== undefined) stream = stream.pipeThrough(redacting.redactStream(run.snapshot.redactors, redacting.keepOriginalsIn(run)));
  if (hold) {
    if (timers !== undefined && run.streamTimeouts !== undefined) {
      stream = timers.watchStreamTimeouts(stream, run.streamTimeouts, { toolChoice: request.toolChoice });
    }
    stream = holdCalls(run, stream);
  }
  return stream === result.stream ? result : { ...result, stream };
}

/**
 * The request as the model layer takes it: a plain call (`interventions.middleware`
 * on a model used without a run) may carry typed answers still encoded in a
 * denied result, decoded here (a run's history was decoded by its approval
 * session before the SDK read it); a run's `beforeInvocation` changes to the
 * tools applied.
 */
function requestOf(run: Run, params: LanguageModelV4CallOptions): LanguageModelV4CallOptions {
  const request = run.isDetached ? decodePromptAnswers(params, run.snapshot.wording) : params;
  return run.invocation === undefined ? request : withInvocationChanges(run.invocation, request);
}
