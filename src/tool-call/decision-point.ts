import type { ResumedApproval } from '../approvals/read-resume.ts';
import type { Run } from '../run/run.ts';
import type { ToolCallDecision } from '../run/tool-call-decision.ts';

/**
 * Where a tool call is decided, answered in one place:
 *
 * - **the model layer** (`decideTurn`, from the model middleware): every
 *   well-formed client call of a model response, `generateText` and
 *   `streamText` alike, before the SDK parses it, when the run decides tool
 *   calls at all (`beforeToolCall` handlers or `gateToolCalls` hooks); the
 *   decision is written into the step's table, keyed by the call's identity.
 *   A streamed call is decided as soon as its `tool-call` part comes (when
 *   the SDK would ask its own `toolApproval`; its tools run at the step's
 *   end either way), or with the turn at the provider's finish when
 *   `gateToolCalls` hooks must see the turn's calls together
 *   ({@link decidesWithTurn}; `holdToolCalls`);
 * - **`toolApproval`** (`createRunToolApproval`): the only reader of that
 *   table, and the decider of what the model layer did not decide: a call
 *   the SDK repaired, or a call a person approved (resumed before step 0);
 * - **`execute`** (`guardToolsStandalone`): tools guarded without a run
 *   (`wrapTools` / `guardTools` with the plain SDK) decide inside the tool.
 *
 * A call that reaches `toolApproval` without a decision it can tell is its
 * own is denied with a record (fail closed), never run.
 */
export type DecisionPoint = 'model-layer' | 'tool-approval' | 'execute';

/** Whether the model layer decides a response's tool calls (see {@link DecisionPoint}). */
export function decidesInModelLayer(run: Run): boolean {
  return run.decidesToolCalls;
}

/**
 * Whether a streamed step's calls are decided together at the provider's
 * finish (`gateToolCalls` hooks see the turn), rather than each as it comes
 * (see {@link DecisionPoint}).
 */
export function decidesWithTurn(run: Run): boolean {
  return run.snapshot.hooks.gateToolCalls.length > 0;
}

/**
 * Whether `toolApproval` decides a call itself: the model layer left it
 * undecided (`taken` is `undefined`) and it is a resumed call, or the run
 * decides tool calls (a call the SDK repaired).
 */
export function decidesInToolApproval(run: Run, taken: ToolCallDecision | undefined, approval: ResumedApproval | undefined): boolean {
  return taken === undefined && (approval !== undefined || run.decidesToolCalls);
}
