import type { ToolCallInfo } from '../actions/intervention-events.ts';
import { InvalidHookResultError } from '../errors/invalid-hook-result-error.ts';
import type { RegisteredHandler } from '../handlers/registered-handler.ts';
import { callHook } from '../hooks/run-hooks.ts';
import type { Run } from '../run/run.ts';
import type { Step } from '../run/step.ts';
import { settleAfterAbort } from '../util/settle-after-abort.ts';

const NO_GATES: readonly RegisteredHandler[] = Object.freeze([]);

/**
 * The gates' actions for one call the turn did not gate (see
 * {@link gateToolCalls}): a run's resumed calls meet the gates together,
 * once, as their turn did (`resumed`); any other call (one the SDK repaired,
 * or that its approval point decides, or a tool guarded without a run, which
 * never sees the turn) meets them alone, as a batch of one.
 */
export async function gatesOfCall(run: Run, step: Step, call: ToolCallInfo, resumed: boolean): Promise<readonly RegisteredHandler[]> {
  if (run.snapshot.hooks.gateToolCalls.length === 0) return NO_GATES;
  const session = run.approvals;
  if (!resumed || session === undefined) return (await gateToolCalls(run, step, [call]))[0] ?? NO_GATES;
  if (session.state.resumedGates === undefined) {
    const calls = [...session.resume.approved.values()];
    session.state.resumedGates = gateToolCalls(run, step, calls).then(
      (perCall) => new Map(calls.map((resumedCall, position) => [resumedCall.toolCallId, perCall[position] ?? []])),
    );
  }
  return (await session.state.resumedGates).get(call.toolCallId) ?? NO_GATES;
}

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
