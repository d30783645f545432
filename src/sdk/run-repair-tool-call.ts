import type { ToolCallRepairFunction, ToolSet } from 'ai';
import { runOnToolCallError } from '../hooks/run-hooks.ts';
import type { Run } from '../run/run.ts';
import { getErrorMessage } from '../util/get-error-message.ts';
import { getOwn } from '../util/get-own.ts';

/**
 * `onToolCallError` for calls that never reach `execute` (unknown tool,
 * invalid input): the SDK hands them to `repairToolCall`. The caller's repair
 * runs first; if it does not repair the call, the hooks see the SDK's error
 * and may replace it: the replacement is what the model reads next, and
 * what every record of the step carries.
 */
export function createRunRepair(run: Run, repair: ToolCallRepairFunction<ToolSet> | undefined): ToolCallRepairFunction<ToolSet> {
  return async (options) => {
    const repaired = repair === undefined ? null : await repair(options);
    if (repaired != null) return repaired;
    const { toolCall } = options;
    const error = await run.critical(() =>
      runOnToolCallError(run.snapshot.hooks.onToolCallError, {
        call: { toolCallId: toolCall.toolCallId, toolName: toolCall.toolName, input: parseInput(toolCall.input) },
        tool: getOwn(run.tools, toolCall.toolName),
        error: options.error,
        messages: options.messages,
        runtimeContext: run.runtimeContext,
        runId: run.runId,
        toolContext: undefined,
        stepNumber: run.stepNumber,
        abortSignal: run.abortSignal,
      }),
    );
    // the SDK reports the error it passed here: make it read as the replacement everywhere
    // (the next request, steps, responseMessages, onMessage, the UI stream)
    if (error !== options.error) run.patch.rewriteError(options.error, getErrorMessage(error));
    return null;
  };
}

function parseInput(input: string): unknown {
  try {
    return JSON.parse(input);
  } catch {
    return input;
  }
}
