import type { Context } from '@ai-sdk/provider-utils';
import type { GenericToolApprovalFunction, ToolApprovalConfiguration, ToolSet } from 'ai';
import type { Run } from '../run/run.ts';
import { ensureStarted } from '../run/start-run.ts';
import { type ApprovalStatus, approvalStatusOf, decidedInput, type ToolCallDecision } from '../run/tool-call-decision.ts';
import { decideToolCall } from '../tool-call/decide-tool-call.ts';
import { decidesInToolApproval } from '../tool-call/decision-point.ts';
import { isThenable } from '../util/is-thenable.ts';
import { onDemand } from '../util/on-demand.ts';
import { hasCallerApproval } from './has-caller-approval.ts';
import type { ApprovalOptions, FoundAlready } from './resolve-approval.ts';

/** The approval point beyond its common case: its code loads with the first call of a process that needs it. */
const beyondCommonCase = onDemand(() => import('./resolve-approval.ts'));

const ignore = (): void => {};

/**
 * The run's `toolApproval`: the only reader of the step's decision table.
 * A call the model layer did not decide (every call when nothing needs the
 * model layer to: see `decidesInModelLayer`; one the SDK repaired; one a
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
  // the common case, at once: the model layer decided the call, and nothing else asks about it
  const approve = (options: ApprovalOptions): ApprovalStatus | Promise<ApprovalStatus> => {
    const taken = run.step.take(options.toolCall);
    const alone = run.approvals === undefined && !hasCallerApproval(toolApproval, options);
    if (taken !== undefined && taken !== 'ambiguous' && alone) {
      const ours = approvalStatusOf(taken);
      if (ours.type !== 'user-approval') return ours;
    }
    // a call no layer decided (nothing needed the model layer: see decidesInModelLayer), with nothing else to ask:
    // decided here, at once when its handlers answer at once; anything more (a confirm, changed arguments, a failure)
    // goes on as below
    if (taken === undefined && alone && decidesInToolApproval(run, taken, undefined) && run.snapshot.hooks.gateToolCalls.length === 0) {
      const { toolCallId, toolName, input } = options.toolCall;
      const call = { toolCallId, toolName, input };
      if (!run.step.firstWithId(call)) return resolve(options, taken, { repeated: true });
      let deciding: ToolCallDecision | Promise<ToolCallDecision>;
      try {
        deciding = decideToolCall(run, run.step, call);
      } catch (error) {
        deciding = Promise.reject(error);
      }
      if (!isThenable(deciding) && deciding.type !== 'confirm' && decidedInput(deciding) === undefined) return approvalStatusOf(deciding);
      return underWay(call.toolCallId, resolve(options, taken, { deciding }));
    }
    return taken === undefined ? underWay(options.toolCall.toolCallId, resolve(options, taken)) : resolve(options, taken);
  };
  /** A call decided here after the SDK passed its part on: the UI stream shows its decision once it is settled. */
  const underWay = (toolCallId: string, status: Promise<ApprovalStatus>): Promise<ApprovalStatus> => {
    const deciding = (run.deciding ??= new Set());
    deciding.add(toolCallId);
    const settled = () => deciding.delete(toolCallId);
    status.then(settled, settled);
    return status;
  };
  /** Everything beyond the common case (see `resolveApproval`), for a call of the step under way. */
  const resolve = (options: ApprovalOptions, taken: ToolCallDecision | 'ambiguous' | undefined, given?: FoundAlready) => {
    const step = run.step;
    // a decision under way is awaited once the code is loaded: its failure is not unhandled meanwhile
    if (isThenable(given?.deciding)) given.deciding.then(undefined, ignore);
    const loaded = beyondCommonCase();
    return isThenable(loaded)
      ? loaded.then(({ resolveApproval }) => resolveApproval(run, step, toolApproval, options, taken, given))
      : loaded.resolveApproval(run, step, toolApproval, options, taken, given);
  };
  return (options) => {
    const starting = ensureStarted(run);
    return starting === undefined ? approve(options) : starting.then(() => approve(options));
  };
}
