import type { ToolCallInfo } from '../actions/intervention-events.ts';
import { InvalidHookResultError } from '../errors/invalid-hook-result-error.ts';
import type { RegisteredHandler } from '../handlers/registered-handler.ts';
import { callHook } from '../hooks/run-hooks.ts';
import type { Run } from '../run/run.ts';
import type { Step } from '../run/step.ts';
import { settleAfterAbort } from '../util/settle-after-abort.ts';

/**
 * Runs the `gateToolCalls` hooks over a turn's calls (serially: a human is
 * never asked by two racing prompts) and returns, per call, the gates'
 * actions as handlers the reducer evaluates before the `beforeToolCall`
 * handlers (named after the hook, so records say which gate decided).
 */
export async function gateToolCalls(run: Run, step: Step, calls: readonly ToolCallInfo[]): Promise<RegisteredHandler[][]> {
  const perCall: RegisteredHandler[][] = calls.map(() => []);
  for (const entry of run.snapshot.hooks.gateToolCalls) {
    const actions: unknown = await run.critical(() =>
      settleAfterAbort(
        callHook(entry, {
          calls,
          messages: step.messages,
          stepNumber: step.number,
          runtimeContext: run.runtimeContext,
          runId: run.runId,
          abortSignal: run.abortSignal,
        }),
        // a gate waiting on a human must not outlive the caller's abort; one that answers at once
        // is taken, as the raw SDK goes on with a call a model answered after the abort
        run.abortSignal,
        0,
      ),
    );
    if (!Array.isArray(actions) || actions.length !== calls.length) {
      const error = new InvalidHookResultError({
        hook: entry.label,
        received: actions,
        expected: `an array of ${calls.length} actions, one per call, in the order of the calls`,
      });
      run.fail(error);
      throw error;
    }
    actions.forEach((action: unknown, position) => {
      perCall[position]?.push({
        name: entry.label,
        onError: 'throw',
        timeoutMs: undefined,
        mode: 'enforce',
        inScope: undefined,
        toolCallActions: undefined,
        handler: { name: entry.label, beforeToolCall: () => action as never },
      });
    });
  }
  return perCall;
}
