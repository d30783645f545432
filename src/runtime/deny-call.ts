import type { ToolCallInfo } from '../handlers/intervention-events.ts';
import type { Run } from './run.ts';
import type { ToolCallDecision } from './tool-call-decision.ts';

/**
 * A call the runtime denies itself, where no handler's decision can be
 * applied as it is (its decision cannot be told to be its own, or what it
 * decided cannot be carried out faithfully): it is never run, the model
 * reads why, and a record (`handler: 'ai-interventions'`) says so.
 */
export async function denyCall(run: Run, call: ToolCallInfo, reason: string): Promise<ToolCallDecision> {
  await recordDenial(run, call, HANDLER, reason);
  return {
    type: 'deny',
    reason,
    handler: HANDLER,
    text: run.snapshot.wording.deniedToolCall({ toolCall: call, reason, handler: HANDLER }),
  };
}

/** Why a call that shares its tool and id with another call of its step is denied. */
export const AMBIGUOUS_CALL_ID =
  'the provider sent more than one tool call with this id in one response, so this call cannot be told apart from the other and was not run';

const HANDLER = 'ai-interventions';

/** Keeps the record of a call the runtime denied itself (`handler` names the rule: not a registered handler). */
export function recordDenial(run: Run, call: Pick<ToolCallInfo, 'toolCallId' | 'toolName'>, handler: string, reason: string): Promise<void> {
  return run.record({
    handler,
    lifecycle: 'beforeToolCall',
    action: 'deny',
    reason,
    enforced: true,
    mode: 'enforce',
    durationMs: 0,
    toolCallId: call.toolCallId,
    toolName: call.toolName,
    ...(run.stepNumber === undefined ? {} : { stepNumber: run.stepNumber }),
  });
}
