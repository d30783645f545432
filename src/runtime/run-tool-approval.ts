import type { Context } from '@ai-sdk/provider-utils';
import type { GenericToolApprovalFunction, ToolApprovalConfiguration, ToolSet } from 'ai';
import { decideToolCall } from './decide-tool-call.ts';
import { gateToolCalls } from './gate-tool-calls.ts';
import { hasCallerApproval, resolveCallerApproval } from './resolve-caller-approval.ts';
import type { Run } from './run.ts';
import { approvalStatusOf, decidedInput, type ApprovalStatus, type ToolCallDecision } from './tool-call-decision.ts';

const RANK: Readonly<Record<ApprovalStatus['type'], number>> = {
  'not-applicable': 0,
  approved: 1,
  'user-approval': 2,
  denied: 3,
};

const NOT_APPLICABLE: ApprovalStatus = Object.freeze({ type: 'not-applicable' });

/**
 * The run's `toolApproval`: the only reader of the step's decision table.
 * A call the model layer did not decide (one the SDK repaired, or one a
 * human approved, resumed before step 0) is decided now, on the same path.
 * The decision is combined with the caller's own `toolApproval` and the
 * tools' `needsApproval`, which keep working: the stronger status wins
 * (denied > user-approval > approved > not-applicable).
 */
export function createRunToolApproval({
  run,
  toolApproval,
}: {
  run: Run;
  toolApproval: ToolApprovalConfiguration<ToolSet, Context> | undefined;
}): GenericToolApprovalFunction<ToolSet, Record<string, never>, Context> {
  return async (options) => {
    const starting = run.ensureStarted();
    if (starting !== undefined) await starting;
    const { toolCall } = options;
    const step = run.step;
    let decision: ToolCallDecision | undefined = step.decisions.get(toolCall.toolCallId);
    step.decisions.delete(toolCall.toolCallId);
    const approval = step.number === undefined ? run.resume.approved.get(toolCall.toolCallId) : undefined;
    if (decision === undefined && (approval !== undefined || run.decidesToolCalls)) {
      const call = { toolCallId: toolCall.toolCallId, toolName: toolCall.toolName, input: toolCall.input };
      decision = await run.critical(async () =>
        decideToolCall(run, step, call, {
          approval,
          gates: approval !== undefined ? await run.resumeGates(call.toolCallId) : (await gateToolCalls(run, step, [call]))[0],
        }),
      );
      // a call the model layer did not see (repaired): the SDK runs and records this object
      const input = decidedInput(decision);
      if (input !== undefined) toolCall.input = input.value;
    }
    const ours = decision === undefined ? NOT_APPLICABLE : approvalStatusOf(decision);
    if (ours.type === 'denied') return ours;

    // the SDK's own resolution, when there is anything to resolve (a toolApproval option, needsApproval)
    const theirs = hasCallerApproval(toolApproval, options) ? await resolveCallerApproval(toolApproval, options) : NOT_APPLICABLE;
    // a resumed call that is not denied is executed once, through the approval ledger, by the tool wrapper
    return RANK[theirs.type] > RANK[ours.type] ? theirs : ours;
  };
}
