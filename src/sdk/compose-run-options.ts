import { gateway, isStepCount, type LanguageModel, type StepResult, type StreamTextTransform, type ToolSet, wrapLanguageModel } from 'ai';
import type { ModelCallSettings } from '../actions/intervention-events.ts';
import { asArray, continueOnFailure, swallowsFailures } from '../loop/continue-on-failure.ts';
import { createLoopControl } from '../loop/loop-control.ts';
import type { Run } from '../run/run.ts';
import { hasToolHooks } from '../run/runtime-snapshot.ts';
import { SETTING_KEYS } from '../run/setting-keys.ts';
import { ensureStarted } from '../run/start-run.ts';
import { decisionOf } from '../tool-call/decision-of.ts';
import type { CallOptions } from './call-options.ts';
import { createModelMiddleware } from './create-model-middleware.ts';
import { guardToolSet } from './guard-tool-set.ts';
import { createRunPrepareStep } from './run-prepare-step.ts';
import { createRunRepair } from './run-repair-tool-call.ts';
import { createRunToolApproval } from './run-tool-approval.ts';
import { steeringSignal, unsignalCallbacks } from './steering-signal.ts';

/**
 * The SDK options of a run: the caller's options, with each extension point
 * the run needs composed in front of the caller's own (their `prepareStep`,
 * `toolApproval`, `repairToolCall` and callbacks still run). A layer that no
 * hook or handler uses is not installed.
 */
