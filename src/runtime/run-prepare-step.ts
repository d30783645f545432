import type { Context } from '@ai-sdk/provider-utils';
import type {
  LanguageModel,
  ModelMessage,
  PrepareStepFunction,
  PrepareStepResult,
  ToolSet,
  UserModelMessage,
} from 'ai';
import type {
  BeforeModelCallEvent,
  ModelCallSettings,
} from '../handlers/intervention-events.ts';
import { runTransformContext } from '../hooks/run-hooks.ts';
import { keepToolPairs } from '../util/keep-tool-pairs.ts';
import { userMessage } from '../util/user-message.ts';
import { deniedModel } from './denied-model.ts';
import { cloneModelCallEvent } from './drafts.ts';
import type { Run } from './run.ts';
import { SETTING_KEYS } from './setting-keys.ts';
import { createStep } from './step.ts';

type StepOptions = Parameters<PrepareStepFunction<ToolSet, Context>>[0];
type StepResult = NonNullable<PrepareStepResult<ToolSet, Context>>;

/**
 * The run's `prepareStep`: starts the run, applies what `beforeInvocation`
 * changed (step 0), calls the user's `prepareStep`, then `transformContext` hooks, then the
 * `beforeModelCall` handlers, and records
 * where the loop is (step, messages, active tools) for the later phases.
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
  return async (options: StepOptions) => {
    const starting = run.ensureStarted();
    if (starting !== undefined) await starting;
    // a hook that failed where the SDK swallows errors ends the run here
    if (run.failed !== undefined) await run.throwIfFailed();
    run.runtimeContext = options.runtimeContext;

    let messages = options.messages;
    let instructions = options.instructions;
    let messagesChanged = false;
    let instructionsChanged = false;

    if (options.stepNumber === 0) {
      // on resume, the approved calls' results precede step 0:
      await run.critical(() => run.commitMessages(options.responseMessages));
      const invocation = run.invocation;
      if (invocation?.messages !== undefined) {
        messages = [
          ...invocation.messages,
          ...messages.slice(options.initialMessages.length),
        ];
        messagesChanged = true;
      }
      if (invocation?.instructionsChanged) {
        instructions = invocation.instructions;
        instructionsChanged = true;
      }
      if (options.responseMessages.length > 0 && afterResume !== undefined) {
        const steering = await run.critical(afterResume);
        if (steering.length > 0) {
          messages = [...messages, ...steering];
          messagesChanged = true;
        }
      }
    }

    const user: StepResult | undefined = prepareStep
      ? ((await prepareStep({ ...options, model: unwrapModel(options.model), messages, instructions })) ?? undefined)
      : undefined;
    const result: StepResult = { ...user };
    if (user?.messages !== undefined) {
      messages = user.messages;
      messagesChanged = true;
    }
    const userInstructions = user?.instructions ?? user?.system;
    if (userInstructions !== undefined) {
      instructions = userInstructions;
      instructionsChanged = true;
    }
    if (user?.runtimeContext !== undefined && user.runtimeContext !== run.runtimeContext) {
      run.runtimeContext = user.runtimeContext;
      run.onRuntimeContext?.(user.runtimeContext);
    }

    const { transformContext } = run.snapshot.hooks;
    if (transformContext.length > 0) {
      const transformed = await run.critical(() =>
        runTransformContext(transformContext, {
          messages,
          stepNumber: options.stepNumber,
          runtimeContext: run.runtimeContext,
          runId: run.runId,
          abortSignal: run.abortSignal,
        }),
      );
      if (transformed !== messages) {
        // a window that cut a tool call must not leave its result behind
        messages = keepToolPairs(transformed);
        messagesChanged = true;
      }
    }

    let stepActiveTools: readonly string[] | undefined =
      (user?.activeTools as readonly string[] | undefined) ?? activeTools;
    const removed = run.invocation?.removedTools;
    if (removed !== undefined && removed.size > 0) {
      stepActiveTools = (stepActiveTools ?? Object.keys(run.tools ?? {})).filter(
        (name) => !removed.has(name),
      );
      result.activeTools = stepActiveTools as StepResult['activeTools'];
    }

    if (run.snapshot.handlers.beforeModelCall.length > 0) {
      const stepSettings: ModelCallSettings = { ...settings };
      for (const key of SETTING_KEYS) {
        if (user?.[key] !== undefined) Object.assign(stepSettings, { [key]: user[key] });
      }
      const event: BeforeModelCallEvent = {
        lifecycle: 'beforeModelCall',
        runtimeContext: run.runtimeContext,
        runId: run.runId,
        abortSignal: run.abortSignal,
        stepNumber: options.stepNumber,
        steps: options.steps,
        messages,
        instructions,
        activeTools: [...(stepActiveTools ?? Object.keys(run.tools ?? {}))],
        settings: stepSettings,
      };
      const verdict = await run.evaluate({
        event,
        makeDraft: cloneModelCallEvent,
        subject: { stepNumber: options.stepNumber },
      });
      if (verdict.type === 'deny') {
        run.step = createStep({ number: options.stepNumber, messages, activeTools: stepActiveTools });
        return { ...result, model: deniedModel(verdict.reason) };
      }
      if (verdict.transformed) {
        const draft = verdict.event;
        messages = draft.messages;
        messagesChanged = true;
        instructions = draft.instructions;
        instructionsChanged = true;
        if (!sameList(draft.activeTools, event.activeTools)) {
          stepActiveTools = draft.activeTools;
          result.activeTools = draft.activeTools as StepResult['activeTools'];
        }
        for (const key of SETTING_KEYS) {
          if (draft.settings[key] !== stepSettings[key]) {
            Object.assign(result, { [key]: draft.settings[key] });
          }
        }
      }
      if (verdict.type === 'guide') {
        messages = [
          ...messages,
          userMessage(run.snapshot.wording.modelGuidance({ guidance: verdict.guidance })),
        ];
        messagesChanged = true;
      }
    }

    run.step = createStep({ number: options.stepNumber, messages, activeTools: stepActiveTools });
    if (messagesChanged) result.messages = messages;
    else delete result.messages;
    if (instructionsChanged) {
      result.instructions = instructions;
      delete result.system;
    }
    if (user?.model !== undefined) result.model = wrapModel(user.model);
    return result;
  };
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, index) => item === b[index]);
}
