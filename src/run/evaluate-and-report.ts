import type { DecisionRecord } from '../actions/decision-record.ts';
import type { InterventionEvent } from '../actions/intervention-events.ts';
import { evaluateInterventions } from '../handlers/evaluate-interventions.ts';
import type { RegisteredHandler } from '../handlers/registered-handler.ts';
import type { EvaluateSettings, EvaluationSinks, Verdict } from '../handlers/verdict.ts';
import { runObservers } from '../hooks/run-hooks.ts';
import { reportRecords, reportsRecords } from './report-records.ts';
import type { Run } from './run.ts';
import type { RuntimeSnapshot } from './runtime-snapshot.ts';

/**
 * Evaluates handlers for a run on `event` (drafted by `makeDraft` at the
 * first transform): its records are kept and reported (see
 * {@link evaluateAndReport}).
 */
export function evaluate<EVENT extends InterventionEvent>(
  run: Run,
  event: EVENT,
  makeDraft: (event: EVENT) => EVENT,
  settings?: EvaluateSettings,
): Verdict<EVENT> | Promise<Verdict<EVENT>> {
  return evaluateAndReport(run.snapshot, event, makeDraft, settings, run.sinks);
}

/**
 * Evaluates the handlers of `event.lifecycle` (or `options.handlers`), keeps
 * each record in `decisions` and, once the verdict is known, reports each
 * one (`reportRecords`: its action digest, the trail, the `onDecision`
 * hooks), even when the evaluation ends the call by throwing. Synchronous,
 * and nothing but the reducer's own state allocated, when the handlers are
 * synchronous, no `onDecision` or `onStatus` hook is registered and
 * records get no action digest (no trail, no `actionDigests`).
 */
export function evaluateAndReport<EVENT extends InterventionEvent>(
  snapshot: RuntimeSnapshot,
  event: EVENT,
  makeDraft: (event: EVENT) => EVENT,
  settings: EvaluateSettings | undefined,
  sinks: EvaluationSinks,
): Verdict<EVENT> | Promise<Verdict<EVENT>> {
  const handlers = settings?.handlers ?? snapshot.handlers[event.lifecycle];
  if (snapshot.hooks.onStatus.length === 0 && !reportsRecords(snapshot))
    return evaluateInterventions(event, makeDraft, settings, handlers, sinks);
  return evaluateReporting(snapshot, event, makeDraft, settings, handlers, sinks);
}

/** {@link evaluateAndReport} when records are reported or `onStatus` hooks told (apart: the fast path allocates no closures). */
function evaluateReporting<EVENT extends InterventionEvent>(
  snapshot: RuntimeSnapshot,
  event: EVENT,
  makeDraft: (event: EVENT) => EVENT,
  settings: EvaluateSettings | undefined,
  handlers: readonly RegisteredHandler[],
  sinks: EvaluationSinks,
): Promise<Verdict<EVENT>> {
  const statusHooks = snapshot.hooks.onStatus;
  const reported: DecisionRecord[] = [];
  const report = (verdict: Verdict<EVENT> | undefined) =>
    reportRecords(snapshot, reported, { runId: event.runId, runtimeContext: event.runtimeContext, input: decidedInput(event, verdict) });
  const rethrow = (error: unknown) => {
    throw error;
  };
  const onPending =
    statusHooks.length === 0
      ? undefined
      : (registered: RegisteredHandler) =>
          runObservers(statusHooks, {
            status: {
              type: 'handler-pending',
              handler: registered.name,
              lifecycle: event.lifecycle,
              ...('toolCall' in event ? { toolCallId: event.toolCall.toolCallId, toolName: event.toolCall.toolName } : {}),
            },
            runtimeContext: event.runtimeContext,
            runId: event.runId,
          });
  let verdict: Verdict<EVENT> | Promise<Verdict<EVENT>>;
  try {
    verdict = evaluateInterventions(event, makeDraft, settings, handlers, {
      records: sinks.records,
      reported,
      onPending,
      policyVersion: sinks.policyVersion,
    });
  } catch (error) {
    if (reported.length === 0) throw error;
    // the evaluation's own error wins over a trail that could not be written
    return report(undefined).then(
      () => rethrow(error),
      () => rethrow(error),
    );
  }
  return Promise.resolve(verdict).then(
    (value) => report(value).then(() => value),
    (error: unknown) =>
      report(undefined).then(
        () => rethrow(error),
        () => rethrow(error),
      ),
  );
}

/** The arguments an evaluation decided for its call: the committed draft's, else the event's (`undefined`: no tool call). */
function decidedInput<EVENT extends InterventionEvent>(event: EVENT, verdict: Verdict<EVENT> | undefined): unknown {
  if (!('toolCall' in event)) return undefined;
  const decided = verdict !== undefined && 'event' in verdict ? verdict.event : event;
  return 'toolCall' in decided ? decided.toolCall.input : undefined;
}
