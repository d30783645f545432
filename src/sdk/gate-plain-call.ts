import type { ToolCallInfo } from '../actions/intervention-events.ts';
import type { Run } from '../run/run.ts';
import type { Step } from '../run/step.ts';
import { gateToolCalls } from '../tool-call/gate-tool-calls.ts';

/** Whether the runtime decides tool calls: `beforeToolCall` handlers, or `gateToolCalls` hooks. */
export function decidesPlainCalls(run: Run): boolean {
  return run.snapshot.handlers.beforeToolCall.length > 0 || run.snapshot.hooks.gateToolCalls.length > 0;
}

/**
 * The gates' actions for one call of a plain generateText / streamText:
 * tools guarded without a run never see the turn, so each call meets the
 * `gateToolCalls` hooks alone, as a batch of one (a gate that weighs a
 * turn's calls together sees them one at a time here).
 */
export async function gatePlainCall(run: Run, step: Step, call: ToolCallInfo) {
  if (run.snapshot.hooks.gateToolCalls.length === 0) return undefined;
  const [gates] = await gateToolCalls(run, step, [call]);
  return gates;
}
