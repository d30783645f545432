import type { RegisteredHandler } from '../handlers/registered-handler.ts';
import type { Run } from '../run/run.ts';
import { gateToolCalls } from './gate-tool-calls.ts';

/**
 * The gates' actions for a call resumed from an approval: a run's resumed
 * calls meet the gates together, once, as their turn did.
 */
export async function gateResumedCall(run: Run, toolCallId: string): Promise<RegisteredHandler[]> {
  const session = run.approvals;
  if (session === undefined) return [];
  if (session.state.resumedGates === undefined) {
    const calls = [...session.resume.approved.values()];
    session.state.resumedGates = gateToolCalls(run, run.step, calls).then(
      (perCall) => new Map(calls.map((call, position) => [call.toolCallId, perCall[position] ?? []])),
    );
  }
  return (await session.state.resumedGates).get(toolCallId) ?? [];
}
