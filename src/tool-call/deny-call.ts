import { runtimeDenial } from '../actions/decision-record.ts';
import type { ToolCallInfo } from '../actions/intervention-events.ts';
import type { ResumedApproval } from '../answers/read-resume.ts';
import { isDeepEqual } from '../data/is-deep-equal.ts';
import type { Run } from '../run/run.ts';
import type { ToolCallDecision } from '../run/tool-call-decision.ts';

/**
 * A call the runtime denies itself, where no handler's decision can be
 * applied as it is (its decision cannot be told to be its own, or what it
 * decided cannot be carried out faithfully): it is never run, the model
 * reads why, and a record (`handler: 'ai-interventions'`) says so.
 */
export async function denyCall(
  run: Run,
  call: ToolCallInfo,
  reason: string,
  {
    handler = HANDLER,
    text = run.snapshot.wording.deniedToolCall({ toolCall: call, reason, handler }),
    display,
  }: {
    /** Who denied it, as records name it. Default `'ai-interventions'`. */
    readonly handler?: string;
    /** What the model reads. Default: the `deniedToolCall` wording. */
    readonly text?: string;
    /** What a person is shown (the record's `display`). */
    readonly display?: string;
  } = {},
): Promise<Extract<ToolCallDecision, { type: 'deny' }>> {
  await recordDenial(run, call, handler, reason, display);
  return { type: 'deny', reason, handler, text };
}

/** Why a call that shares its tool and id with another call of its step is denied. */
export const AMBIGUOUS_CALL_ID =
  'the provider sent more than one tool call with this id in one response, so this call cannot be told apart from the other and was not run';

/**
 * Why `call` (as the SDK resumes it, found by its id) is not the call an
 * answer was given for, or `undefined` when it is: the same tool, with the
 * arguments of the history the answer approved (a person's edit is the
 * model's arguments until it is checked and written), the only call with
 * that id in its message (a provider repeated the id, and the history keeps
 * both calls: the answer cannot be told to be either's).
 */
export function notTheAnsweredCall(answer: ResumedApproval, call: ToolCallInfo): string | undefined {
  if (answer.shared) {
    return "the history holds more than one tool call with the id this approval was given for, so the answer cannot be told to be this call's and nothing was run";
  }
  const same =
    answer.toolName === call.toolName &&
    (isDeepEqual(answer.input, call.input) || (answer.edit !== undefined && isDeepEqual(answer.edit.original, call.input)));
  return same
    ? undefined
    : 'the approval answered another call with this id (another tool or other arguments), so this call was not approved and was not run';
}

const HANDLER = 'ai-interventions';

/** Keeps the record of a call the runtime denied itself (`handler` names the rule: not a registered handler). */
export function recordDenial(
  run: Run,
  call: Pick<ToolCallInfo, 'toolCallId' | 'toolName'> & { readonly input?: unknown },
  handler: string,
  reason: string,
  display?: string,
): Promise<void> {
  return run.record(runtimeDenial(call, handler, reason, { display, stepNumber: run.stepNumber }), call.input);
}
