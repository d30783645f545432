import type { ModelMessage } from 'ai';
import { runObservers } from '../hooks/run-hooks.ts';
import { onDemand } from '../util/on-demand.ts';
import type { Run } from './run.ts';

/** The beforeInvocation phase: loads with the first run that has such handlers. */
const beforeInvocationPhase = onDemand(() => import('./before-invocation.ts'));

/**
 * Fires the start observers and `beforeInvocation` once, whoever asks
 * first: `undefined` when the run has nothing (more) to start (no promise,
 * no microtask: the SDK's own timing is kept), else the start under way.
 */
export function ensureStarted(run: Run): Promise<void> | undefined {
  if (run.startup === 'done' || run.isDetached) return undefined;
  const { hooks, handlers } = run.snapshot;
  // starting does nothing at all: no dropped answers, no start observers, no messages to commit, no beforeInvocation
  const idle =
    (run.approvals?.resume.dropped.length ?? 0) === 0 &&
    hooks.onChatStart.length === 0 &&
    hooks.onMessage.length === 0 &&
    handlers.beforeInvocation.length === 0;
  if (idle) {
    run.startup = 'done';
    return undefined;
  }
  run.startup ??= run
    .critical(() => startRun(run))
    .then(() => {
      run.startup = 'done';
    });
  return run.startup;
}

/**
 * Starts a run, once, before its first model call or resumed tool call:
 * records the approval responses that were dropped, fires `onChatStart`,
 * commits the new input messages to `onMessage`, then evaluates the
 * `beforeInvocation` handlers.
 */
export async function startRun(run: Run): Promise<void> {
  const { hooks, handlers } = run.snapshot;
  for (const { toolCallId, toolName, reason } of run.approvals?.resume.dropped ?? []) {
    await run.record({
      handler: 'approval-ledger',
      lifecycle: 'beforeToolCall',
      action: 'deny',
      reason: `An approval response was ignored: ${reason}.`,
      enforced: true,
      mode: 'enforce',
      durationMs: 0,
      toolCallId,
      toolName,
    });
  }
  if (hooks.onChatStart.length > 0) {
    await runObservers(hooks.onChatStart, {
      messages: run.messages,
      runtimeContext: run.runtimeContext,
      runId: run.runId,
      abortSignal: run.abortSignal,
    });
  }
  await run.commitMessages(newTurnOf(run.messages));
  if (handlers.beforeInvocation.length > 0) {
    const { beforeInvocation } = await beforeInvocationPhase();
    run.invocation = await beforeInvocation(run);
  }
}

/** The messages after the last assistant message: what this call adds. */
function newTurnOf(messages: readonly ModelMessage[]): readonly ModelMessage[] {
  for (let index = messages.length - 1; index >= 0; index--) {
    if (messages[index]?.role === 'assistant') return messages.slice(index + 1);
  }
  return messages;
}
