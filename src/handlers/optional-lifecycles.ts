import type { Lifecycle } from '../actions/lifecycle.ts';

/** The lifecycle methods of built-in handlers that only add to what they do, by handler. */
const optional = new WeakMap<object, readonly Lifecycle[]>();

/**
 * Marks lifecycle methods of a built-in's `handler` as optional: the
 * handler keeps its guarantee on a path that does not call them (e.g.
 * `humanApproval`'s `beforeInvocation` only remembers refusals, so tools
 * guarded without a run, which have no invocation, still ask a person). A
 * path that cannot call them does not refuse the handler for them. Returns
 * `handler`.
 */
export function markOptionalLifecycles<HANDLER extends object>(handler: HANDLER, lifecycles: readonly Lifecycle[]): HANDLER {
  optional.set(handler, lifecycles);
  return handler;
}

/** Whether `lifecycle` of `handler` was marked optional. */
export function isOptionalLifecycle(handler: object, lifecycle: Lifecycle): boolean {
  return optional.get(handler)?.includes(lifecycle) ?? false;
}
