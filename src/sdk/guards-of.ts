import { LIFECYCLES } from '../actions/lifecycle.ts';
import { isOptionalLifecycle } from '../handlers/optional-lifecycles.ts';
import { handles, type RegisteredHandler } from '../handlers/registered-handler.ts';
import { HOOK_NAMES, type HookSnapshot } from '../hooks/hook-registry.ts';
import type { ToolScopeMatcher } from '../tools/tool-scope.ts';
import type { GuardKind } from './capabilities.ts';

/** One registered guard, as the capability table knows it. */
export interface RegisteredGuard {
  readonly kind: GuardKind;
  /** How messages name it: `beforeModelCall of handler "step-budget"`, `gateToolCalls hook "noShell"`. */
  readonly label: string;
  /** The tools it applies to (a handler's `tools`); `undefined`: every tool. */
  readonly inScope?: ToolScopeMatcher | undefined;
}

/** What a runtime holds, or what one registration adds. */
export interface Guards {
  readonly handlers?: readonly RegisteredHandler[];
  readonly hooks?: Partial<HookSnapshot>;
  readonly redactors?: number;
}

/**
 * Every guard of `guards` with its kind: each lifecycle method a handler
 * defines (but those a built-in marks optional), a redaction handler's
 * `redactToolError`, each hook, and the runtime's redactors.
 */
export function guardsOf({ handlers = [], hooks = {}, redactors = 0 }: Guards): RegisteredGuard[] {
  const guards: RegisteredGuard[] = [];
  for (const registered of handlers) {
    for (const lifecycle of LIFECYCLES) {
      if (!handles(registered, lifecycle) || isOptionalLifecycle(registered.handler, lifecycle)) continue;
      guards.push({ kind: lifecycle, label: `${lifecycle} of handler "${registered.name}"`, inScope: registered.inScope });
    }
    if (typeof (registered.handler as { redactToolError?: unknown }).redactToolError === 'function') {
      guards.push({ kind: 'redactToolError', label: `redactToolError of handler "${registered.name}"`, inScope: registered.inScope });
    }
  }
  for (const event of HOOK_NAMES) {
    for (const entry of hooks[event] ?? []) guards.push({ kind: event, label: entry.label });
  }
  if (redactors > 0) guards.push({ kind: 'redactors', label: "runtime's redactors (createInterventions({ redactors }))" });
  return guards;
}
