import type { Context } from '@ai-sdk/provider-utils';
import type { LanguageModel, PrepareStepFunction, PrepareStepResult, ToolSet, UserModelMessage } from 'ai';
import type { ModelCallSettings } from '../actions/intervention-events.ts';
import type { HeldAnswer } from '../approvals/approval-state.ts';
import { runTransformContext } from '../hooks/run-hooks.ts';
import { keepToolPairs } from '../messages/keep-tool-pairs.ts';
import { beforeModelCall, type ModelCallOutcome } from '../run/before-model-call.ts';
import { deniedModel, heldModel } from '../run/denied-model.ts';
import type { Run } from '../run/run.ts';
import { SETTING_KEYS } from '../run/setting-keys.ts';
import { ensureStarted } from '../run/start-run.ts';
import { Step } from '../run/step.ts';

type StepOptions = Parameters<PrepareStepFunction<ToolSet, Context>>[0];
type StepResult = NonNullable<PrepareStepResult<ToolSet, Context>>;

/**
 * The run's `prepareStep`: starts the run, applies what `beforeInvocation`
 * changed (step 0), calls the caller's `prepareStep`, then the
 * `transformContext` hooks, then the `beforeModelCall` handlers, and makes
 * the run's current {@link Step} (messages, active tools) for the later
 * phases. It returns only what it changed (nothing when nothing did).
 */
