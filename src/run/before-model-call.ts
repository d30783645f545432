import type { Instructions, ModelMessage, StepResult, ToolSet } from 'ai';
import type { BeforeModelCallEvent, ModelCallSettings } from '../actions/intervention-events.ts';
import { cloneModelCallEvent } from '../handlers/drafts.ts';
import type { Verdict } from '../handlers/verdict.ts';
import { injectedMessage } from '../messages/injected-text.ts';
import { userMessage } from '../messages/user-message.ts';
import { isThenable } from '../util/is-thenable.ts';
import { evaluate } from './evaluate-and-report.ts';
import type { Run } from './run.ts';
import { SETTING_KEYS } from './setting-keys.ts';

/** What the `beforeModelCall` handlers made of a step. */
export type ModelCallOutcome =
  | { readonly type: 'denied'; readonly reason: string }
  | {
      readonly type: 'changed';
      readonly messages: ModelMessage[];
      readonly instructions: Instructions | undefined;
      /** The tools the model may call, when a transform changed them. */
      readonly activeTools: readonly string[] | undefined;
      /** The settings a transform changed, only those. */
      readonly settings: Partial<ModelCallSettings> | undefined;
    }
  | { readonly type: 'unchanged' };

const UNCHANGED: ModelCallOutcome = Object.freeze({ type: 'unchanged' });

/**
 * Evaluates the `beforeModelCall` handlers for one step: a deny ends the run
 * with the reason, a transform may change the messages, the instructions,
 * the active tools and the settings, a guide appends its feedback to the
 * messages as a user message.
 */
export function beforeModelCall(
  run: Run,
  { stepNumber, steps }: { readonly stepNumber: number; readonly steps: ReadonlyArray<StepResult<ToolSet>> },
  messages: ModelMessage[],
  instructions: Instructions | undefined,
  activeTools: readonly string[],
  settings: ModelCallSettings,
): ModelCallOutcome | Promise<ModelCallOutcome> {
  const event: BeforeModelCallEvent = {
    lifecycle: 'beforeModelCall',
    runtimeContext: run.runtimeContext,
    runId: run.runId,
    abortSignal: run.abortSignal,
    stepNumber,
    steps,
    messages,
    instructions,
    activeTools: activeTools as string[],
    settings,
  };
  const verdict = evaluate(run, event, cloneModelCallEvent);
  return isThenable(verdict) ? verdict.then((settled) => outcomeOf(run, event, settled)) : outcomeOf(run, event, verdict);
}

/** What a verdict changes in the step (`step`: the event evaluated, as the step had it). */
function outcomeOf(run: Run, step: BeforeModelCallEvent, verdict: Verdict<BeforeModelCallEvent>): ModelCallOutcome {
  switch (verdict.type) {
    case 'deny':
      return { type: 'denied', reason: verdict.reason };
    case 'proceed':
      return UNCHANGED;
    default: {
      const draft = verdict.event;
      let messages = draft.messages;
      if (verdict.type === 'guide') {
        messages = [
          ...messages,
          injectedMessage(userMessage(run.snapshot.wording.modelGuidance({ guidance: verdict.guidance })), 'guidance'),
        ];
      }
      let settings: Partial<ModelCallSettings> | undefined;
      for (const key of SETTING_KEYS) {
        if (draft.settings[key] !== step.settings[key]) (settings ??= {})[key] = draft.settings[key] as never;
      }
      return {
        type: 'changed',
        messages,
        instructions: verdict.transformed ? draft.instructions : step.instructions,
        activeTools: sameList(draft.activeTools, step.activeTools) ? undefined : draft.activeTools,
        settings,
      };
    }
  }
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, index) => item === b[index]);
}
