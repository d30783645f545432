import type { InterventionsWarning } from '../errors/interventions-warning.ts';

/** The warnings of the built-ins' handlers, by handler (made when the built-in was called, told when it is registered). */
const declared = new WeakMap<object, readonly InterventionsWarning[]>();

/**
 * Files what a built-in's options warn about (a deprecated option) for
 * `handler`: the runtime it is registered with reports them, once per
 * process and key, and to its `onStatus` hooks. Returns `handler`.
 */
export function declareWarnings<HANDLER extends object>(handler: HANDLER, warnings: readonly InterventionsWarning[]): HANDLER {
  if (warnings.length > 0) declared.set(handler, warnings);
  return handler;
}

/** The warnings `declareWarnings` filed for `handler`. */
export function declaredWarnings(handler: object): readonly InterventionsWarning[] {
  return declared.get(handler) ?? [];
}
