import type { Context } from '@ai-sdk/provider-utils';
import {
  experimental_createSteering,
  type Experimental_Steering,
  type StepResult,
  type StopCondition,
  type ToolSet,
  type UserModelMessage,
} from 'ai';
import type { DrainResult, InterventionHooks } from '../hooks/hook-types.ts';
import type { HookEntry } from '../hooks/hook-registry.ts';
import { runObservers } from '../hooks/run-hooks.ts';
import type { MessageQueue } from '../queue/create-message-queue.ts';
import type { InterventionsRun } from './interventions-run.ts';

type Stop = StopCondition<ToolSet, Context>;

/** The loop options the wrappers add to `generateText` / `streamText`. */
export interface LoopOptions {
  /**
   * Messages fed while the run is in flight, injected once per turn right
   * after the turn's tool results (they keep the run going, even past a
   * `stopWhen`, never past `maxSteps`).
   */
  readonly steering?: MessageQueue;
  /** Messages that continue the run when it would end with a final answer. */
  readonly followUp?: MessageQueue;
  /**
   * The step cap: steering and follow-up never take the run past it. Without
   * it, the call's `stopWhen` is the cap. With it and no `stopWhen`, the run
   * stops after `maxSteps` steps.
   */
  readonly maxSteps?: number;
}

/** Where the run's loop is told to stop or go on. */
export interface LoopControl {
  /** The composed `stopWhen`. */
  readonly stopWhen: Stop;
  /** The steering object the SDK delivers end-of-turn injections through. */
  readonly steering: Experimental_Steering;
  /** Called at the end of every step (from `onStepEnd`). */
  endTurn(step: StepResult<ToolSet>): Promise<void>;
  /** Called before step 0 of a resumed run: the paused turn's results are in. */
  afterResume(): Promise<UserModelMessage[]>;
}

/**
 * Steering and follow-up for a run (seed 003's `drainSteering` /
 * `drainFollowUp`): the queues are only drained when the run will go on, so
 * nothing is lost when it pauses for an approval or reaches its cap.
 */
export function createLoopControl({
  run,
  options,
  stopWhen,
  steering,
}: {
  run: InterventionsRun;
  options: LoopOptions;
  stopWhen: Stop | readonly Stop[] | undefined;
  steering: Experimental_Steering | undefined;
}): LoopControl {
  const { maxSteps } = options;
  const conditions: readonly Stop[] =
    stopWhen === undefined ? [stepCount(maxSteps ?? 1)] : Array.isArray(stopWhen) ? stopWhen : [stopWhen as Stop];
  const steps: StepResult<ToolSet>[] = [];
  const sdkSteering = steering ?? experimental_createSteering();
  let forcedStep: number | undefined;

  const userStops = async (all: readonly StepResult<ToolSet>[]) => {
    for (const condition of conditions) {
      if (await condition({ steps: all as StepResult<ToolSet>[] })) return true;
    }
    return false;
  };
  const underCap = async () =>
    maxSteps !== undefined ? steps.length < maxSteps : !(await userStops(steps));

  const drain = async (
    hooks: ReadonlyArray<HookEntry<'drainSteering' | 'drainFollowUp'>>,
    queue: MessageQueue | undefined,
  ): Promise<UserModelMessage[]> => {
    const texts: string[] = [];
    const messages: UserModelMessage[] = [];
    for (const { hook } of hooks) {
      const result: DrainResult = await (hook as InterventionHooks['drainSteering'])({
        steps,
        runtimeContext: run.runtimeContext,
      });
      if (typeof result === 'string') {
        if (result.length > 0) texts.push(result);
      } else if (result !== undefined) {
        messages.push(...result);
      }
    }
    const joined: UserModelMessage[] = texts.length > 0 ? [{ role: 'user', content: texts.join('\n\n') }] : [];
    return [...joined, ...messages, ...(queue?.drain() ?? [])];
  };

  const announce = async (type: 'steering' | 'follow-up', messages: UserModelMessage[]) => {
    await run.commitMessages(messages);
    await run.status({ type, messages });
  };

  return {
    stopWhen: async ({ steps: all }) => {
      if (maxSteps !== undefined && all.length >= maxSteps) return true;
      const last = all.at(-1);
      if (last !== undefined && forcedStep === last.stepNumber) return false;
      return userStops(all);
    },
    steering: sdkSteering,
    endTurn: async (step) => {
      steps.push(step);
      if (isWaitingForToolResults(step) || step.finishReason === 'error' || !(await underCap())) return;
      const { hooks } = run.snapshot;
      let messages = await drain(hooks.drainSteering, options.steering);
      let type: 'steering' | 'follow-up' = 'steering';
      if (messages.length === 0 && step.toolCalls.every((call) => call.providerExecuted === true)) {
        messages = await drain(hooks.drainFollowUp, options.followUp);
        type = 'follow-up';
      }
      if (messages.length === 0) return;
      forcedStep = step.stepNumber;
      for (const message of messages) void sdkSteering.steer(message);
      await announce(type, messages);
    },
    afterResume: async () => {
      if (!(await underCap())) return [];
      const messages = await drain(run.snapshot.hooks.drainSteering, options.steering);
      if (messages.length > 0) await announce('steering', messages);
      return messages;
    },
  };
}

/** Whether the step ended with calls still waiting for a result (an approval, a client tool). */
function isWaitingForToolResults(step: StepResult<ToolSet>): boolean {
  const answered = new Set<string>();
  for (const part of step.content) {
    if (part.type === 'tool-result' || part.type === 'tool-error') answered.add(part.toolCallId);
    if (part.type === 'tool-approval-response' && !part.approved) answered.add(part.toolCall.toolCallId);
  }
  return step.toolCalls.some((call) => call.providerExecuted !== true && !answered.has(call.toolCallId));
}

function stepCount(count: number): Stop {
  return ({ steps }) => steps.length >= count;
}
