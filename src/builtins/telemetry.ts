/**
 * `ai-interventions/telemetry`: an OpenTelemetry span for each run and for
 * each decision record, as hooks (it needs the optional peer
 * `@opentelemetry/api`).
 *
 * @module ai-interventions/telemetry
 */
import { type Attributes, context as otelContext, type Span, SpanKind, SpanStatusCode, type Tracer, trace } from '@opentelemetry/api';
import type { DecisionRecord } from '../actions/decision-record.ts';
import type { HooksConfig, OnChatStartContext } from '../hooks/hook-types.ts';
import { knownOptions } from '../util/known-options.ts';

/**
 * Options of {@link telemetry}.
 *
 * @example
 * ```ts
 * const options: TelemetryOptions = {
 *   tracer: trace.getTracer('checkout-agent'),
 *   attributes: ({ runtimeContext }) => ({ 'app.user_id': String(runtimeContext.userId) }),
 *   decisionsAs: 'events',
 * };
 * const interventions = createInterventions({ handlers, hooks: telemetry(options) });
 * ```
 */
export interface TelemetryOptions {
  /** Where spans go. Default: `trace.getTracer('ai-interventions')` (the global provider). */
  readonly tracer?: Tracer;
  /** Attributes for every run span: fixed, or computed from the run's start. */
  readonly attributes?: Attributes | ((context: OnChatStartContext) => Attributes);
  /**
   * How decision records are exported: `'spans'` (default), one child span of
   * the run per record, timed by the handler's duration; or `'events'`, one
   * span event on the run span per record (fewer spans).
   */
  readonly decisionsAs?: 'spans' | 'events';
}

/** The keys of {@link TelemetryOptions}: `telemetry` checks its options against them (not exported: this file is the `/telemetry` entry). */
const TELEMETRY_OPTIONS = knownOptions<TelemetryOptions>({
  tracer: true,
  attributes: true,
  decisionsAs: true,
});

/** The name of the span of a run (one `generateText` / `streamText` / agent call). */
const RUN_SPAN = 'ai_interventions.run';
/** The name of a decision's span or span event. */
const DECISION = 'ai_interventions.decision';
const PREFIX = 'ai_interventions.';

interface OpenRun {
  readonly runId: string;
  readonly span: Span;
  /** The span that was active when the run started (to tell concurrent runs apart). */
  readonly parentSpanId: string | undefined;
  readonly abortSignal: AbortSignal | undefined;
  decisions: number;
  denied: number;
}

/**
 * Hooks that export a run and its decision records as OpenTelemetry spans,
 * through `@opentelemetry/api` only (bring your own SDK and exporter).
 *
 * Import it from `ai-interventions/telemetry`, and install
 * `@opentelemetry/api` (`npm install @opentelemetry/api`): it is an optional
 * peer dependency that this entry point needs and the main one never loads.
 *
 * - one span `ai_interventions.run` per run, from `onChatStart` to
 *   `onChatDone` / `onChatError` (status ERROR, exception recorded) /
 *   `onChatAbort` (`ai_interventions.aborted`), with
 *   `ai_interventions.run_id`, your `attributes`, and at the end
 *   `ai_interventions.decisions`, `.denied`, `.finish_reason` and `.steps`;
 * - per decision record (denied and guided calls included, shadow records
 *   too), a child span `ai_interventions.decision` or a span event of that
 *   name, with `ai_interventions.handler`, `.lifecycle`, `.action`,
 *   `.enforced`, `.mode`, `.duration_ms` and, when set, `.reason`,
 *   `.feedback`, `.prompt`, `.warning`, `.error`, `.tool_name`,
 *   `.tool_call_id`, `.step`, `.run_id`, `.action_digest`,
 *   `.policy_version` and, with the runtime's decision `trail`, the link:
 *   `.trail.key`, `.trail.index`, `.trail.hash`, `.trail.prev` (a copy of
 *   the chain's hashes outside its store: anchors for
 *   `verifyDecisionTrail`); for a human approval, what became of a
 *   person's answer and who: `.approval.status`, `.approval.asked_by`,
 *   `.approval.answered_by`, `.approval.approved_by`, `.approval.may_answer`,
 *   `.approval.quorum`, `.approval.expires_in_ms`. A handler that failed
 *   gives an ERROR span.
 *   Records made outside a run (`guardTools`, the middleware alone) get a
 *   span of their own.
 *
 * The run span starts under the active span, so it nests in your request's
 * trace. A failing exporter or tracer never breaks a run: these hooks
 * swallow their own errors.
 *
 * Concurrent runs on one instance: the end and decision hooks do not say
 * which run they belong to, so they are matched to a run by its id when the
 * context carries one, otherwise to the only open run, otherwise to the run
 * started under the active span (with a context manager such as
 * `AsyncLocalStorageContextManager`, e.g. one run per HTTP request). A
 * decision that still matches no run gets a span of its own; a run end that
 * matches none ends the oldest candidate, marked `ai_interventions.guessed`.
 *
 * @example
 * ```ts
 * // import { trace } from '@opentelemetry/api';
 * // import { telemetry } from 'ai-interventions/telemetry';
 * const interventions = createInterventions({
 *   handlers: [new ToolGuard(['delete_file'])],
 *   hooks: mergeHooks(telemetry({ tracer: trace.getTracer('support-bot') }), cache({ ttlMs: 60_000 })),
 * });
 * await interventions.generateText({ model, tools, prompt }); // one run span, one decision span per record
 * ```
 */
