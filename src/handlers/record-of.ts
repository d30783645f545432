import type { DecisionRecord } from '../actions/decision-record.ts';
import type { InterventionEvent } from '../actions/intervention-events.ts';
import type { RegisteredHandler } from './registered-handler.ts';

/** A decision record while its evaluation runs (a later deny may still make it `enforced: false`). */
export type PendingRecord = { -readonly [K in keyof DecisionRecord]: DecisionRecord[K] };

/**
 * The record of one handler's evaluation of `event`, as a `proceed`: who,
 * where (the tool call and step, read from the event), how long. One object
 * literal per shape (a tool call's, a model call's), every field in the
 * object itself; a record of no step drops its `stepNumber`, the last field.
 */
export function recordOf(
  registered: RegisteredHandler,
  event: InterventionEvent,
  durationMs: number,
  policyVersion: string | undefined,
): PendingRecord {
  const { lifecycle } = event;
  const { name: handler, mode } = registered;
  const enforced = mode !== 'shadow';
  const stepNumber = 'stepNumber' in event ? event.stepNumber : undefined;
  const record: PendingRecord =
    'toolCall' in event
      ? {
          handler,
          lifecycle,
          action: 'proceed',
          enforced,
          mode,
          durationMs,
          toolCallId: event.toolCall.toolCallId,
          toolName: event.toolCall.toolName,
          stepNumber,
        }
      : { handler, lifecycle, action: 'proceed', enforced, mode, durationMs, stepNumber };
  if (stepNumber === undefined) delete record.stepNumber;
  if (policyVersion !== undefined) record.policyVersion = policyVersion;
  return record;
}
