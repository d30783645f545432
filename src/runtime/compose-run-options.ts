import { getErrorMessage, type Context } from '@ai-sdk/provider-utils';
import {
  isStepCount,
  wrapLanguageModel,
  type LanguageModel,
  type ModelMessage,
  type PrepareStepFunction,
  type Experimental_Steering,
  type StepResult,
  type StopCondition,
  type ToolApprovalConfiguration,
  type ToolCallRepairFunction,
  type ToolSet,
} from 'ai';
import { resolveLanguageModel } from 'ai/internal';
import type { ModelCallSettings } from '../handlers/intervention-events.ts';
import type { ChatResponse } from '../hooks/hook-types.ts';
import { runOnToolCallError } from '../hooks/run-hooks.ts';
import { getOwn } from '../util/get-own.ts';
import { rewriteErrorText } from '../util/rewrite-error-text.ts';
import { createModelMiddleware } from './create-model-middleware.ts';
import { guardToolSet } from './guard-tool-set.ts';
import { needsExecuteGuard } from './guard-execute.ts';
import type { InterventionsRun } from './interventions-run.ts';
import { createLoopControl, type LoopOptions } from './loop-control.ts';
import { createRunPrepareStep } from './run-prepare-step.ts';
import { createRunToolApproval } from './run-tool-approval.ts';
import { SETTING_KEYS } from './setting-keys.ts';

/** The options of `generateText` / `streamText`, as far as the runtime touches them. */
export interface CallOptions {
  model: LanguageModel;
  tools?: ToolSet;
  toolApproval?: ToolApprovalConfiguration<ToolSet, Context>;
  prepareStep?: PrepareStepFunction<ToolSet, Context>;
  repairToolCall?: ToolCallRepairFunction<ToolSet>;
  experimental_repairToolCall?: ToolCallRepairFunction<ToolSet>;
  activeTools?: readonly string[];
  abortSignal?: AbortSignal;
  runtimeContext?: Context;
  prompt?: string | ModelMessage[];
  messages?: ModelMessage[];
  onStepEnd?: (step: StepResult<ToolSet>) => unknown;
  onStepFinish?: (step: StepResult<ToolSet>) => unknown;
  stopWhen?: StopCondition<ToolSet, Context> | readonly StopCondition<ToolSet, Context>[];
  experimental_steering?: Experimental_Steering;
  experimental_toolApprovalSecret?: string | Uint8Array;
  steering?: LoopOptions['steering'];
  followUp?: LoopOptions['followUp'];
  maxSteps?: LoopOptions['maxSteps'];
  [option: string]: unknown;
}

/**
 * The SDK options of a run: the caller's options, with each extension point
 * the run needs composed in front of the caller's own (their `prepareStep`,
 * `toolApproval`, `repairToolCall` and callbacks still run). A layer that no
 * hook or handler uses is not installed.
 */
export function composeRunOptions<OPTIONS extends CallOptions>(
  run: InterventionsRun,
  options: OPTIONS,
): OPTIONS {
  const { hooks, handlers } = run.snapshot;
  const composed: CallOptions = { ...options };

  if (run.droppedApprovals.length > 0) {
    if (options.messages !== undefined) composed.messages = [...run.inputMessages];
    else composed.prompt = [...run.inputMessages];
  }

  const needsModel =
    hooks.preRequest.length > 0 ||
    hooks.onResponse.length > 0 ||
    handlers.afterModelCall.length > 0 ||
    handlers.beforeInvocation.length > 0 ||
    hooks.onStatus.length > 0 ||
    hooks.onChatError.length > 0 ||
    run.snapshot.redactors.length > 0 ||
    run.decidesToolCalls;
  const wrapped = new WeakMap<object, LanguageModel>();
  const wrapModel = (model: LanguageModel): LanguageModel => {
    if (!needsModel) return model;
    const resolved = resolveLanguageModel(model);
    let result = wrapped.get(resolved);
    if (result === undefined) {
      result = wrapLanguageModel({ model: resolved, middleware: createModelMiddleware(() => run) });
      wrapped.set(resolved, result);
    }
    return result;
  };
  composed.model = wrapModel(options.model);

  if (options.tools !== undefined && (needsExecuteGuard(run) || handlers.beforeInvocation.length > 0)) {
    composed.tools = guardToolSet(options.tools, () => run);
  }
  if (run.decidesToolCalls || run.approvedToolCalls.size > 0) {
    composed.toolApproval = createRunToolApproval({ run, toolApproval: options.toolApproval });
  }
  if (hooks.onToolCallError.length > 0) {
    composed.repairToolCall = createRunRepair(run, options.repairToolCall ?? options.experimental_repairToolCall);
    delete composed.experimental_repairToolCall;
  }

  const loop = needsLoopControl(run, options)
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
  } else if (swallowsFailures(run)) {
    composed.stopWhen = continueOnFailure(run, asArray(options.stopWhen ?? isStepCount(1)));
  }
  delete composed.steering;
  delete composed.followUp;
  delete composed.maxSteps;

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
    afterResume: loop?.afterResume,
  });

  if (hooks.onMessage.length > 0 || loop !== undefined) {
    const user = options.onStepEnd ?? options.onStepFinish;
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

  if (run.snapshot.approvalSecret !== undefined && options.experimental_toolApprovalSecret === undefined) {
    composed.experimental_toolApprovalSecret = run.snapshot.approvalSecret;
  }
  return composed as OPTIONS;
}

