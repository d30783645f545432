import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4GenerateResult, LanguageModelV4Usage } from '@ai-sdk/provider';
import type { AfterModelCallEvent } from '../actions/intervention-events.ts';
import { cloneResponseEvent } from '../handlers/drafts.ts';
import type { Verdict } from '../handlers/verdict.ts';
import { runOnResponse, runPreRequest } from '../hooks/run-hooks.ts';
import { type ModelOutputRedaction, modelOutputRedaction } from '../redaction/model-output-redaction.ts';
import type { RedactedBlock } from '../redaction/redacted-originals.ts';
import { isThenable } from '../util/is-thenable.ts';
import { evaluate } from './evaluate-and-report.ts';
import type { Run } from './run.ts';

/** What {@link respond} gives: the provider's response (or the cached one), and the response the run keeps. */
export interface Responded<RESPONSE extends LanguageModelV4GenerateResult> {
  readonly raw: RESPONSE | LanguageModelV4GenerateResult;
  readonly final: LanguageModelV4GenerateResult;
}

type Call<RESPONSE> = (request: LanguageModelV4CallOptions) => PromiseLike<RESPONSE>;

/**
 * One model call with the hooks and handlers around it: `preRequest`
 * (modify, or short-circuit with a response) → the provider (`call`) →
 * redactors → `onResponse` → `afterModelCall` handlers (guide discards the
 * response and retries with the feedback, at most `maxGuideRetries` times;
 * transform edits it). `call` returns the provider's response, or throws.
 * Without model hooks an attempt is the call and one continuation (no
 * async function): the handlers are evaluated as soon as it answers.
 */
export function respond<RESPONSE extends LanguageModelV4GenerateResult>(
  run: Run,
  model: LanguageModelV4,
  params: LanguageModelV4CallOptions,
  call: Call<RESPONSE>,
): Promise<Responded<RESPONSE>> {
  return attempt({ run, model, request: params, call, number: 0, discarded: undefined });
}

/** One attempt: its request and number, and the usage of the attempts a guide discarded before it. */
interface Try<RESPONSE extends LanguageModelV4GenerateResult> {
  readonly run: Run;
  readonly model: LanguageModelV4;
  readonly request: LanguageModelV4CallOptions;
  readonly call: Call<RESPONSE>;
  readonly number: number;
  readonly discarded: readonly LanguageModelV4Usage[] | undefined;
}

function attempt<RESPONSE extends LanguageModelV4GenerateResult>(attempt: Try<RESPONSE>): Promise<Responded<RESPONSE>> {
  const { preRequest, onStatus, onResponse } = attempt.run.snapshot.hooks;
  if (preRequest.length > 0 || onStatus.length > 0 || onResponse.length > 0) return attemptWithHooks(attempt);
  return Promise.resolve(attempt.call(attempt.request)).then((raw) => {
    const redaction = redacted(attempt.run, raw);
    return isThenable(redaction) ? redaction.then((done) => judge(attempt, raw, done)) : judge(attempt, raw, redaction);
  });
}

/** An attempt with model hooks around the call: `preRequest`, the `model-call` status, `onResponse`. */
async function attemptWithHooks<RESPONSE extends LanguageModelV4GenerateResult>(attempt: Try<RESPONSE>): Promise<Responded<RESPONSE>> {
  const { run, model, request } = attempt;
  const { hooks } = run.snapshot;
  let cached: LanguageModelV4GenerateResult | undefined;
  let sent = request;
  if (hooks.preRequest.length > 0) {
    const pre = await runPreRequest(hooks.preRequest, { ...modelHookContext(run, request, model), request });
    sent = pre.request;
    cached = pre.response;
  }
  if (cached === undefined && hooks.onStatus.length > 0) {
    await run.status({ type: 'model-call', stepNumber: run.stepNumber, attempt: attempt.number });
  }
  const raw = cached ?? (await attempt.call(sent));
  const redacting = redacted(run, raw);
  const redaction = isThenable(redacting) ? await redacting : redacting;
  if (hooks.onResponse.length === 0) return judge(attempt, raw, redaction);
  const context = { ...modelHookContext(run, sent, model), request: sent, response: redaction?.response ?? raw };
  return judge(attempt, raw, { response: await runOnResponse(hooks.onResponse, context), changed: redaction?.changed });
}

/** A response as redaction left it, and the blocks it changed (given back to the provider if the run keeps the response). */
interface Redacted {
  readonly response: LanguageModelV4GenerateResult;
  /** The blocks it changed, and what keeps them in the run. */
  readonly changed: { readonly blocks: readonly RedactedBlock[]; keep(): void } | undefined;
}

/**
 * Redaction first: nothing downstream (hooks, handlers, caches, the client)
 * sees what it removes. The redactors' code loads with the first response a
 * runtime with redactors gets (synchronous after that). `undefined`: no
 * redactors, the response is the provider's.
 */
function redacted(run: Run, raw: LanguageModelV4GenerateResult): Redacted | Promise<Redacted> | undefined {
  const { redactors } = run.snapshot;
  if (redactors.length === 0) return undefined;
  const loading = modelOutputRedaction();
  return isThenable(loading) ? loading.then((loaded) => redactedWith(loaded, run, raw)) : redactedWith(loading, run, raw);
}

