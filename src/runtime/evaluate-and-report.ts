import type { DecisionRecord } from '../handlers/decision-record.ts';
import {
  evaluateInterventions,
  type RecordSubject,
  type Verdict,
} from '../handlers/evaluate-interventions.ts';
import type { InterventionEvent } from '../handlers/intervention-events.ts';
import type { RegisteredHandler } from '../handlers/registered-handler.ts';
import { runObservers } from '../hooks/run-hooks.ts';
import { isThenable } from '../util/is-thenable.ts';
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
 * when the evaluation ends the call by throwing. Synchronous when the
 * handlers are and no `onDecision` or `onStatus` hook is registered.
 */
export function evaluateAndReport<EVENT extends InterventionEvent>(
  snapshot: RuntimeSnapshot,
  options: EvaluationOptions<EVENT>,
  decisions?: DecisionRecord[],
): Verdict<EVENT> | Promise<Verdict<EVENT>> {
  const { event, subject } = options;
  const decisionHooks = snapshot.hooks.onDecision;
  const statusHooks = snapshot.hooks.onStatus;
  const records: DecisionRecord[] | undefined = decisionHooks.length > 0 ? [] : undefined;
  const report = () => {
    let chain = Promise.resolve();
    for (const record of records ?? []) chain = chain.then(() => runObservers(decisionHooks, { record, runId: event.runId }));
    return chain;
  };

  let verdict: Verdict<EVENT> | Promise<Verdict<EVENT>>;
  try {
    verdict = evaluateInterventions({
      handlers: options.handlers ?? snapshot.handlers[event.lifecycle],
      event,
      makeDraft: options.makeDraft,
      subject,
      frozen: options.frozen,
      downgradeGuide: options.downgradeGuide,
      onPending:
        statusHooks.length === 0
          ? undefined
          : (registered: RegisteredHandler) =>
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
      records: decisions ?? records ?? [],
      alsoRecords: decisions === undefined ? undefined : records,
    });
  } catch (error) {
    if (records === undefined || records.length === 0) throw error;
    return report().then(() => {
      throw error;
    });
  }
  if (records === undefined) return verdict;
  return Promise.resolve(verdict).then(
    (value) => report().then(() => value),
    (error: unknown) =>
      report().then(() => {
        throw error;
      }),
  );
}

/** `value`, awaited only when it is a promise (no microtask otherwise). */
export function whenSettled<T, R>(value: T | PromiseLike<T>, then: (value: T) => R | PromiseLike<R>): R | PromiseLike<R> {
  return isThenable<T>(value) ? value.then(then) : then(value);
}
