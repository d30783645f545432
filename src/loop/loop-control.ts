import type { Context } from '@ai-sdk/provider-utils';
import {
  type Experimental_Steering,
  experimental_createSteering,
  type StepResult,
  type StopCondition,
  type ToolSet,
  type UserModelMessage,
} from 'ai';
import type { MessageQueue } from '../queue/create-message-queue.ts';
import type { Run } from '../run/run.ts';
import { onDemand } from '../util/on-demand.ts';
import type { LoopTurns } from './loop-turns.ts';

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
 * nothing is lost when it pauses for an approval or reaches its cap. What
 * ends a turn (draining, injecting: `loop-turns.ts`) loads with the first
 * turn that ends; `stopWhen` is answered here.
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

  // the caller's conditions run once per step, whoever asks (stopWhen, or endTurn deciding whether to drain)
  let checked: { readonly count: number; readonly stops: Promise<boolean> } | undefined;
  const loop: LoopTurns = {
    run,
    maxSteps,
    queues: { steering: options.steering, followUp: options.followUp },
    steps: [],
    steering: steering ?? experimental_createSteering(),
    forcedStep: undefined,
    userStops: (all) => {
      if (checked?.count !== all.length) {
        checked = {
          count: all.length,
          stops: Promise.all(conditions.map((condition) => condition({ steps: all as StepResult<ToolSet>[] }))).then((results) =>
            results.some(Boolean),
          ),
        };
      }
      return checked.stops;
    },
  };

  return {
    stopWhen: async ({ steps: all }) => {
      if (maxSteps !== undefined && all.length >= maxSteps) return true;
      const last = all.at(-1);
      if (last !== undefined && loop.forcedStep === last.stepNumber) return false;
      return loop.userStops(all);
    },
    steering: loop.steering,
    endTurn: async (step) => {
      loop.steps.push(step);
      const { endTurn } = await loopTurns();
      return endTurn(loop, step);
    },
    afterResume: async () => {
      const { afterResume } = await loopTurns();
      return afterResume(loop);
    },
  };
}

/** The code that ends a turn, loaded once, with the first turn that ends. */
const loopTurns = onDemand(() => import('./loop-turns.ts'));

function stepCount(count: number): Stop {
  return ({ steps }) => steps.length >= count;
}
