import type { DecisionRecord } from '../actions/decision-record.ts';
import type { InterventionEvent } from '../actions/intervention-events.ts';
import type { Lifecycle } from '../actions/lifecycle.ts';
import type { RegisteredHandler } from './registered-handler.ts';

/** A decision record while its evaluation runs (a later deny may still make it `enforced: false`). */
export type PendingRecord = { -readonly [K in keyof DecisionRecord]: DecisionRecord[K] };

/**
 * The record of one handler's evaluation of `event`, as a `proceed`: who,
 * where (the tool call and step, read from the event), how long.
 */
export function recordOf(
  registered: RegisteredHandler,
  event: InterventionEvent,
  durationMs: number,
  policyVersion: string | undefined,
): PendingRecord {
  const toolCall = 'toolCall' in event ? event.toolCall : undefined;
  const stepNumber = 'stepNumber' in event ? event.stepNumber : undefined;
  return recordAt(registered, event.lifecycle, stepNumber, toolCall?.toolCallId, toolCall?.toolName, durationMs, policyVersion);
}

/**
 * The one place a record's fields are written: one handler's evaluation at
 * `lifecycle`, as a `proceed`, of the tool call `toolCallId` / `toolName`
 * (both `undefined`: a model call's or the invocation's) in step
 * `stepNumber`. One object literal per shape (a tool call's, a model
 * call's), every field in the object itself; a record of no step drops its
 * `stepNumber`, the last field.
 */
export function recordAt(
  registered: RegisteredHandler,
  lifecycle: Lifecycle,
  stepNumber: number | undefined,
  toolCallId: string | undefined,
  toolName: string | undefined,
  durationMs: number,
  policyVersion: string | undefined,
): PendingRecord {
  const { name: handler, mode } = registered;
  const enforced = mode !== 'shadow';
  const record: PendingRecord =
    toolCallId !== undefined && toolName !== undefined
      ? { handler, lifecycle, action: 'proceed', enforced, mode, durationMs, toolCallId, toolName, stepNumber }
      : { handler, lifecycle, action: 'proceed', enforced, mode, durationMs, stepNumber };
  if (stepNumber === undefined) delete record.stepNumber;
  if (policyVersion !== undefined) record.policyVersion = policyVersion;
  return record;
}
