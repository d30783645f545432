import type { Context } from '@ai-sdk/provider-utils';
import {
  type Experimental_Steering,
  experimental_createSteering,
  type StepResult,
  type StopCondition,
  type ToolSet,
  type UserModelMessage,
} from 'ai';
import { InvalidHookResultError } from '../errors/invalid-hook-result-error.ts';
import type { HookEntry } from '../hooks/hook-registry.ts';
import { callHook, isNothing } from '../hooks/run-hooks.ts';
import type { MessageQueue } from '../queue/create-message-queue.ts';
import { type InjectedText, injectedMessage } from '../util/injected-text.ts';
import type { Run } from './run.ts';

type Stop = StopCondition<ToolSet, Context>;

/**
 * The loop options the wrappers add to `generateText` / `streamText`:
 * steering and follow-up queues, and a step cap.
 *
 * @example
 * ```ts
 * const steering = createMessageQueue();
 * const loop: LoopOptions = { steering, maxSteps: 10 };
 * const result = interventions.streamText({ model, tools, messages, ...loop });
 * steering.push('Use Paris, Texas instead.'); // delivered after the current turn's tool results
 * ```
 */
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
  run: Run;
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

  // the caller's conditions run once per step, whoever asks (stopWhen, or endTurn deciding whether to drain)
  let checked: { readonly count: number; readonly stops: Promise<boolean> } | undefined;
  const userStops = (all: readonly StepResult<ToolSet>[]) => {
    if (checked?.count !== all.length) {
      checked = {
        count: all.length,
        stops: Promise.all(conditions.map((condition) => condition({ steps: all as StepResult<ToolSet>[] }))).then((results) =>
          results.some(Boolean),
        ),
      };
    }
    return checked.stops;
  };
  const underCap = async () => (maxSteps !== undefined ? steps.length < maxSteps : !(await userStops(steps)));

  const drain = async (
    hooks: ReadonlyArray<HookEntry<'drainSteering' | 'drainFollowUp'>>,
    queue: MessageQueue | undefined,
    kind: InjectedText,
  ): Promise<UserModelMessage[]> => {
    const texts: string[] = [];
    const messages: UserModelMessage[] = [];
    for (const entry of hooks) {
      const result: unknown = await callHook(entry as HookEntry<'drainSteering'>, {
        steps,
        runtimeContext: run.runtimeContext,
        runId: run.runId,
      });
      const input = isInputObject(result) ? result.input : result;
      if (typeof input === 'string') {
        if (input.length > 0) texts.push(input);
      } else if (Array.isArray(input)) {
        messages.push(...(input as UserModelMessage[]));
      } else if (!isNothing(input)) {
        throw new InvalidHookResultError({
          hook: entry.label,
          received: result,
          expected: 'a string, an array of user messages, { input }, or nothing',
        });
      }
    }
    const joined: UserModelMessage[] = texts.length > 0 ? [{ role: 'user', content: texts.join('\n\n') }] : [];
    // not the user's words: labelled, for whoever reads whose words a message holds (flowPolicy)
    return [...joined, ...messages, ...((await queue?.drain()) ?? [])].map((message) => injectedMessage(message, kind));
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
      let messages = await drain(hooks.drainSteering, options.steering, 'steering');
      let type: 'steering' | 'follow-up' = 'steering';
      if (messages.length === 0 && step.toolCalls.every((call) => call.providerExecuted === true)) {
        messages = await drain(hooks.drainFollowUp, options.followUp, 'follow-up');
        type = 'follow-up';
      }
      if (messages.length === 0) return;
      forcedStep = step.stepNumber;
      for (const message of messages) void sdkSteering.steer(message);
      run.patch.inject(step.stepNumber, messages);
      await announce(type, messages);
    },
    afterResume: async () => {
      if (!(await underCap())) return [];
      const messages = await drain(run.snapshot.hooks.drainSteering, options.steering, 'steering');
      if (messages.length > 0) {
        run.patch.inject(-1, messages);
        await announce('steering', messages);
      }
      return messages;
    },
  };
}

/** Seed 002's `onAgentEnd` result shape: `{ input?: string }`. */
function isInputObject(value: unknown): value is { readonly input?: unknown } {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && 'input' in value;
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
