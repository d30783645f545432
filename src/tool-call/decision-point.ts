import type { Run } from '../run/run.ts';
import { hasTrustedAnnotations } from '../tools/trusted-annotations.ts';

/**
 * Where a tool call is decided, answered in one place:
 *
 * - **the model layer** (`decideTurn`, from the model middleware): every
 *   well-formed client call of a model response before the SDK parses it,
 *   when the run decides tool calls and something needs them decided there
 *   ({@link decidesInModelLayer}: a transform writes its arguments into the
 *   response, gates see the turn, trusted tools' listings label it, a tool
 *   the app's client runs never reaches it undecided); the decision is
 *   written into the step's table, keyed by the call's identity. A streamed
 *   step's calls are then held ({@link holdsStreamedCalls}), each decided as
 *   soon as its `tool-call` part comes (when the SDK would ask its own
 *   `toolApproval`; its tools run at the step's end either way), or with the
 *   turn at the provider's finish when `gateToolCalls` hooks must see the
 *   turn's calls together ({@link decidesWithTurn}; `holdToolCalls`);
 * - **`toolApproval`** (`createRunToolApproval`): the only reader of that
 *   table, and the decider of what the model layer did not decide: every
 *   call when nothing needs the model layer (a `generateText` call as the
 *   SDK parsed it, a streamed call as the SDK hands it over, its arguments
 *   streamed as the provider sent them), a call the SDK repaired, or a call
 *   a person approved (resumed before step 0);
 * - **`execute`** (`guardToolsStandalone`): tools guarded without a run
 *   (`wrapTools` / `guardTools` with the plain SDK) decide inside the tool.
 *
 * A call that reaches `toolApproval` without a decision it can tell is its
 * own is denied with a record (fail closed), never run.
 */
export type DecisionPoint = 'model-layer' | 'tool-approval' | 'execute';

/**
 * Whether the model layer decides a response's tool calls, `generateText`
 * and streams alike (see {@link DecisionPoint}): when the run decides tool
 * calls and something needs them decided before the SDK sees them. A call a
 * handler may `transform` gets its new arguments written into the response,
 * so no client, no history and no approval ever shows the model's;
 * `gateToolCalls` hooks see the turn's calls together; a run with tools
 * whose annotations the app trusts labels its first call with their listing
 * before the SDK records it; and a tool without `execute` (the app's client
 * runs it) must never reach the client before a deny stops it. Otherwise
 * (every `beforeToolCall` handler declares `toolCallActions` without
 * `transform`) the run's `toolApproval` decides each call at the SDK's own
 * approval point ({@link decidesInToolApproval}), on the arguments the SDK
 * parsed, as the raw SDK asks its own.
 */
export function decidesInModelLayer(run: Run): boolean {
  // what is registered and the run's tools do not change while it runs: worked out once per run
  run.decidesAhead ??= run.decidesToolCalls && (mayTakeAction(run, 'transform') || needsToolsHeld(run));
  return run.decidesAhead;
}

/**
 * Whether a streamed step holds its tool calls in the model layer until
 * they are decided (`holdToolCalls`): exactly when the model layer decides
 * them ({@link decidesInModelLayer}); the hold also gives a call repeating
 * an id an id of its own. Otherwise each call streams as the provider sends
 * it, as with the raw SDK.
 */
export function holdsStreamedCalls(run: Run): boolean {
  return decidesInModelLayer(run);
}

/**
 * Whether a handler's confirm may ask a person in this run: a `gateToolCalls`
 * hook, or a `beforeToolCall` handler that does not declare `toolCallActions`
 * without `confirm`. Only then does the run give the SDK its approval secret
 * and finish the requests it asked.
 */
export function mayConfirm(run: Run): boolean {
  return run.decidesToolCalls && mayTakeAction(run, 'confirm');
}

/** Whether a `gateToolCalls` hook is registered, or a `beforeToolCall` handler that does not declare `toolCallActions` without `action`. */
function mayTakeAction(run: Run, action: 'transform' | 'confirm'): boolean {
  const { handlers, hooks } = run.snapshot;
  if (hooks.gateToolCalls.length > 0) return true;
  for (const { toolCallActions } of handlers.beforeToolCall) if (toolCallActions === undefined || toolCallActions.has(action)) return true;
  return false;
}

/** Whether the run has a tool whose annotations the app trusts, or one the app's client runs (no `execute`, not the provider's). */
function needsToolsHeld(run: Run): boolean {
  const tools = run.tools;
  if (tools === undefined) return false;
  for (const name in tools) {
    if (!Object.hasOwn(tools, name)) continue;
    const tool = tools[name];
    if (hasTrustedAnnotations(tool) || (tool !== undefined && tool.execute === undefined && tool.type !== 'provider')) return true;
  }
  return false;
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
 * Whether a runtime decides the calls of tools guarded without a run:
 * `beforeToolCall` handlers, or `gateToolCalls` hooks.
 */
export function decidesPlainCalls(run: Run): boolean {
  return run.snapshot.handlers.beforeToolCall.length > 0 || run.snapshot.hooks.gateToolCalls.length > 0;
}
