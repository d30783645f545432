import type { ModelMessage } from 'ai';
import type { ToolCallDecision } from './tool-call-decision.ts';

/**
 * One step of a run, as the run's hooks and handlers see it: its number,
 * the messages the model is sent, the tools it may call, and the decision
 * taken for each of its tool calls, written by `decideToolCall` (`write`)
 * and read once by whoever applies it (`take`: the run's `toolApproval`, or
 * a standalone tool's `execute`). A run resuming approvals starts with a
 * step of its own (`number` undefined): the approved calls run before step 0.
 */
export class Step {
  readonly number: number | undefined;
  readonly messages: ModelMessage[];
  /** The tools the model may call in this step (`undefined`: all). */
  readonly activeTools: readonly string[] | undefined;
  // most steps have one call: its decision has a slot of its own, a map holds the rest
  private firstId: string | undefined;
  private first: ToolCallDecision | undefined;
  private others: Map<string, ToolCallDecision> | undefined;

  constructor(number: number | undefined, messages: ModelMessage[], activeTools?: readonly string[]) {
    this.number = number;
    this.messages = messages;
    this.activeTools = activeTools;
  }

  /** Records the decision for a call of this step. */
  write(toolCallId: string, decision: ToolCallDecision): void {
    if (this.first === undefined || this.firstId === toolCallId) {
      this.firstId = toolCallId;
      this.first = decision;
    } else {
      (this.others ??= new Map()).set(toolCallId, decision);
    }
  }

  /** The decision for a call, removed from the table (it is applied once). */
  take(toolCallId: string): ToolCallDecision | undefined {
    if (this.firstId === toolCallId && this.first !== undefined) {
      const decision = this.first;
      this.first = undefined;
      this.firstId = undefined;
      return decision;
    }
    const decision = this.others?.get(toolCallId);
    if (decision !== undefined) this.others?.delete(toolCallId);
    return decision;
  }
}
