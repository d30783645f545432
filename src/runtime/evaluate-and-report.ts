import type { DecisionRecord } from '../handlers/decision-record.ts';
import {
  evaluateInterventions,
  type RecordSubject,
  type Verdict,
} from '../handlers/evaluate-interventions.ts';
import type { InterventionEvent } from '../handlers/intervention-events.ts';
import type { RegisteredHandler } from '../handlers/registered-handler.ts';
import { runObservers } from '../hooks/run-hooks.ts';
import type { RuntimeSnapshot } from './runtime-snapshot.ts';

/** Options of an evaluation, as scopes take them. */
export interface EvaluationOptions<EVENT extends InterventionEvent> {
  readonly event: EVENT;
  readonly makeDraft: (event: EVENT) => EVENT;
  readonly subject: RecordSubject;
  /** Record transforms without applying them. */
  readonly frozen?: boolean;
  /** Record guides without enforcing them, with this warning. */
  readonly downgradeGuide?: string;
  /** The handlers to evaluate, when not the lifecycle point's registered ones. */
  readonly handlers?: readonly RegisteredHandler[];
}

/**
 * Evaluates the handlers of `event.lifecycle`, keeps each record (in
 * `decisions`, when given) and reports it to the `onDecision` hooks, even
 * when the evaluation ends the call by throwing.
 */
export async function evaluateAndReport<EVENT extends InterventionEvent>(
  snapshot: RuntimeSnapshot,
  options: EvaluationOptions<EVENT>,
  decisions?: DecisionRecord[],
): Promise<Verdict<EVENT>> {
  const records: DecisionRecord[] = [];
  const { event, subject } = options;
  const statusHooks = snapshot.hooks.onStatus;
  try {
    return await evaluateInterventions({
      ...options,
      handlers: options.handlers ?? snapshot.handlers[event.lifecycle],
      ...(statusHooks.length === 0
        ? {}
        : {
            onPending: (registered: RegisteredHandler) =>
              runObservers(statusHooks, {
                status: {
                  type: 'handler-pending',
                  handler: registered.name,
                  lifecycle: event.lifecycle,
                  ...(subject.toolCallId === undefined ? {} : { toolCallId: subject.toolCallId }),
                  ...(subject.toolName === undefined ? {} : { toolName: subject.toolName }),
                },
                runtimeContext: event.runtimeContext,
                runId: event.runId,
              }),
          }),
      onRecord: (record) => {
        decisions?.push(record);
        records.push(record);
      },
    });
  } finally {
    const hooks = snapshot.hooks.onDecision;
    if (hooks.length > 0) {
      for (const record of records) await runObservers(hooks, { record });
    }
  }
}