export function createRunPrepareStep({
  run,
  prepareStep,
  settings,
  activeTools,
  wrapModel,
  unwrapModel,
  afterResume,
}: {
  run: Run;
  prepareStep: PrepareStepFunction<ToolSet, Context> | undefined;
  /** The call-level settings, as the first draft of `event.settings`. */
  settings: ModelCallSettings;
  activeTools: readonly string[] | undefined;
  wrapModel: (model: LanguageModel) => LanguageModel;
  unwrapModel: (model: LanguageModel) => LanguageModel;
  /** Steering to inject once a resumed turn's results are in (loop control). */
  afterResume: (() => Promise<UserModelMessage[]>) | undefined;
}): PrepareStepFunction<ToolSet, Context> {
  const { hooks, handlers } = run.snapshot;
  // every tool's name, once: the active tools unless a step says otherwise
  let toolNames: readonly string[] | undefined;
  const allTools = () => (toolNames ??= Object.freeze(Object.keys(run.tools ?? {})));

  return async (options: StepOptions): Promise<StepResult | undefined> => {
    const starting = ensureStarted(run);
    if (starting !== undefined) await starting;
    // a hook that failed where the SDK swallows errors ends the run here
    if (run.failed !== undefined) await run.throwIfFailed();
    run.runtimeContext = options.runtimeContext;
    // the history the step starts with holds the last step's requests: the app's own read as the SDK wrote them
    if (options.stepNumber > 0) run.approvals?.finishMessages(options.messages, run.messages.length);

    let messages = options.messages;
    let instructions = options.instructions;
    if (options.stepNumber === 0) {
      // answers held for the right person (or more approvals): the turn waits, and no model is called
      const held = run.approvals?.held;
      if (held !== undefined && held.length > 0) {
        if (options.responseMessages.length > 0) await run.critical(() => run.commitMessages(options.responseMessages));
        messages = withoutHeldCalls(messages, held);
        run.step = new Step(options.stepNumber, messages, activeTools);
        return { model: heldModel(), messages };
      }
      // on resume, the approved calls' results precede step 0:
      if (options.responseMessages.length > 0) await run.critical(() => run.commitMessages(options.responseMessages));
      const invocation = run.invocation;
      if (invocation?.messages !== undefined) messages = [...invocation.messages, ...messages.slice(options.initialMessages.length)];
      if (invocation?.instructionsChanged) instructions = invocation.instructions;
      if (options.responseMessages.length > 0 && afterResume !== undefined) {
        const steering = await run.critical(afterResume);
        if (steering.length > 0) messages = [...messages, ...steering];
      }
    }

    // the caller's own prepareStep, then the transformContext hooks
    const user: StepResult | undefined =
      prepareStep === undefined
        ? undefined
        : ((await prepareStep({ ...options, model: unwrapModel(options.model), messages, instructions })) ?? undefined);
    let result: StepResult | undefined = user === undefined ? undefined : { ...user };
    if (user?.messages !== undefined) messages = user.messages;
    const userInstructions = user?.instructions ?? user?.system;
    if (userInstructions !== undefined) instructions = userInstructions;
    if (user?.runtimeContext !== undefined && user.runtimeContext !== run.runtimeContext) {
      run.runtimeContext = user.runtimeContext;
      run.onRuntimeContext?.(user.runtimeContext);
    }
    if (hooks.transformContext.length > 0) {
      const transformed = await run.critical(() =>
        runTransformContext(hooks.transformContext, {
          messages,
          stepNumber: options.stepNumber,
          runtimeContext: run.runtimeContext,
          runId: run.runId,
          abortSignal: run.abortSignal,
        }),
      );
      // a window that cut a tool call must not leave its result behind
      if (transformed !== messages) messages = keepToolPairs(transformed);
    }

    // the step's tools, then the beforeModelCall handlers
    let stepActiveTools = (user?.activeTools as readonly string[] | undefined) ?? activeTools;
    const removed = run.invocation?.removedTools;
    if (removed !== undefined && removed.size > 0) {
      stepActiveTools = (stepActiveTools ?? allTools()).filter((name) => !removed.has(name));
      (result ??= {}).activeTools = stepActiveTools as StepResult['activeTools'];
    }
    let outcome: ModelCallOutcome | undefined;
    if (handlers.beforeModelCall.length > 0) {
      let stepSettings = settings;
      if (user !== undefined) {
        for (const key of SETTING_KEYS) {
          if (user[key] === undefined) continue;
          if (stepSettings === settings) stepSettings = { ...settings };
          (stepSettings as Record<string, unknown>)[key] = user[key];
        }
      }
      outcome = await beforeModelCall(run, options, messages, instructions, stepActiveTools ?? allTools(), stepSettings);
    }

    // the step itself, and what the SDK is told
    if (outcome?.type === 'denied') {
      run.step = new Step(options.stepNumber, messages, stepActiveTools);
      return { ...result, model: deniedModel(outcome.reason) };
    }
    if (outcome?.type === 'changed') {
      messages = outcome.messages;
      instructions = outcome.instructions;
      if (outcome.activeTools !== undefined) {
        stepActiveTools = outcome.activeTools;
        (result ??= {}).activeTools = outcome.activeTools as StepResult['activeTools'];
      }
      if (outcome.settings !== undefined) Object.assign((result ??= {}), outcome.settings);
    }
    run.step = new Step(options.stepNumber, messages, stepActiveTools);
    if (messages !== options.messages) (result ??= {}).messages = messages;
    else if (result !== undefined) delete result.messages;
    if (instructions !== options.instructions) {
      (result ??= {}).instructions = instructions;
      delete result.system;
    }
    if (user?.model !== undefined) (result ??= {}).model = wrapModel(user.model);
    return result;
  };
}

/**
 * The history of a held turn's step without the calls whose answers are
 * held (their tool call and approval request): the pending calls have no
 * result yet, and no model reads them.
 */
function withoutHeldCalls(messages: StepOptions['messages'], held: readonly HeldAnswer[]): StepOptions['messages'] {
  const calls = new Set<object>(held.map(({ call }) => call));
  const requests = new Set(held.map(({ request }) => request.approvalId));
  const kept: StepOptions['messages'] = [];
  for (const message of messages) {
    if (message.role !== 'assistant' || typeof message.content === 'string') {
      kept.push(message);
      continue;
    }
    const content = message.content.filter(
      (part) => !calls.has(part) && !(part.type === 'tool-approval-request' && requests.has(part.approvalId)),
    );
    if (content.length === message.content.length) kept.push(message);
    else if (content.length > 0) kept.push({ ...message, content });
  }
  return kept;
}