export function composeRunOptions<OPTIONS extends CallOptions>(
  run: Run,
  options: OPTIONS,
  { streaming = false }: { readonly streaming?: boolean } = {},
): OPTIONS {
  const { hooks, handlers } = run.snapshot;
  const composed: CallOptions = { ...options };
  if (streaming && typeof options.timeout === 'object' && options.timeout !== null) moveChunkTimeouts(run, options, composed);
  // the runtime's secret binds its confirms; the app's own approvals stay the SDK's (see own-approval-requests.ts)
  // (only where a handler's confirm may ask: a run whose handlers declare they never confirm gives the SDK no secret)
  const signs = options.experimental_toolApprovalSecret === undefined && run.plan.mayConfirm;
  // requests the app asks beside the handlers' confirms are told apart, to keep them unsigned: a session tracks them
  if (signs && asksOwnApprovals(options)) run.openApprovals();
  const approvals = run.approvals?.sdkOptions({
    signs,
    appSecret: options.experimental_toolApprovalSecret,
    approver: options.runtimeContext ?? {},
    // a call a person answered is decided before the SDK reads the history, as the person who asked
    decide: async ({ toolCallId, toolName, input }, asker) => {
      const starting = ensureStarted(run);
      if (starting !== undefined) await starting;
      return decisionOf(run, run.step, { toolCallId, toolName, input }, { applies: false, asker });
    },
  });
  if (approvals?.history !== undefined) {
    if (options.messages !== undefined) composed.messages = approvals.history;
    else composed.prompt = approvals.history;
  }
  if (approvals?.prepare !== undefined) prepareOnStart(run, options, composed, approvals.prepare);

  const needsModel =
    hooks.preRequest.length > 0 ||
    hooks.onResponse.length > 0 ||
    handlers.afterModelCall.length > 0 ||
    handlers.beforeInvocation.length > 0 ||
    hooks.onStatus.length > 0 ||
    hooks.onChatError.length > 0 ||
    run.snapshot.redactors.length > 0 ||
    run.plan.decides;
  const loops = needsLoopControl(run, options);
  // ai >= 7.0.177 gives the provider a signal of its own where the run steers: none where the raw SDK gives none
  const signal = loops ? steeringSignal(options, { streaming }) : undefined;
  const wrapped = new WeakMap<object, LanguageModel>();
  const originals = new WeakMap<object, LanguageModel>();
  const wrapModel = (model: LanguageModel): LanguageModel => {
    if (!needsModel && signal === undefined) return model;
    // a model id resolves the way the SDK resolves it: the global default provider, or the gateway
    const resolved = typeof model === 'string' ? (globalThis.AI_SDK_DEFAULT_PROVIDER ?? gateway).languageModel(model) : model;
    let result = wrapped.get(resolved);
    if (result === undefined) {
      const middleware = needsModel ? [createModelMiddleware(() => run)] : [];
      result = wrapLanguageModel({ model: resolved, middleware: signal === undefined ? middleware : [signal, ...middleware] });
      wrapped.set(resolved, result);
      originals.set(result as object, model);
    }
    return result;
  };
  // the caller's prepareStep sees the model it gave, not the wrapper
  const unwrapModel = (model: LanguageModel): LanguageModel => (typeof model === 'string' ? model : (originals.get(model) ?? model));
  composed.model = wrapModel(options.model);

  // resumed approvals execute through the wrapper (once, with the approval ledger)
  // (a refusal of a used approval is replayed too: any answer may be)
  const resumesApprovals = run.approvals?.executesOnce === true;
  // a streamed step decided at the approval point runs its approved calls after every call was decided: each execute asks
  // whether the run failed meanwhile (a failed run starts no further tool)
  const failsLate = streaming && run.plan.decides && !run.plan.holds;
  if (
    options.tools !== undefined &&
    (hasToolHooks(run.snapshot) || handlers.beforeInvocation.length > 0 || resumesApprovals || failsLate)
  ) {
    composed.tools = guardToolSet(options.tools, { runOf: () => run });
  }
  if (run.plan.decides || (run.approvals?.resume.approved.size ?? 0) > 0 || resumesApprovals) {
    composed.toolApproval = createRunToolApproval({ run, toolApproval: options.toolApproval });
  }
  if (hooks.onToolCallError.length > 0) {
    composed.repairToolCall = createRunRepair(run, options.repairToolCall ?? options.experimental_repairToolCall);
    delete composed.experimental_repairToolCall;
  }

  const loop = loops
    ? createLoopControl({
        run,
        options,
        stopWhen: options.stopWhen,
        steering: options.experimental_steering,
      })
    : undefined;
  if (loop !== undefined) {
    composed.stopWhen = continueOnFailure(run, [loop.stopWhen]);
    composed.experimental_steering = loop.steering;
  } else if (swallowsFailures(run) || (streaming && run.plan.decides && !run.plan.holds)) {
    // (a handler that fails where toolApproval decides a streamed call ends the run at the next step, as a stream error)
    composed.stopWhen = continueOnFailure(run, asArray(options.stopWhen ?? isStepCount(1)));
  }
  delete composed.steering;
  delete composed.followUp;
  delete composed.maxSteps;
  if (signal !== undefined) unsignalCallbacks(composed);

  const settings: ModelCallSettings = {};
  for (const key of SETTING_KEYS) {
    if (options[key] !== undefined) Object.assign(settings, { [key]: options[key] });
  }
  composed.prepareStep = createRunPrepareStep({
    run,
    prepareStep: options.prepareStep,
    settings,
    activeTools: options.activeTools,
    wrapModel,
    unwrapModel,
    afterResume: loop?.afterResume,
  });

  const caller = options.onStepEnd ?? options.onStepFinish;
  // every reader of a step (this callback, the result, onEnd) reads its requests finished: a confirm's pinned, the app's unsigned
  const finishes = run.plan.decides || run.approvals !== undefined;
  const user = !finishes
    ? caller
    : (step: StepResult<ToolSet>) => {
        // the step's requests wait in the inbox before anyone reads them
        const listed = run.approvals?.finishStep(step);
        return listed === undefined ? caller?.(step) : listed.then(() => caller?.(step));
      };
  if (hooks.onMessage.length === 0 && loop === undefined && finishes) {
    // only the signatures: a plain function, as light as the caller's own callback
    composed.onStepEnd = user;
    delete composed.onStepFinish;
  } else if (hooks.onMessage.length > 0 || loop !== undefined) {
    composed.onStepEnd = async (step: StepResult<ToolSet>) => {
      try {
        await user?.(step);
      } catch {
        // the SDK ignores callback errors; so do we
      }
      await run
        .critical(async () => {
          await run.commitMessages(step.response.messages);
          await loop?.endTurn(step);
        })
        .catch(() => {});
    };
    delete composed.onStepFinish;
  }

  // the library's confirms are signed: the configured secret, or the runtime's own (see approval-secret.ts)
  if (signs) composed.experimental_toolApprovalSecret = run.snapshot.approvalSecret;
  // a stream's requests are finished as it carries them where a confirm may pin one, or a resume's session is open
  if (finishes && streaming && (run.plan.mayConfirm || run.approvals !== undefined)) {
    const theirs = options.experimental_transform;
    // each request the stream carries is finished as it passes (a part that is no request passes as it is)
    const finish: StreamTextTransform<ToolSet> = () =>
      new TransformStream({
        transform(part, controller) {
          // a request passes once it waits in the inbox
          const listed = part.type === 'tool-approval-request' ? run.approvals?.finishPart(part) : undefined;
          if (listed === undefined) controller.enqueue(part);
          else return listed.then(() => controller.enqueue(part));
        },
      });
    composed.experimental_transform = theirs === undefined ? finish : [finish, ...asArray(theirs)];
  }
  return composed as OPTIONS;
}

