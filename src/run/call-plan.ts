import type { ToolSet } from 'ai';
import { hasTrustedAnnotations } from '../tools/trusted-annotations.ts';
import type { RuntimeSnapshot } from './runtime-snapshot.ts';

/**
 * When a run's tool calls are decided, worked out once when the run is made
 * (what is registered and the run's tools do not change while it runs). It
 * chooses only when a call is first asked of the owner of its decision
 * (`decisionOf`), never which code decides:
 *
 * - **in the model layer** (`holds`), before the SDK parses a response, when
 *   something needs the calls decided there: a handler that may `transform`
 *   (its arguments are written into the response, so no client, history or
 *   approval shows the model's), `gateToolCalls` hooks (they see the turn), a
 *   tool whose annotations the app trusts (its listing labels the turn), or
 *   a tool the app's client runs (it must never reach the client before a
 *   deny stops it). A streamed step's calls are then held until decided:
 *   each as its `tool-call` part comes, or the turn at the provider's finish
 *   when gates must see it whole (`withTurn`);
 * - **at the SDK's approval point** otherwise (every `beforeToolCall`
 *   handler declares `toolCallActions` without `transform`): each call as the
 *   SDK parsed it, streamed as the provider sent it, as the raw SDK asks its
 *   own `toolApproval`.
 */
export interface CallPlan {
  /** The run decides tool calls: `beforeToolCall` handlers or `gateToolCalls` hooks, and it is no detached run. */
  readonly decides: boolean;
  /** The model layer decides a response's calls (a streamed step's calls are held until decided). */
  readonly holds: boolean;
  /** `gateToolCalls` hooks see a turn's calls together (a streamed turn is held to the provider's finish). */
  readonly withTurn: boolean;
  /** A handler's confirm may ask a person: the run gives the SDK its approval secret and finishes the requests it asks. */
  readonly mayConfirm: boolean;
}

/** The {@link CallPlan} of a run of `snapshot` with `tools` (`detached`: hooks and handlers used without a run, which decide nothing here). */
export function callPlan(snapshot: RuntimeSnapshot, tools: ToolSet | undefined, detached: boolean): CallPlan {
  const { handlers, hooks } = snapshot;
  const withTurn = hooks.gateToolCalls.length > 0;
  const decides = !detached && (handlers.beforeToolCall.length > 0 || withTurn);
  let transforms = withTurn;
  let confirms = withTurn;
  for (const { toolCallActions } of handlers.beforeToolCall) {
    transforms ||= toolCallActions === undefined || toolCallActions.has('transform');
    confirms ||= toolCallActions === undefined || toolCallActions.has('confirm');
  }
  return { decides, holds: decides && (transforms || holdsTools(tools)), withTurn, mayConfirm: decides && confirms };
}

/** Whether a run has a tool whose annotations the app trusts, or one the app's client runs (no `execute`, not the provider's). */
function holdsTools(tools: ToolSet | undefined): boolean {
  if (tools === undefined) return false;
  for (const name in tools) {
    if (!Object.hasOwn(tools, name)) continue;
    const tool = tools[name];
    if (hasTrustedAnnotations(tool) || (tool !== undefined && tool.execute === undefined && tool.type !== 'provider')) return true;
  }
  return false;
}

/** Whether a runtime decides the calls of tools guarded without a run: `beforeToolCall` handlers, or `gateToolCalls` hooks. */
export function decidesPlainCalls({ handlers, hooks }: RuntimeSnapshot): boolean {
  return handlers.beforeToolCall.length > 0 || hooks.gateToolCalls.length > 0;
}