/**
 * Whether a hook or handler runs where the SDK swallows what it throws
 * (inside a tool, a repair, a step callback): such a failure is recorded and
 * the run ends with it at the next stop check.
 */
function swallowsFailures(run: InterventionsRun): boolean {
  const { hooks, handlers } = run.snapshot;
  return (
    hooks.preToolCall.length > 0 ||
    hooks.onToolCallResult.length > 0 ||
    hooks.onToolCallError.length > 0 ||
    hooks.onMessage.length > 0 ||
    hooks.onStatus.length > 0 ||
    handlers.afterToolCall.length > 0
  );
}

/**
 * The stop conditions, except that a run holding a failure the SDK swallowed
 * goes on to its next `prepareStep`, which ends it with that failure (the
 * SDK reports an error thrown there like a provider error; one thrown from
 * `stopWhen` would end a stream without any callback).
 */
function continueOnFailure(
  run: InterventionsRun,
  conditions: readonly StopCondition<ToolSet, Context>[],
): StopCondition<ToolSet, Context> {
  return async (options) => {
    if (run.failed !== undefined) return false;
    const results = await Promise.all(conditions.map((condition) => condition(options)));
    return results.some(Boolean);
  };
}

function asArray<T>(value: T | readonly T[]): readonly T[] {
  return Array.isArray(value) ? value : [value as T];
}

/** Whether the call uses steering, follow-up or a step cap (options or hooks). */
export function needsLoopControl(run: InterventionsRun, options: CallOptions): boolean {
  const { hooks } = run.snapshot;
  return (
    options.steering !== undefined ||
    options.followUp !== undefined ||
    options.maxSteps !== undefined ||
    hooks.drainSteering.length > 0 ||
    hooks.drainFollowUp.length > 0
  );
}

/**
 * `onToolCallError` for calls that never reach `execute` (unknown tool,
 * invalid input): the SDK hands them to `repairToolCall`. The caller's repair
 * runs first; if it does not repair the call, the hooks see the SDK's error
 * and may replace it: the replacement is what the model reads next, and
 * what every record of the step carries.
 */
function createRunRepair(
  run: InterventionsRun,
  repair: ToolCallRepairFunction<ToolSet> | undefined,
): ToolCallRepairFunction<ToolSet> {
  return async (options) => {
    const repaired = repair === undefined ? null : await repair(options);
    if (repaired != null) return repaired;
    const { toolCall } = options;
    const error = await run.critical(() =>
      runOnToolCallError(run.snapshot.hooks.onToolCallError, {
        call: { toolCallId: toolCall.toolCallId, toolName: toolCall.toolName, input: parseInput(toolCall.input) },
        tool: getOwn(run.tools, toolCall.toolName),
        error: options.error,
        messages: options.messages,
        runtimeContext: run.runtimeContext,
        runId: run.runId,
        toolContext: undefined,
        stepNumber: run.stepNumber,
        abortSignal: run.abortSignal,
      }),
    );
    // the SDK reports the error it passed here: make it read as the replacement everywhere
    // (the next request, steps, responseMessages, onMessage, the UI stream)
    if (error !== options.error) rewriteErrorText(options.error, getErrorMessage(error));
    return null;
  };
}

function parseInput(input: string): unknown {
  try {
    return JSON.parse(input);
  } catch {
    return input;
  }
}

/** What `onChatDone` reports, from a result or an `onEnd` event. */
export function chatResponseOf(result: {
  readonly text: string;
  readonly finishReason: ChatResponse['finishReason'];
  readonly usage: ChatResponse['usage'];
  readonly steps: ChatResponse['steps'];
  readonly responseMessages: ChatResponse['responseMessages'];
}): ChatResponse {
  return {
    text: result.text,
    finishReason: result.finishReason,
    usage: result.usage,
    steps: result.steps,
    responseMessages: result.responseMessages,
  };
}