/**
 * The SDK reads the approvals of the history right after `onStart` (awaited
 * in `generateText` and `streamText` alike): the session prepares the
 * answers there (the person's edits are checked, written and signed),
 * before the SDK verifies them.
 */
function prepareOnStart(run: Run, options: CallOptions, composed: CallOptions, prepare: () => Promise<void>): void {
  const user = (options.onStart ?? options.experimental_onStart) as ((event: unknown) => unknown) | undefined;
  composed.onStart = async (event: unknown) => {
    await run.critical(prepare).catch(() => {});
    await user?.(event);
  };
  delete composed.experimental_onStart;
}

/** Whether the call may ask approvals of its own: a `toolApproval` option, or a tool with `needsApproval`. */
function asksOwnApprovals(options: CallOptions): boolean {
  if (options.toolApproval !== undefined) return true;
  const tools = options.tools ?? {};
  for (const name of Object.keys(tools)) if (tools[name]?.needsApproval !== undefined) return true;
  return false;
}

/**
 * A stream the run holds (a whole step, or its tool calls) reaches the SDK
 * only once decided, so the SDK's chunk timers would measure the release,
 * not the provider: the run applies `firstChunkMs` / `chunkMs` to the
 * provider's stream itself, and the SDK gets the rest of `timeout`.
 */
function moveChunkTimeouts(run: Run, options: CallOptions, composed: CallOptions): void {
  const { timeout } = options;
  if (timeout === null || typeof timeout !== 'object') return;
  const { firstChunkMs, chunkMs, ...rest } = timeout as { firstChunkMs?: number; chunkMs?: number };
  if (firstChunkMs === undefined && chunkMs === undefined) return;
  const { hooks, handlers } = run.snapshot;
  const holds = hooks.onResponse.length > 0 || handlers.afterModelCall.length > 0 || run.plan.holds;
  if (!holds) return;
  // a late chunk aborts the signal the SDK is given, as the SDK's own chunk timer does
  const timeouts = new AbortController();
  composed.abortSignal = options.abortSignal === undefined ? timeouts.signal : AbortSignal.any([options.abortSignal, timeouts.signal]);
  run.streamTimeouts = { firstChunkMs, chunkMs, abort: (reason) => timeouts.abort(reason) };
  composed.timeout = rest;
}

/** Whether the call uses steering, follow-up or a step cap (options or hooks). */
export function needsLoopControl(run: Run, options: CallOptions): boolean {
  const { hooks } = run.snapshot;
  return (
    options.steering !== undefined ||
    options.followUp !== undefined ||
    options.maxSteps !== undefined ||
    hooks.drainSteering.length > 0 ||
    hooks.drainFollowUp.length > 0
  );
}
