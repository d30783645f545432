import type { ModelMessage } from 'ai';
import type { ToolCallDecision } from './tool-call-decision.ts';

/**
 * One step of a run, as the run's hooks and handlers see it: its number,
 * the messages the model is sent, the tools it may call, and the decision
 * taken for each of its tool calls (written by `decideToolCall`, read by the
 * run's `toolApproval`). A run resuming approvals starts with a step of its
 * own (`number` undefined): the approved calls run before step 0.
 */
export interface Step {
  readonly number: number | undefined;
  readonly messages: ModelMessage[];
  /** The tools the model may call in this step (`undefined`: all). */
  readonly activeTools: readonly string[] | undefined;
  readonly decisions: Map<string, ToolCallDecision>;
}

/** A step with no decisions yet. */
export function createStep({
  number,
  messages,
  activeTools,
}: {
  readonly number: number | undefined;
  readonly messages: ModelMessage[];
  readonly activeTools?: readonly string[] | undefined;
}): Step {
  return { number, messages, activeTools, decisions: new Map() };
}
