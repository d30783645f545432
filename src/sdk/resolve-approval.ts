import type { Context } from '@ai-sdk/provider-utils';
import type { GenericToolApprovalFunction, Tool, ToolApprovalConfiguration, ToolSet } from 'ai';
import { UNVERIFIABLE_REASON, unverifiedDenial } from '../approvals/unverified-denial.ts';
import type { Run } from '../run/run.ts';
import type { Step } from '../run/step.ts';
import { type ApprovalStatus, approvalStatusOf, decidedInput, type ToolCallDecision } from '../run/tool-call-decision.ts';
import { decideToolCall } from '../tool-call/decide-tool-call.ts';
import { decidesInToolApproval, holdsStreamedCalls } from '../tool-call/decision-point.ts';
import { AMBIGUOUS_CALL_ID, denyCall, notTheAnsweredCall } from '../tool-call/deny-call.ts';
import { gateResumedCall } from '../tool-call/gate-resumed-call.ts';
import { gateToolCalls } from '../tool-call/gate-tool-calls.ts';
import { getErrorMessage } from '../util/get-error-message.ts';
import { getOwn } from '../util/get-own.ts';
import { isThenable } from '../util/is-thenable.ts';
import { safeValidateTypes } from '../util/validate-types.ts';
import { hasCallerApproval } from './has-caller-approval.ts';
import { resolveCallerApproval } from './resolve-caller-approval.ts';

/** What the SDK asks the run's `toolApproval` about one call. */
export type ApprovalOptions = Parameters<GenericToolApprovalFunction<ToolSet, Record<string, never>, Context>>[0];

/** What the run's `toolApproval` found already: the call repeats an id of its step, or its decision is under way. */
export interface FoundAlready {
  readonly repeated?: true;
  readonly deciding?: ToolCallDecision | Promise<ToolCallDecision>;
}

const RANK: Readonly<Record<ApprovalStatus['type'], number>> = {
  'not-applicable': 0,
  approved: 1,
  'user-approval': 2,
  denied: 3,
};

const NOT_APPLICABLE: ApprovalStatus = Object.freeze({ type: 'not-applicable' });
/** A call whose decision failed: not run (the run ends with the failure). */
const FAILED: ApprovalStatus = Object.freeze({ type: 'denied', reason: 'The call was not run: deciding it failed.' });

const TRANSFORMED_REPAIR =
  'the call was repaired by the SDK and then transformed, and a human cannot be asked to approve arguments the model did not send in this step';

/** Validates arguments against a tool's input schema, as the SDK validates a model's. */
function validateInput(tool: Tool | undefined, input: unknown) {
  return tool?.inputSchema === undefined
    ? Promise.resolve({ success: true as const, value: input })
    : safeValidateTypes({ value: input, schema: tool.inputSchema });
}

/**
 * The run's `toolApproval` for a call in `step` beyond its common case (see
 * `createRunToolApproval`): a decision that cannot be told to be the call's,
 * a resumed call, a call decided here that asks a person, changes its
 * arguments, takes a while or fails, and the caller's own `toolApproval`
 * and the tools' `needsApproval`, the stronger status winning (denied >
 * user-approval > approved > not-applicable). Loads with the first call of a
 * process that needs it.
 */
