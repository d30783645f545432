import type { Context } from '@ai-sdk/provider-utils';
import type { GenericToolApprovalFunction, Tool, ToolApprovalConfiguration, ToolSet } from 'ai';
import type { Run } from '../run/run.ts';
import { ensureStarted } from '../run/start-run.ts';
import { type ApprovalStatus, approvalStatusOf, decidedInput, type ToolCallDecision } from '../run/tool-call-decision.ts';
import { decisionOf } from '../tool-call/decision-of.ts';
import { denyCall } from '../tool-call/deny-call.ts';
import { getErrorMessage } from '../util/get-error-message.ts';
import { getOwn } from '../util/get-own.ts';
import { safeValidateTypes } from '../util/validate-types.ts';
import { resolveCallerApproval } from './resolve-caller-approval.ts';

/** What the SDK asks the run's `toolApproval` about one call. */
export type ApprovalOptions = Parameters<GenericToolApprovalFunction<ToolSet, Record<string, never>, Context>>[0];

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

/**
 * The run's `toolApproval`, the SDK's approval point: it asks the owner of
 * each call's decision (`decisionOf`: decided ahead by the model layer or
 * the resume, or decided now) and converts the answer into an approval
 * status, combined with the caller's own `toolApproval` and the tools'
 * `needsApproval`, which keep working: the stronger status wins (denied >
 * user-approval > approved > not-applicable). A decision that fails ends the
 * run: the SDK errors the step, and no tool of it runs.
 */
export function createRunToolApproval({
  run,
  toolApproval,
}: {
  run: Run;
  toolApproval: ToolApprovalConfiguration<ToolSet, Context> | undefined;
}): GenericToolApprovalFunction<ToolSet, Record<string, never>, Context> {
  return async (options) => {
    const starting = ensureStarted(run);
    if (starting !== undefined) await starting;
    const { toolCall } = options;
    const call = { toolCallId: toolCall.toolCallId, toolName: toolCall.toolName, input: toolCall.input };
    const step = run.step;
    // decided ahead (the model layer, a resume): the SDK already has what it decided
    const ahead = step.entry(call)?.ahead === true;
    let decision: ToolCallDecision;
    try {
      const deciding = decisionOf(run, step, call, { applies: true });
      decision = await (ahead ? deciding : underWay(run, call.toolCallId, deciding));
    } catch (error) {
      // a streamed call no hold kept: it is not run (nor is any other: a failed run starts no tool), and the run ends
      // with the failure at its next step, as a stream error
      if (run.streaming && !run.plan.holds) return FAILED;
      // streamText errors its stream with a toolApproval's throw and tells no callback: the run ends here (once)
      if (run.streaming) await run.end(error);
      throw error;
    }
    // decided here, after the SDK parsed the call: the SDK runs and records this very object
    const input = ahead ? undefined : decidedInput(decision);
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
    const ours = approvalStatusOf(decision);
    if (ours.type === 'denied') return ours;
    // the SDK's own resolution, when there is anything to resolve (a toolApproval option, needsApproval)
    const asksToo = toolApproval !== undefined || getOwn(options.tools, toolCall.toolName)?.needsApproval !== undefined;
    const theirs = asksToo ? await resolveCallerApproval(toolApproval, options) : NOT_APPLICABLE;
    const status = RANK[theirs.type] > RANK[ours.type] ? theirs : ours;
    // a handler asked: the request is the library's, keeps its signature and carries its pin (who asked, and when);
    // the SDK makes any other request unasked by us
    if (status.type === 'user-approval' && decision.type === 'confirm') {
      const { terms, guidance, prompt } = decision;
      await run.critical(() => run.openApprovals().ask(call, run.runtimeContext, { terms, guidance, prompt }));
    } else if (status.type !== 'not-applicable') {
      run.approvals?.asked(toolCall.toolCallId, false);
    }
    return status;
  };
}

/** A call decided after the SDK passed its part on: the UI stream shows its decision once it is settled. */
function underWay<T>(run: Run, toolCallId: string, deciding: Promise<T>): Promise<T> {
  const calls = (run.deciding ??= new Set());
  calls.add(toolCallId);
  const settled = () => calls.delete(toolCallId);
  deciding.then(settled, settled);
  return deciding;
}

/** Validates arguments against a tool's input schema, as the SDK validates a model's. */
function validateInput(tool: Tool | undefined, input: unknown) {
  return tool?.inputSchema === undefined
    ? Promise.resolve({ success: true as const, value: input })
    : safeValidateTypes({ value: input, schema: tool.inputSchema });
}
