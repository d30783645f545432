import type { Experimental_Steering, StepResult, ToolSet, UserModelMessage } from 'ai';
import { InvalidHookResultError } from '../errors/invalid-hook-result-error.ts';
import type { HookEntry } from '../hooks/hook-registry.ts';
import { callHook, isNothing } from '../hooks/run-hooks.ts';
import { type InjectedText, injectedMessage } from '../messages/injected-text.ts';
import type { MessageQueue } from '../queue/create-message-queue.ts';
import type { Run } from '../run/run.ts';

/** A run's loop as `createLoopControl` keeps it (`loop-control.ts`), read and written by the end of each turn. */
export interface LoopTurns {
  readonly run: Run;
  /** The step cap (`maxSteps`), if any. */
  readonly maxSteps: number | undefined;
  readonly queues: { readonly steering: MessageQueue | undefined; readonly followUp: MessageQueue | undefined };
  /** The steps ended so far. */
  readonly steps: StepResult<ToolSet>[];
  /** The steering object the SDK delivers end-of-turn injections through. */
  readonly steering: Experimental_Steering;
  /** The step after which injected messages forced the run on (its `stopWhen` answers no). */
  forcedStep: number | undefined;
  /** Whether the caller's conditions stop the run after `all`. */
  userStops(all: readonly StepResult<ToolSet>[]): Promise<boolean>;
}

/** The end of a step (`step` already in `loop.steps`): the queues drained and injected when the run goes on. */
export async function endTurn(loop: LoopTurns, step: StepResult<ToolSet>): Promise<void> {
  if (isWaitingForToolResults(step) || step.finishReason === 'error' || !(await underCap(loop))) return;
  const { hooks } = loop.run.snapshot;
  let messages = await drain(loop, hooks.drainSteering, loop.queues.steering, 'steering');
  let type: 'steering' | 'follow-up' = 'steering';
  if (messages.length === 0 && step.toolCalls.every((call) => call.providerExecuted === true)) {
    messages = await drain(loop, hooks.drainFollowUp, loop.queues.followUp, 'follow-up');
    type = 'follow-up';
  }
  if (messages.length === 0) return;
  loop.forcedStep = step.stepNumber;
  for (const message of messages) void loop.steering.steer(message);
  loop.run.patch.inject(step.stepNumber, messages);
  await announce(loop.run, type, messages);
}

/** Before step 0 of a resumed run (the paused turn's results are in): the steering drained. */
export async function afterResume(loop: LoopTurns): Promise<UserModelMessage[]> {
  if (!(await underCap(loop))) return [];
  const messages = await drain(loop, loop.run.snapshot.hooks.drainSteering, loop.queues.steering, 'steering');
  if (messages.length > 0) {
    loop.run.patch.inject(-1, messages);
    await announce(loop.run, 'steering', messages);
  }
  return messages;
}

async function underCap(loop: LoopTurns): Promise<boolean> {
  return loop.maxSteps !== undefined ? loop.steps.length < loop.maxSteps : !(await loop.userStops(loop.steps));
}

async function drain(
  loop: LoopTurns,
  hooks: ReadonlyArray<HookEntry<'drainSteering' | 'drainFollowUp'>>,
  queue: MessageQueue | undefined,
  kind: InjectedText,
): Promise<UserModelMessage[]> {
  const { run, steps } = loop;
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
}

async function announce(run: Run, type: 'steering' | 'follow-up', messages: UserModelMessage[]): Promise<void> {
  await run.commitMessages(messages);
  await run.status({ type, messages });
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
