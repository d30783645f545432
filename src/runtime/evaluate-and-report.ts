import type { DecisionRecord } from '../handlers/decision-record.ts';
import {
  evaluateInterventions,
  type RecordSubject,
  type Verdict,
} from '../handlers/evaluate-interventions.ts';
import type { InterventionEvent } from '../handlers/intervention-events.ts';
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
  try {
    return await evaluateInterventions({
      ...options,
      handlers: snapshot.handlers[options.event.lifecycle],
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