export function telemetry(options: TelemetryOptions = {}): HooksConfig {
  TELEMETRY_OPTIONS.check(options, 'telemetry');
  const { tracer = trace.getTracer('ai-interventions'), attributes, decisionsAs = 'spans' } = options;
  /** Open runs by id, in start order. */
  const runs = new Map<string, OpenRun>();

  /** The run a hook context belongs to, or `undefined` when that cannot be told. */
  const runOf = (hookContext: object, candidates: (run: OpenRun) => boolean = () => true): OpenRun | undefined => {
    const runId = runIdOf(hookContext);
    if (runId !== undefined) return runs.get(runId);
    const open = [...runs.values()].filter(candidates);
    if (open.length <= 1) return open[0];
    const active = trace.getSpanContext(otelContext.active())?.spanId;
    if (active === undefined) return undefined;
    const under = open.filter((run) => run.parentSpanId === active || run.span.spanContext().spanId === active);
    return under.length === 1 ? under[0] : undefined;
  };

  /** Like `runOf`, but a run must end: when none matches, the oldest candidate does (marked). */
  const endingRun = (hookContext: object, candidates?: (run: OpenRun) => boolean): OpenRun | undefined => {
    const run = runOf(hookContext, candidates);
    if (run !== undefined) return run;
    const oldest = [...runs.values()].find(candidates ?? (() => true));
    oldest?.span.setAttribute(`${PREFIX}guessed`, true);
    return oldest;
  };

  const finish = (run: OpenRun): void => {
    runs.delete(run.runId);
    run.span.setAttributes({ [`${PREFIX}decisions`]: run.decisions, [`${PREFIX}denied`]: run.denied });
    run.span.end();
  };

  return {
    onChatStart: (start) =>
      quietly(() => {
        const { runId } = start;
        if (runId === undefined) return;
        const parentSpanId = trace.getSpanContext(otelContext.active())?.spanId;
        const span = tracer.startSpan(RUN_SPAN, {
          kind: SpanKind.INTERNAL,
          attributes: {
            ...(typeof attributes === 'function' ? attributes(start) : attributes),
            [`${PREFIX}run_id`]: runId,
          },
        });
        runs.set(runId, { runId, span, parentSpanId, abortSignal: start.abortSignal, decisions: 0, denied: 0 });
      }),

    onDecision: (decision) =>
      quietly(() => {
        const { record } = decision;
        const run = runOf(decision);
        if (run !== undefined) {
          run.decisions++;
          if (record.action === 'deny' && record.enforced) run.denied++;
        }
        const recordAttributes = decisionAttributes(record, run?.runId ?? runIdOf(decision));
        const endTime = Date.now();
        if (run !== undefined && decisionsAs === 'events') {
          run.span.addEvent(DECISION, recordAttributes, endTime);
          return;
        }
        const parent = run === undefined ? otelContext.active() : trace.setSpan(otelContext.active(), run.span);
        const span = tracer.startSpan(
          DECISION,
          { kind: SpanKind.INTERNAL, startTime: endTime - record.durationMs, attributes: recordAttributes },
          parent,
        );
        if (record.error !== undefined) {
          span.setStatus({ code: SpanStatusCode.ERROR, message: messageOf(record.error) });
        }
        span.end(endTime);
      }),

    onChatDone: (done) =>
      quietly(() => {
        const run = endingRun(done);
        if (run === undefined) return;
        run.span.setAttributes({
          [`${PREFIX}finish_reason`]: done.response.finishReason,
          [`${PREFIX}steps`]: done.response.steps.length,
        });
        finish(run);
      }),

    onChatError: (failed) =>
      quietly(() => {
        const run = endingRun(failed);
        if (run === undefined) return;
        const { error } = failed;
        if (error instanceof Error) run.span.recordException(error);
        else run.span.recordException(messageOf(error));
        run.span.setStatus({ code: SpanStatusCode.ERROR, message: messageOf(error) });
        finish(run);
      }),

    onChatAbort: (aborted) =>
      quietly(() => {
        // the run whose signal carries this reason, when that tells them apart
        const bySignal = (run: OpenRun) => run.abortSignal?.aborted === true && run.abortSignal.reason === aborted.reason;
        const run = [...runs.values()].some(bySignal) ? endingRun(aborted, bySignal) : endingRun(aborted);
        if (run === undefined) return;
        run.span.setAttribute(`${PREFIX}aborted`, true);
        run.span.addEvent(`${PREFIX}abort`, { [`${PREFIX}reason`]: messageOf(aborted.reason) });
        finish(run);
      }),
  };
}