export async function resolveApproval(
  run: Run,
  step: Step,
  toolApproval: ToolApprovalConfiguration<ToolSet, Context> | undefined,
  options: ApprovalOptions,
  taken: ToolCallDecision | 'ambiguous' | undefined,
  given: FoundAlready = {},
): Promise<ApprovalStatus> {
  const { toolCall } = options;
  const call = { toolCallId: toolCall.toolCallId, toolName: toolCall.toolName, input: toolCall.input };
  // fail closed: a decision that cannot be told to be this call's is no decision for it
  if (taken === 'ambiguous') return approvalStatusOf(await denyCall(run, call, AMBIGUOUS_CALL_ID));
  let decision: ToolCallDecision | undefined = taken;
  const session = run.approvals;
  const approval = step.number === undefined ? session?.resume.approved.get(toolCall.toolCallId) : undefined;
  // fail closed: the SDK resumes a call by its id; an answer is for the call its request was made for, and for no other
  const another = approval === undefined ? undefined : notTheAnsweredCall(approval, call);
  if (another !== undefined) return approvalStatusOf(await denyCall(run, call, another));
  // a used approval answered otherwise now is not decided again: the tool wrapper gives the model what ran
  if (approval !== undefined && session?.replaysOverriddenAnswer(approval.approvalId) === true) return NOT_APPLICABLE;
  if (decidesInToolApproval(run, decision, approval)) {
    // fail closed: a streamed call no hold gave an id of its own is decided once per id; a second call with it is denied
    if (given.repeated === true || (approval === undefined && given.deciding === undefined && !step.firstWithId(call))) {
      return approvalStatusOf(await denyCall(run, call, AMBIGUOUS_CALL_ID));
    }
    const gated = run.snapshot.hooks.gateToolCalls.length > 0;
    try {
      const gates = !gated
        ? undefined
        : approval !== undefined
          ? await gateResumedCall(run, call.toolCallId)
          : (await gateToolCalls(run, step, [call]))[0];
      // handlers that answer at once take no turn of the event loop here
      const deciding = given.deciding ?? decideToolCall(run, step, call, { approval, gates });
      decision = isThenable(deciding) ? await deciding : deciding;
    } catch (error) {
      run.fail(error);
      // a streamed call no hold kept: the call is not run, and the run ends with the failure at its next step (a stream error)
      if (run.streaming && !holdsStreamedCalls(run)) return FAILED;
      // streamText errors its stream with a toolApproval's throw and tells no callback: the run ends here (once)
      if (run.streaming) await run.end(error);
      throw error;
    }
    // decided here (not in the model layer): the SDK runs and records this very object
    const input = decidedInput(decision);
    if (input !== undefined) {
      // the SDK recorded the model's arguments for this call: an approval of other arguments would not verify on resume
      if (decision.type === 'confirm') return approvalStatusOf(await denyCall(run, call, TRANSFORMED_REPAIR));
      const checked = await validateInput(getOwn(options.tools, toolCall.toolName), input.value);
      if (!checked.success) {
        const reason = `the arguments a transform produced are not valid for this tool (${getErrorMessage(checked.error)})`;
        return approvalStatusOf(await denyCall(run, call, reason));
      }
      toolCall.input = checked.value;
    }
  }
  // fail closed: a confirm is answered only by an approval the runtime's secret verifies
  if (decision?.type === 'confirm' && approval !== undefined && session?.verified(approval) === false) {
    return approvalStatusOf(await denyCall(run, call, UNVERIFIABLE_REASON, unverifiedDenial(call.toolName)));
  }
  const ours = decision === undefined ? NOT_APPLICABLE : approvalStatusOf(decision);
  if (ours.type === 'denied') return ours;

  // the SDK's own resolution, when there is anything to resolve (a toolApproval option, needsApproval)
  const theirs = hasCallerApproval(toolApproval, options) ? await resolveCallerApproval(toolApproval, options) : NOT_APPLICABLE;
  // a resumed call that is not denied is executed once, through the approval ledger, by the tool wrapper
  const status = RANK[theirs.type] > RANK[ours.type] ? theirs : ours;
  // a handler asked: the request is the library's, keeps its signature and carries its pin (who asked, and when);
  // the SDK makes any other request unasked by us
  if (status.type === 'user-approval' && ours.type === 'user-approval') {
    await run.critical(() => run.openApprovals().ask(call, run.runtimeContext, decision?.type === 'confirm' ? decision.terms : undefined));
  } else if (status.type !== 'not-applicable') {
    session?.asked(toolCall.toolCallId, false);
  }
  return status;
}
