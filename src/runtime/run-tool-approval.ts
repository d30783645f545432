import type { Context } from '@ai-sdk/provider-utils';
import type {
  GenericToolApprovalFunction,
  ToolApprovalConfiguration,
  ToolApprovalStatus,
  ToolSet,
} from 'ai';
import { resolveToolApproval } from 'ai/internal';
import { getOwn } from '../util/get-own.ts';
import type { ApprovalDecision, InterventionsRun } from './interventions-run.ts';

type Status = Exclude<ToolApprovalStatus, string | undefined>;

const NOT_APPLICABLE: Status = Object.freeze({ type: 'not-applicable' });

const RANK: Readonly<Record<Status['type'], number>> = {
  'not-applicable': 0,
  approved: 1,
  'user-approval': 2,
  denied: 3,
};

/**
 * The run's `toolApproval`: the handlers' decision for the call (taken by the
 * model layer, or now for a resumed or repaired call), combined with the
 * caller's own `toolApproval` and the tools' `needsApproval`, which keep
 * working. The stronger status wins: denied > user-approval > approved >
 * not-applicable.
 */
export function createRunToolApproval({
  run,
  toolApproval,
}: {
  run: InterventionsRun;
  toolApproval: ToolApprovalConfiguration<ToolSet, Context> | undefined;
}): GenericToolApprovalFunction<ToolSet, Record<string, never>, Context> {
  return async (options) => {
    const starting = run.ensureStarted();
    if (starting !== undefined) await starting;
    const { toolCall } = options;
    let ours: ApprovalDecision | undefined = run.toolDecisions.get(toolCall.toolCallId);
    if (ours !== undefined) {
      run.toolDecisions.delete(toolCall.toolCallId);
    } else if (run.decidesToolCalls && !run.decided.has(toolCall.toolCallId)) {
      ours = await run.critical(() =>
        run.decideLate(
          { toolCallId: toolCall.toolCallId, toolName: toolCall.toolName, input: toolCall.input },
          options.messages,
        ),
      );
    }
    run.decided.delete(toolCall.toolCallId);
    if (ours?.type === 'denied') return ours;

    // the SDK's own resolution, when there is anything to resolve (a toolApproval option, needsApproval)
    const theirs: Status =
      toolApproval === undefined && getOwn(options.tools, toolCall.toolName)?.needsApproval === undefined
        ? NOT_APPLICABLE
        : await resolveToolApproval({
            tools: options.tools,
            toolApproval,
            toolCall,
            messages: options.messages,
            toolsContext: options.toolsContext,
            runtimeContext: options.runtimeContext,
          });
    const status = ours === undefined || RANK[theirs.type] > RANK[ours.type] ? theirs : ours;
    // a resumed call is about to run: its approval is used up now, exactly once
    if (status.type !== 'denied' && run.approvedToolCalls.has(toolCall.toolCallId)) {
      return (await run.critical(() => run.consumeApproval(toolCall.toolCallId))) ?? status;
    }
    return status;
  };
}
