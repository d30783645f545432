import type { Context } from '@ai-sdk/provider-utils';
import type { ResumedApproval } from '../approvals/read-resume.ts';
import type { Run } from '../run/run.ts';
import { ensureStarted } from '../run/start-run.ts';
import type { ToolCallDecision } from '../run/tool-call-decision.ts';
import { decideToolCall } from '../tool-call/decide-tool-call.ts';
import { gateResumedCall } from '../tool-call/gate-resumed-call.ts';

/**
 * Decides a call a person answered, before the SDK reads the history (the
 * approval session's preparation): the gates and handlers run again with
 * the answer, as the person who asked (`asker`, the runtime context the
 * answer's pin carries), and the decision is written into the run's resume
 * step, where `toolApproval` takes it. Loads with the first resume of a
 * process that answers a call.
 */
export async function decideResumed(run: Run, approval: ResumedApproval, asker: Context | undefined): Promise<ToolCallDecision> {
  const starting = ensureStarted(run);
  if (starting !== undefined) await starting;
  const call = { toolCallId: approval.toolCallId, toolName: approval.toolName, input: approval.input };
  const gates = run.snapshot.hooks.gateToolCalls.length > 0 ? await gateResumedCall(run, call.toolCallId) : undefined;
  const decision = await decideToolCall(run, run.step, call, { approval, gates, runtimeContext: asker });
  run.step.write(call, decision);
  return decision;
}