/** The attributes of one decision record. */
function decisionAttributes(record: DecisionRecord, runId: string | undefined): Attributes {
  const attributes: Attributes = {
    [`${PREFIX}handler`]: record.handler,
    [`${PREFIX}lifecycle`]: record.lifecycle,
    [`${PREFIX}action`]: record.action,
    [`${PREFIX}enforced`]: record.enforced,
    [`${PREFIX}mode`]: record.mode,
    [`${PREFIX}duration_ms`]: record.durationMs,
  };
  const optional = {
    reason: record.reason,
    feedback: record.feedback,
    prompt: record.prompt,
    warning: record.warning,
    error: record.error === undefined ? undefined : messageOf(record.error),
    tool_name: record.toolName,
    tool_call_id: record.toolCallId,
    step: record.stepNumber,
    run_id: runId,
    action_digest: record.actionDigest,
    policy_version: record.policyVersion,
    'trail.key': record.trail?.key,
    'trail.index': record.trail?.index,
    'trail.hash': record.trail?.hash,
    'trail.prev': record.trail?.prev,
    // what became of a person's answer, and who: as the record says it
    'approval.status': record.approval?.status,
    'approval.asked_by': record.approval?.askedBy,
    'approval.answered_by': record.approval?.answeredBy,
    'approval.approved_by': record.approval?.approvedBy === undefined ? undefined : [...record.approval.approvedBy],
    'approval.may_answer': record.approval?.mayAnswer,
    'approval.quorum': record.approval?.quorum,
    'approval.expires_in_ms': record.approval?.expiresInMs,
  };
  for (const [key, value] of Object.entries(optional)) {
    if (value !== undefined) attributes[`${PREFIX}${key}`] = value;
  }
  return attributes;
}

/** The `runId` of a hook context, for contexts that carry one. */
function runIdOf(hookContext: object): string | undefined {
  const runId: unknown = 'runId' in hookContext ? hookContext.runId : undefined;
  return typeof runId === 'string' ? runId : undefined;
}

function messageOf(value: unknown): string {
  if (value instanceof Error) return value.message;
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Telemetry must never break a run: a throwing tracer or exporter is ignored. */
function quietly(work: () => void): void {
  try {
    work();
  } catch {
    // nothing to do: the run goes on without this span
  }
}
