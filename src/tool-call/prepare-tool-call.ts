import type { Context } from '@ai-sdk/provider-utils';
import type { Tool, ToolExecutionOptions } from 'ai';
import type { ToolCallInfo } from '../actions/intervention-events.ts';
import { type PreToolCallOutcome, runPreToolCall } from '../hooks/run-hooks.ts';
import type { Run } from '../run/run.ts';
import { ensureStarted } from '../run/start-run.ts';
import { isThenable } from '../util/is-thenable.ts';

/**
 * What a guarded `execute` works with: its run, the tool, the SDK's
 * execution options, and the runtime context its hooks and handlers see (the
 * run's; for a call a person approved, the asker's, pinned in the approval).
 */
export interface ToolExecution {
  readonly run: Run;
  readonly tool: Tool;
  readonly options: ToolExecutionOptions<Context>;
  readonly runtimeContext: Context;
}

/** Decides a call inside `execute` (tools guarded without a run's `toolApproval`): the call to run, or a throw. */
export type DecideInExecute = (
  run: Run,
  details: { readonly tool: Tool; readonly call: ToolCallInfo; readonly options: ToolExecutionOptions<Context> },
) => Promise<ToolCallInfo>;

/** Whether anything must happen before the tool runs (so it cannot be called at once). */
export function needsPreparing(run: Run, decide: DecideInExecute | undefined): boolean {
  const { onStatus, preToolCall } = run.snapshot.hooks;
  return decide !== undefined || onStatus.length > 0 || preToolCall.length > 0 || ensureStarted(run) !== undefined;
}

/**
 * What happens before a tool runs: the run starts (if this is its first
 * act, as on a resume), `decide` (tools guarded without a run), the
 * `tool-call` status, then the `preToolCall` hooks, which may change the call
 * or short-circuit it with a result or an error. Synchronous when all of it
 * answers at once. A hook that throws is recorded on the run (the SDK would
 * swallow it) and rethrown.
 */
export function prepareToolCall(
  execution: ToolExecution,
  call: ToolCallInfo,
  decide: DecideInExecute | undefined,
): PreToolCallOutcome | Promise<PreToolCallOutcome> {
  const { run } = execution;
  const starting = ensureStarted(run);
  if (starting !== undefined || decide !== undefined) {
    return (async () => {
      if (starting !== undefined) await starting;
      const decided = decide === undefined ? call : await decide(run, { tool: execution.tool, call, options: execution.options });
      return runToolHooks(execution, decided);
    })();
  }
  return runToolHooks(execution, call);
}

/**
 * The `tool-call` status, then the `preToolCall` hooks; synchronous while
 * they answer at once. A throw or rejection is recorded on the run.
 */
function runToolHooks(execution: ToolExecution, call: ToolCallInfo): PreToolCallOutcome | Promise<PreToolCallOutcome> {
  const { run, tool } = execution;
  const { onStatus, preToolCall } = run.snapshot.hooks;
  const failed = (error: unknown): never => {
    run.fail(error);
    throw error;
  };
  const preToolCalls = (): PreToolCallOutcome | Promise<PreToolCallOutcome> =>
    preToolCall.length === 0 ? { type: 'call', call } : runPreToolCall(preToolCall, { ...toolHookContext(execution), call, tool });
  try {
    const status =
      onStatus.length === 0 ? undefined : run.status({ type: 'tool-call', toolCallId: call.toolCallId, toolName: call.toolName });
    const outcome = isThenable(status) ? Promise.resolve(status).then(preToolCalls) : preToolCalls();
    return isThenable(outcome) ? Promise.resolve(outcome).catch(failed) : outcome;
  } catch (error) {
    return failed(error);
  }
}

/** What every tool hook is told besides the call. */
export function toolHookContext({ run, options, runtimeContext }: ToolExecution) {
  return {
    messages: options.messages,
    runtimeContext,
    runId: run.runId,
    toolContext: options.context,
    stepNumber: run.stepNumber,
    abortSignal: options.abortSignal,
  };
}
