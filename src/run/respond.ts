import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4GenerateResult, LanguageModelV4Usage } from '@ai-sdk/provider';
import type { AfterModelCallEvent } from '../actions/intervention-events.ts';
import { cloneResponseEvent } from '../handlers/drafts.ts';
import { runOnResponse, runPreRequest } from '../hooks/run-hooks.ts';
import { redactResponse } from '../redaction/redact-model-output.ts';
import type { RedactedBlock } from '../redaction/redacted-originals.ts';
import { isThenable } from '../util/is-thenable.ts';
import { evaluate } from './evaluate-and-report.ts';
import type { Run } from './run.ts';

/**
 * One model call with the hooks and handlers around it: `preRequest`
 * (modify, or short-circuit with a response) → the provider (`call`) →
 * redactors → `onResponse` → `afterModelCall` handlers (guide discards the
 * response and retries with the feedback, at most `maxGuideRetries` times;
 * transform edits it). `call` returns the provider's response, or throws.
 */
export async function respond<RESPONSE extends LanguageModelV4GenerateResult>(
  run: Run,
  model: LanguageModelV4,
  params: LanguageModelV4CallOptions,
  call: (request: LanguageModelV4CallOptions) => PromiseLike<RESPONSE>,
): Promise<{ readonly raw: RESPONSE | LanguageModelV4GenerateResult; readonly final: LanguageModelV4GenerateResult }> {
  const { hooks, handlers, maxGuideRetries, wording } = run.snapshot;
  let discarded: LanguageModelV4Usage[] | undefined;
  let request = params;

  for (let attempt = 0; ; attempt++) {
    let cached: LanguageModelV4GenerateResult | undefined;
    let sent = request;
    if (hooks.preRequest.length > 0) {
      const pre = await runPreRequest(hooks.preRequest, { ...modelHookContext(run, request, model), request });
      sent = pre.request;
      cached = pre.response;
    }
    if (cached === undefined && hooks.onStatus.length > 0) {
      await run.status({ type: 'model-call', stepNumber: run.stepNumber, attempt });
    }
    const raw = cached ?? (await call(sent));
    // redaction first: nothing downstream (hooks, handlers, caches, the client) sees what it removes
    const changed: RedactedBlock[] = [];
    let response = redactResponse(run.snapshot.redactors, raw, (block) => changed.push(block));
    // the provider gets back the blocks of the response the run keeps, not of one a guide discards
    const keep = () => {
      for (const block of changed) run.redactedOriginals.note(block);
    };
    if (hooks.onResponse.length > 0) {
      response = await runOnResponse(hooks.onResponse, { ...modelHookContext(run, sent, model), request: sent, response });
    }
    if (handlers.afterModelCall.length === 0) {
      keep();
      return { raw, final: withUsage(forgetChangedItems(raw, response), discarded) };
    }

    const exhausted = attempt >= maxGuideRetries;
    const event: AfterModelCallEvent = {
      lifecycle: 'afterModelCall',
      runtimeContext: run.runtimeContext ?? {},
      runId: run.runId,
      abortSignal: request.abortSignal,
      stepNumber: run.stepNumber,
      attempt,
      response,
    };
    const evaluation = evaluate(
      run,
      exhausted
        ? {
            event,
            makeDraft: cloneResponseEvent,
            downgradeGuide: `guide retries exhausted (maxGuideRetries: ${maxGuideRetries}); the response was kept`,
          }
        : { event, makeDraft: cloneResponseEvent },
    );
    const verdict = isThenable(evaluation) ? await evaluation : evaluation;
    if (verdict.type === 'guide') {
      const feedback = wording.modelGuidance({ guidance: verdict.guidance });
      if (hooks.onStatus.length > 0) {
        await run.status({ type: 'guide-retry', stepNumber: run.stepNumber, attempt: attempt + 1, feedback });
      }
      (discarded ??= []).push(response.usage);
      request = {
        ...request,
        prompt: [...request.prompt, { role: 'user', content: [{ type: 'text', text: feedback }] }],
      };
      continue;
    }
    const final = verdict.type === 'deny' || verdict.type === 'proceed' ? response : verdict.event.response;
    keep();
    return { raw, final: withUsage(forgetChangedItems(raw, final), discarded) };
  }
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
