import type { ModelMessage } from 'ai';
import type { ToolCallInfo } from '../actions/intervention-events.ts';
import type { ToolCallDecision } from './tool-call-decision.ts';

/** The call a decision is for, as the step's decision table matches it. */
export type CallKey = Pick<ToolCallInfo, 'toolCallId' | 'toolName'>;

/**
 * One call's entry in its step's decision table: its decision (settled or
 * under way), whether the point that applies it took it already, and
 * whether more than one call of the step had its tool and id.
 */
export interface DecidedCall {
  readonly decision: Promise<ToolCallDecision>;
  /** Whether the decision was asked ahead of the point that applies it (the model layer, a plain tool's `needsApproval`). */
  readonly ahead: boolean;
  /** Whether the point that applies the decision took it. */
  taken: boolean;
  /** More than one call of the step had this tool and id: none can be told apart, so none runs. */
  ambiguous: boolean;
}

/**
 * One step of a run, as its hooks and handlers see it: its number, the
 * messages the model is sent, the tools it may call, and the decision
 * table of its tool calls, keyed by each call's tool and id (an id of its
 * own within the step where the run sees the response first). The table
 * is state; the one owner of a call's decision (`decisionOf`) is the only
 * code that reads or writes it. A run resuming approvals starts with a step
 * of its own (`number` undefined): the approved calls run before step 0.
 */
export class Step {
  readonly number: number | undefined;
  readonly messages: ModelMessage[];
  /** The tools the model may call in this step (`undefined`: all). */
  readonly activeTools: readonly string[] | undefined;
  /** The decision table (made at the first call: most steps have none). */
  private table: Map<string, DecidedCall> | undefined;

  constructor(number: number | undefined, messages: ModelMessage[], activeTools?: readonly string[]) {
    this.number = number;
    this.messages = messages;
    this.activeTools = activeTools;
  }

  /** The entry of a call of this step, if it was decided. */
  entry({ toolName, toolCallId }: CallKey): DecidedCall | undefined {
    return this.table?.get(`${toolName}\u0000${toolCallId}`);
  }

  /** Keeps a call's entry. */
  keep({ toolName, toolCallId }: CallKey, entry: DecidedCall): void {
    (this.table ??= new Map()).set(`${toolName}\u0000${toolCallId}`, entry);
  }
}
