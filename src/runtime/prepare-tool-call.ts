import type { Context } from '@ai-sdk/provider-utils';
import type { Tool, ToolExecutionOptions } from 'ai';
import type { ToolCallInfo } from '../handlers/intervention-events.ts';
import { runPreToolCall, type PreToolCallOutcome } from '../hooks/run-hooks.ts';
import type { Run } from './run.ts';

/** What a guarded `execute` works with: its run, the tool, and the SDK's execution options. */
export interface ToolExecution {
  readonly run: Run;
  readonly tool: Tool;
  readonly options: ToolExecutionOptions<Context>;
}

/** Decides a call inside `execute` (tools guarded without a run's `toolApproval`): the call to run, or a throw. */
export type DecideInExecute = (
  run: Run,
  details: { readonly tool: Tool; readonly call: ToolCallInfo; readonly options: ToolExecutionOptions<Context> },
) => Promise<ToolCallInfo>;

/** Whether anything must happen before the tool runs (so it cannot be called at once). */
export function needsPreparing(run: Run, decide: DecideInExecute | undefined): boolean {
  const { onStatus, preToolCall } = run.snapshot.hooks;
  return decide !== undefined || onStatus.length > 0 || preToolCall.length > 0 || run.ensureStarted() !== undefined;
}

/**
 * What happens before a tool runs: the run starts (if this is its first
 * act, as on a resume), `decide` (tools guarded without a run), the
 * `tool-call` status, then the `preToolCall` hooks, which may change the call
 * or short-circuit it with a result or an error. A hook that throws is
 * recorded on the run (the SDK would swallow it) and rethrown.
 */
export async function prepareToolCall(
  { run, tool, options }: ToolExecution,
  call: ToolCallInfo,
  decide: DecideInExecute | undefined,
): Promise<PreToolCallOutcome> {
  const starting = run.ensureStarted();
  if (starting !== undefined) await starting;
  const decided = decide === undefined ? call : await decide(run, { tool, call, options });
  const { onStatus, preToolCall } = run.snapshot.hooks;
  try {
    if (onStatus.length > 0) await run.status({ type: 'tool-call', toolCallId: decided.toolCallId, toolName: decided.toolName });
    return preToolCall.length === 0
      ? { type: 'call', call: decided }
      : await runPreToolCall(preToolCall, { ...toolHookContext(run, options), call: decided, tool });
  } catch (error) {
    run.fail(error);
    throw error;
  }
}

/** What every tool hook is told besides the call. */
export function toolHookContext(run: Run, options: ToolExecutionOptions<Context>) {
  return {
    messages: options.messages,
    runtimeContext: run.runtimeContext,
    runId: run.runId,
    toolContext: options.context,
    stepNumber: run.stepNumber,
    abortSignal: options.abortSignal,
  };
}
