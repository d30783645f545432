import type { DecisionRecord } from '../handlers/decision-record.ts';
import { type EvaluateOptions, type EvaluationSinks, evaluateInterventions, type Verdict } from '../handlers/evaluate-interventions.ts';
import type { InterventionEvent } from '../handlers/intervention-events.ts';
import type { RegisteredHandler } from '../handlers/registered-handler.ts';
import { runObservers } from '../hooks/run-hooks.ts';
import type { Run } from './run.ts';
import type { RuntimeSnapshot } from './runtime-snapshot.ts';

export type EvaluationOptions<EVENT extends InterventionEvent> = EvaluateOptions<EVENT>;

/** Evaluates handlers for a run: its records are kept and reported to `onDecision` (see {@link evaluateAndReport}). */
export function evaluate<EVENT extends InterventionEvent>(
  run: Run,
  options: EvaluationOptions<EVENT>,
): Verdict<EVENT> | Promise<Verdict<EVENT>> {
  return evaluateAndReport(run.snapshot, options, run.sinks);
}

/**
 * Evaluates the handlers of `event.lifecycle` (or `options.handlers`), keeps
 * each record in `decisions` and reports it to the `onDecision` hooks, even
 * when the evaluation ends the call by throwing. Synchronous, and nothing
 * but the reducer's own state allocated, when the handlers are synchronous
 * and no `onDecision` or `onStatus` hook is registered.
 */
export function evaluateAndReport<EVENT extends InterventionEvent>(
  snapshot: RuntimeSnapshot,
  options: EvaluationOptions<EVENT>,
  sinks: EvaluationSinks,
): Verdict<EVENT> | Promise<Verdict<EVENT>> {
  const { event } = options;
  const handlers = options.handlers ?? snapshot.handlers[event.lifecycle];
  const decisionHooks = snapshot.hooks.onDecision;
  const statusHooks = snapshot.hooks.onStatus;
  if (decisionHooks.length === 0 && statusHooks.length === 0) return evaluateInterventions(options, handlers, sinks);
  const decisions = sinks.records;

  const reported: DecisionRecord[] = [];
  const report = async () => {
    for (const record of reported) await runObservers(decisionHooks, { record, runId: event.runId });
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
    verdict = evaluateInterventions(options, handlers, { records: decisions, reported, onPending });
  } catch (error) {
    if (reported.length === 0) throw error;
    return report().then(() => {
      throw error;
    });
  }
  return Promise.resolve(verdict).then(
    (value) => report().then(() => value),
    (error: unknown) =>
      report().then(() => {
        throw error;
      }),
  );
}
