import type { Context } from '@ai-sdk/provider-utils';
import type { ToolLoopAgentSettings, ToolSet } from 'ai';
import { hasTypedAnswers } from '../answers/decode-answers.ts';
import type { ApprovalLedger } from '../ledger/approval-ledger.ts';
import { Run, runOfError } from '../run/run.ts';
import type { RuntimeSnapshot } from '../run/runtime-snapshot.ts';
import type { CallOptions } from './call-options.ts';
import { chatResponseOf } from './chat-response-of.ts';
import { composeRunOptions } from './compose-run-options.ts';

type AnySettings = ToolLoopAgentSettings<never, ToolSet, Context, never>;
type Callback = ((event: never) => unknown) | undefined;

/**
 * Settings for `new ToolLoopAgent(...)` with the runtime applied to every
 * call of the agent: `prepareCall` starts a run per call (after the caller's
 * own `prepareCall`) and returns its composed model, tools, `toolApproval`
 * and `prepareStep`; the settings' callbacks report the run's messages and
 * its end.
 *
 * The agent owns its abort signal, so a hook that fails inside a tool ends
 * the run at the next step boundary (or with `onChatError` when the run ends
 * there anyway), and runs are matched to `onEnd` / `onError` through a
 * per-run copy of `runtimeContext` and the errors the run raised. A run is
 * also filed in `runsByInput` under the prompt (or messages) the agent was
 * called with, for the agent's UI stream to show its decisions. `beforeRun`
 * sees each call's prepared options before its run starts (the runtime
 * checks its handlers' scopes against the call's tools there).
 */
export function composeAgentSettings<SETTINGS>(
  settings: SETTINGS,
  snapshotOf: () => RuntimeSnapshot,
  isIdle: (snapshot: RuntimeSnapshot) => boolean,
  approvalLedger?: ApprovalLedger,
  runsByInput?: WeakMap<object, Run>,
  beforeRun?: (prepared: CallOptions) => void,
): SETTINGS {
  const user = settings as unknown as AnySettings;
  const runs = new WeakMap<object, Run>();
  const runOf = (context: unknown) => (context !== null && typeof context === 'object' ? runs.get(context) : undefined);

  const composed: Record<string, unknown> = {
    ...user,
    prepareCall: async (options: Parameters<NonNullable<AnySettings['prepareCall']>>[0]) => {
      const prepared = ((await user.prepareCall?.(options)) ?? options) as unknown as CallOptions;
      const snapshot = snapshotOf();
      if (isIdle(snapshot) && !hasTypedAnswers(prepared.messages ?? (Array.isArray(prepared.prompt) ? prepared.prompt : []))) {
        return prepared;
      }
      beforeRun?.(prepared);
      const runtimeContext: Context = { ...prepared.runtimeContext };
      const run = new Run({
        snapshot,
        input: { ...prepared, runtimeContext },
        approvalLedger,
      });
      runs.set(runtimeContext, run);
      // the agent's UI stream finds the run by the prompt it was called with (see agentUIStream)
      const input = options.prompt ?? options.messages;
      if (runsByInput !== undefined && typeof input === 'object' && input !== null) runsByInput.set(input, run);
      run.onRuntimeContext = (context) => runs.set(context, run);
      const runOptions = composeRunOptions(run, { ...prepared, runtimeContext });
      // the agent may not pass our onStart on: the answers are prepared here already
      const prepare = run.approvals?.preparation();
      if (prepare !== undefined) await run.critical(prepare);
      // the agent applies its own callbacks; messages are reported below
      delete runOptions.onStepEnd;
      return runOptions;
    },
    onStepEnd: finishingRequests(
      runOf,
      merge(user.onStepEnd ?? user.onStepFinish, async (step: { runtimeContext: unknown; response: { messages: [] } }) => {
        const run = runOf(step.runtimeContext);
        if (run !== undefined) await run.critical(() => run.commitMessages(step.response.messages)).catch(() => {});
      }),
    ),
    onEnd: merge(user.onEnd ?? user.onFinish, async (event: Parameters<typeof chatResponseOf>[0] & { runtimeContext: unknown }) => {
      const run = runOf(event.runtimeContext);
      if (run === undefined) return;
      try {
        await run.complete(() => chatResponseOf(event));
      } catch (error) {
        await run.end(error);
      }
    }),
    onError: merge(user.onError, async (event: { error: unknown }) => {
      const error = event.error;
      const run = error !== null && typeof error === 'object' ? runOfError.get(error) : undefined;
      await run?.end(error);
    }),
    onAbort: merge(user.onAbort, async (event: { steps: ReadonlyArray<{ runtimeContext: unknown }>; reason?: unknown }) => {
      const run = runOf(event.steps.at(-1)?.runtimeContext);
      await run?.aborted(event.reason);
    }),
  };
  delete composed.onStepFinish;
  delete composed.onFinish;
  return composed as SETTINGS;
}

/** The caller's callback, then ours; the caller's errors are ignored like the SDK does. */
function merge<EVENT>(user: Callback, ours: (event: EVENT) => Promise<void>) {
  return async (event: EVENT) => {
    try {
      await (user as ((event: EVENT) => unknown) | undefined)?.(event);
    } catch {
      // the SDK ignores callback errors; so do we
    }
    await ours(event);
  };
}

/**
 * A step callback that first finishes the requests the step's run asked
 * (a confirm's pin, the app's own unsigned: see `own-approval-requests.ts`),
 * so the caller's callback, the result and the next request read them so.
 */
function finishingRequests<STEP extends { runtimeContext: unknown }>(
  runOf: (context: unknown) => Run | undefined,
  then: (step: STEP) => Promise<void>,
): (step: STEP) => Promise<void> {
  return async (step) => {
    // the step's requests wait in the inbox before anyone reads them
    await runOf(step.runtimeContext)?.approvals?.finishStep(step as never);
    return then(step);
  };
}
