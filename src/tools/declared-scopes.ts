import { type ToolScope, type ToolScopeMatcher, toolScope } from './tool-scope.ts';

/** A `tools` scope a handler applies, as its options gave it: checked against each run's tools. */
export interface DeclaredScope {
  /** Where it was given: `tools`, `rules[2].deny`, `sinks`. */
  readonly option: string;
  readonly scope: ToolScope;
  readonly matches: ToolScopeMatcher;
}

/** The scopes of the built-ins' handlers, by handler (their scopes live in closures). */
const declared = new WeakMap<object, readonly DeclaredScope[]>();

/**
 * Files the scopes a built-in compiled for `handler` (besides its `tools`,
 * which the runtime reads itself), so that a scope matching no tool of a
 * run is reported like a handler's own. Returns `handler`.
 */
export function declareScopes<HANDLER extends object>(handler: HANDLER, scopes: readonly (DeclaredScope | undefined)[]): HANDLER {
  const given = scopes.filter((scope) => scope !== undefined);
  if (given.length > 0) declared.set(handler, given);
  return handler;
}

/** The scopes `declareScopes` filed for `handler`. */
export function declaredScopes(handler: object): readonly DeclaredScope[] {
  return declared.get(handler) ?? [];
}

/** A scope given as `option` of the built-in named `owner`, compiled (a scope that cannot be valid throws, naming `owner`). */
export function declaredScope(option: string, scope: ToolScope, owner: string): DeclaredScope {
  return { option, scope, matches: toolScope(scope, { owner }) };
}
