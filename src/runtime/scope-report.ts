import type { ToolSet } from 'ai';
import { InterventionsWarning } from '../errors/interventions-warning.ts';
import { InvalidHandlerError } from '../errors/invalid-handler-error.ts';
import type { RegisteredHandler } from '../handlers/registered-handler.ts';
import type { HookEntry } from '../hooks/hook-registry.ts';
import { type DeclaredScope, declaredScopes } from '../tools/declared-scopes.ts';
import type { ToolScope } from '../tools/tool-scope.ts';
import { closestNames } from '../util/closest-name.ts';
import { getOwn } from '../util/get-own.ts';
import { reportWarning } from './warn-at-creation.ts';

/** Checks the registered handlers' scopes against the tools of a run (or of tools guarded without one). */
export interface ScopeReport {
  /**
   * Reports each scope of `handlers` that matches no tool of `tools`: an
   * `InterventionsWarning` (`'scope-matches-no-tool'`, once per process and
   * scope, and to the runtime's `onStatus` hooks once), or an
   * `InvalidHandlerError` with `strictScopes`. A tool set is checked once per
   * handler list; a run without tools is not checked (no tool handler runs).
   */
  check(tools: ToolSet | undefined, handlers: readonly RegisteredHandler[]): void;
}

/** The scope report of one runtime. */
export function createScopeReport({
  strict,
  onStatus,
}: {
  readonly strict: boolean;
  readonly onStatus: () => ReadonlyArray<HookEntry<'onStatus'>>;
}): ScopeReport {
  // by tool set: the handler list it was checked with (a handler added or removed checks it again)
  const checked = new WeakMap<object, readonly RegisteredHandler[]>();
  const told = new Set<string>();
  return {
    check(tools, handlers) {
      if (tools === undefined || handlers.length === 0 || checked.get(tools) === handlers) return;
      const names = Object.keys(tools);
      for (const registered of names.length === 0 ? [] : handlers) {
        for (const scope of scopesOf(registered)) {
          if (negationsOnly(scope.scope) || names.some((name) => scope.matches(name, getOwn(tools, name)))) continue;
          const closestTools = [...new Set(positiveNames(scope.scope).flatMap((name) => closestNames(literalOf(name), names)))];
          const message =
            `The tools scope ${JSON.stringify(scope.scope)} of "${registered.name}" (${scope.option}) matches no tool of this run, ` +
            `so it applies to nothing here${closestTools.length === 0 ? '.' : `: did you mean ${closestTools.map((name) => JSON.stringify(name)).join(', ')}?`} ` +
            `The run's tools are ${names.map((name) => JSON.stringify(name)).join(', ')}.` +
            (JSON.stringify(scope.scope).includes('"annotations"')
              ? ' An annotation selector reads the hints of the tools whose annotations you trust (trustToolAnnotations); any other tool declares nothing.'
              : '');
          if (strict) {
            throw new InvalidHandlerError({
              handlerName: registered.name,
              code: 'scope-matches-no-tool',
              key: scope.option,
              message: `${message} (strictScopes: true)`,
            });
          }
          const key = `scope-matches-no-tool\0${registered.name}\0${scope.option}\0${JSON.stringify(scope.scope)}`;
          const warning = new InterventionsWarning({
            code: 'scope-matches-no-tool',
            message: `ai-interventions: ${message} Fix the name, type the scope by the tool set (toolPolicy<typeof tools>(…)), or set strictScopes: true to make this an error.`,
            handlerName: registered.name,
            option: scope.option,
            scope: scope.scope,
            closestTools,
          });
          const hooks = told.has(key) ? [] : onStatus();
          told.add(key);
          reportWarning(warning, hooks, key);
        }
      }
      checked.set(tools, handlers);
    },
  };
}

/** A handler's scopes: its own `tools`, and those a built-in declared. */
function scopesOf(registered: RegisteredHandler): readonly DeclaredScope[] {
  const { inScope, handler } = registered;
  const declared = declaredScopes(handler);
  if (inScope === undefined || handler.tools === undefined) return declared;
  return [{ option: 'tools', scope: handler.tools, matches: inScope }, ...declared];
}

const entriesOf = (scope: ToolScope): readonly unknown[] => (Array.isArray(scope) ? scope : [scope]);

/** `'!poll_*'` alone means every tool but those: matching none of a run's tools is no mistake. */
function negationsOnly(scope: ToolScope): boolean {
  return entriesOf(scope).every((entry) => typeof entry === 'string' && entry.startsWith('!'));
}

/** The names and globs a scope includes. */
function positiveNames(scope: ToolScope): string[] {
  return entriesOf(scope).filter((entry): entry is string => typeof entry === 'string' && !entry.startsWith('!'));
}

/** A glob without its wildcards, to compare with tool names. */
function literalOf(pattern: string): string {
  return pattern.replace(/[*?]/g, '');
}