/** A response through the loaded redaction, and the blocks it changed. */
function redactedWith({ redactResponse, keepOriginalsIn }: ModelOutputRedaction, run: Run, raw: LanguageModelV4GenerateResult): Redacted {
  const blocks: RedactedBlock[] = [];
  const response = redactResponse(run.snapshot.redactors, raw, (block) => blocks.push(block));
  const keep = keepOriginalsIn(run);
  return { response, changed: { blocks, keep: () => blocks.forEach(keep) } };
}

/**
 * The `afterModelCall` handlers on a response (`raw`, as `redaction` left
 * it): kept (as it is, or transformed), or discarded by a guide and the
 * model asked again with the feedback.
 */
function judge<RESPONSE extends LanguageModelV4GenerateResult>(
  attempt: Try<RESPONSE>,
  raw: RESPONSE | LanguageModelV4GenerateResult,
  redaction: Redacted | undefined,
): Responded<RESPONSE> | Promise<Responded<RESPONSE>> {
  const { run, request, number } = attempt;
  const response = redaction?.response ?? raw;
  const changed = redaction?.changed;
  const { handlers, maxGuideRetries } = run.snapshot;
  if (handlers.afterModelCall.length === 0) return kept(raw, response, changed, attempt.discarded);
  const event: AfterModelCallEvent = {
    lifecycle: 'afterModelCall',
    runtimeContext: run.runtimeContext ?? {},
    runId: run.runId,
    abortSignal: request.abortSignal,
    stepNumber: run.stepNumber,
    attempt: number,
    response,
  };
  const evaluation = evaluate(
    run,
    event,
    cloneResponseEvent,
    number >= maxGuideRetries
      ? { downgradeGuide: `guide retries exhausted (maxGuideRetries: ${maxGuideRetries}); the response was kept` }
      : undefined,
  );
  return isThenable(evaluation)
    ? evaluation.then((verdict) => decided(attempt, raw, response, changed, verdict))
    : decided(attempt, raw, response, changed, evaluation);
}

/** What the verdict on an attempt means: keep its response (transformed or not), or ask again with a guide's feedback. */
function decided<RESPONSE extends LanguageModelV4GenerateResult>(
  tried: Try<RESPONSE>,
  raw: RESPONSE | LanguageModelV4GenerateResult,
  response: LanguageModelV4GenerateResult,
  changed: Redacted['changed'],
  verdict: Verdict<AfterModelCallEvent>,
): Responded<RESPONSE> | Promise<Responded<RESPONSE>> {
  const { run, request, number } = tried;
  if (verdict.type !== 'guide') {
    const final = verdict.type === 'deny' || verdict.type === 'proceed' ? response : verdict.event.response;
    return kept(raw, final, changed, tried.discarded);
  }
  const feedback = run.snapshot.wording.modelGuidance({ guidance: verdict.guidance });
  const next: Try<RESPONSE> = {
    ...tried,
    request: { ...request, prompt: [...request.prompt, { role: 'user', content: [{ type: 'text', text: feedback }] }] },
    number: number + 1,
    discarded: [...(tried.discarded ?? []), response.usage],
  };
  if (run.snapshot.hooks.onStatus.length === 0) return attempt(next);
  const status = run.status({ type: 'guide-retry', stepNumber: run.stepNumber, attempt: number + 1, feedback });
  return Promise.resolve(status).then(() => attempt(next));
}

/** The response the run keeps; the provider gets back its blocks redaction changed (not those of a response a guide discards). */
function kept<RESPONSE extends LanguageModelV4GenerateResult>(
  raw: RESPONSE | LanguageModelV4GenerateResult,
  final: LanguageModelV4GenerateResult,
  changed: Redacted['changed'],
  discarded: readonly LanguageModelV4Usage[] | undefined,
): Responded<RESPONSE> {
  changed?.keep();
  return { raw, final: withUsage(forgetChangedItems(raw, final), discarded) };
}

/** What the model-level hooks (`preRequest`, `onResponse`) are told besides the request. */
export function modelHookContext(run: Run, request: LanguageModelV4CallOptions, model: LanguageModelV4) {
  return {
    model: { provider: model.provider, modelId: model.modelId },
    stepNumber: run.stepNumber,
    runtimeContext: run.runtimeContext,
    runId: run.runId,
    abortSignal: request.abortSignal,
  };
}

/**
 * Drops the provider metadata of text the hooks, handlers or redactors
 * changed: it can point at the provider's stored copy of the original (an
 * OpenAI Responses item id is sent back as an `item_reference`), which would
 * hand the model back what was rewritten.
 */
function forgetChangedItems(raw: LanguageModelV4GenerateResult, final: LanguageModelV4GenerateResult): LanguageModelV4GenerateResult {
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

/** Adds the usage of discarded (guided) attempts to the kept response. */
function withUsage(
  response: LanguageModelV4GenerateResult,
  discarded: readonly LanguageModelV4Usage[] | undefined,
): LanguageModelV4GenerateResult {
  if (discarded === undefined) return response;
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
