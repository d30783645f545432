import { LIFECYCLES } from '../actions/lifecycle.ts';
import { countsPerRun } from '../handlers/counts-per-run.ts';
import { isOptionalLifecycle } from '../handlers/optional-lifecycles.ts';
import { handles, type RegisteredHandler } from '../handlers/registered-handler.ts';
import { HOOK_NAMES, type HookSnapshot } from '../hooks/hook-registry.ts';
import type { GuardKind } from './capabilities.ts';

/** One registered guard, as the capability table knows it. */
export interface RegisteredGuard {
  readonly kind: GuardKind;
  /** How messages name it: `beforeModelCall of handler "step-budget"`, `gateToolCalls hook "noShell"`. */
  readonly label: string;
  /**
   * Whether it may apply to a tool known by its name only (a handler's
   * `tools`; an annotation selector may match any tool, whose hints are not
   * known by name); `undefined`: every tool.
   */
  readonly mayApplyTo?: ((toolName: string) => boolean) | undefined;
}

/** What a runtime holds, or what one registration adds. */
export interface Guards {
  readonly handlers?: readonly RegisteredHandler[];
  readonly hooks?: Partial<HookSnapshot>;
  readonly redactors?: number;
}

/** Whether a handler's scope may take in a tool known by name only: by its names and globs, or by any annotation selector. */
function mayApplyTo({ inScope, handler }: RegisteredHandler): ((toolName: string) => boolean) | undefined {
  if (inScope === undefined) return undefined;
  const entries: readonly unknown[] = Array.isArray(handler.tools) ? handler.tools : [handler.tools];
  if (entries.some((entry) => typeof entry === 'object' && entry !== null)) return undefined;
  return (toolName) => inScope(toolName, undefined);
}

/**
 * Every guard of `guards` with its kind: each lifecycle method a handler
 * defines (but those a built-in marks optional), a redaction handler's
 * `redactToolError`, a count kept per run, each hook, and the runtime's
 * redactors.
 */
export function guardsOf({ handlers = [], hooks = {}, redactors = 0 }: Guards): RegisteredGuard[] {
  const guards: RegisteredGuard[] = [];
  for (const registered of handlers) {
    for (const lifecycle of LIFECYCLES) {
      if (!handles(registered, lifecycle) || isOptionalLifecycle(registered.handler, lifecycle)) continue;
      guards.push({ kind: lifecycle, label: `${lifecycle} of handler "${registered.name}"`, mayApplyTo: mayApplyTo(registered) });
    }
    if (typeof (registered.handler as { redactToolError?: unknown }).redactToolError === 'function') {
      guards.push({
        kind: 'redactToolError',
        label: `redactToolError of handler "${registered.name}"`,
        mayApplyTo: mayApplyTo(registered),
      });
    }
    if (countsPerRun(registered.handler)) {
      guards.push({ kind: 'perRun', label: `perRun (per: 'run') of handler "${registered.name}"`, mayApplyTo: mayApplyTo(registered) });
    }
  }
  for (const event of HOOK_NAMES) {
    for (const entry of hooks[event] ?? []) guards.push({ kind: event, label: entry.label });
  }
  if (redactors > 0) guards.push({ kind: 'redactors', label: "runtime's redactors (createInterventions({ redactors }))" });
  return guards;
}
