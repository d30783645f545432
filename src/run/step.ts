import type { ModelMessage } from 'ai';
import type { ToolCallInfo } from '../actions/intervention-events.ts';
import type { ToolCallDecision } from './tool-call-decision.ts';

/** The call a decision is for, as the step's decision table matches it. */
export type CallKey = Pick<ToolCallInfo, 'toolCallId' | 'toolName'>;

/**
 * One step of a run, as the run's hooks and handlers see it: its number,
 * the messages the model is sent, the tools it may call, and the decision
 * taken for each of its tool calls, written where calls are decided ahead
 * of the SDK (`write`: the model layer, a standalone tool's `needsApproval`)
 * and read once by whoever applies it (`take`: the run's `toolApproval`, or
 * a standalone tool's `execute`). A decision is for one call, found by its
 * tool and its id (an id of its own within the step where the run sees the
 * response, see `uniqueToolCallIds`). A second decision for the same tool
 * and id replaces nothing: the call can no longer be told apart, and `take`
 * answers `'ambiguous'` for every call with that tool and id (the caller
 * denies them). A run resuming approvals starts with a step of its own
 * (`number` undefined): the approved calls run before step 0.
 */
export class Step {
  readonly number: number | undefined;
  readonly messages: ModelMessage[];
  /** The tools the model may call in this step (`undefined`: all). */
  readonly activeTools: readonly string[] | undefined;
  /** The decision table, made at the first write: `[toolName, toolCallId, decision]` per call, flat (a step has few calls). */
  private decisions: (string | ToolCallDecision | typeof AMBIGUOUS)[] | undefined;
  /** The calls decided as the SDK handed them over, `[toolName, toolCallId]` flat (see {@link firstWithId}). */
  private seen: string[] | undefined;

  constructor(number: number | undefined, messages: ModelMessage[], activeTools?: readonly string[]) {
    this.number = number;
    this.messages = messages;
    this.activeTools = activeTools;
  }

  /** Records the decision for a call of this step. */
  write(call: CallKey, decision: ToolCallDecision): void {
    const table = this.decisions;
    // a step's first call makes a table its size (a step has one call, as a rule)
    if (table === undefined) this.decisions = [call.toolName, call.toolCallId, decision];
    else {
      const at = indexOf(table, call);
      if (at === -1) table.push(call.toolName, call.toolCallId, decision);
      else table[at + 2] = AMBIGUOUS;
    }
  }

  /**
   * Whether this is the first call of the step with this tool and id that
   * the run decides as the SDK hands it over (a streamed call no hold gave
   * an id of its own): a later one cannot be told apart from it (the caller
   * denies it).
   */
  firstWithId({ toolName, toolCallId }: CallKey): boolean {
    const seen = (this.seen ??= []);
    for (let at = 0; at < seen.length; at += 2) if (seen[at] === toolName && seen[at + 1] === toolCallId) return false;
    seen.push(toolName, toolCallId);
    return true;
  }

  /**
   * The decision for exactly this call, removed from the table (it is
   * applied once): `undefined` when none was written, `'ambiguous'` when
   * one was written for more than one call with this tool and id.
   */
  take(call: CallKey): ToolCallDecision | 'ambiguous' | undefined {
    const table = this.decisions;
    const at = table === undefined ? -1 : indexOf(table, call);
    if (at === -1) return undefined;
    const decision = (table as unknown[])[at + 2] as ToolCallDecision | typeof AMBIGUOUS;
    if (decision === AMBIGUOUS) return 'ambiguous';
    // the table's only call (a step has one, as a rule): nothing to cut out
    if (table?.length === 3) this.decisions = undefined;
    else (table as unknown[]).splice(at, 3);
    return decision;
  }
}

const AMBIGUOUS = Symbol('ambiguous');

/** Where a call's entry starts in a decision table, or -1. */
function indexOf(table: readonly unknown[], { toolName, toolCallId }: CallKey): number {
  for (let at = 0; at < table.length; at += 3) if (table[at] === toolName && table[at + 1] === toolCallId) return at;
  return -1;
}
