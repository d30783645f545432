import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import type { Tool, ToolSet } from 'ai';

type ToolDefinition = NonNullable<LanguageModelV4CallOptions['tools']>[number];

import { GuardNotEnforcedError } from '../errors/guard-not-enforced-error.ts';
import { getOwn } from '../util/get-own.ts';
import { CLIENT_TOOLS, capabilityOf, type EntryPath, MISSING_LAYER, PATH_LABELS } from './capabilities.ts';
import { type Guards, guardsOf, type RegisteredGuard } from './guards-of.ts';

/**
 * The entry paths a runtime is used through, and the checks that keep every
 * registered guard enforced on each of them (`capabilityOf`): a path taken
 * refuses the guards it cannot enforce, and from then on a guard registered
 * later is refused if a path in use cannot enforce it.
 */
export class RuntimePaths {
  private readonly taken = new Set<EntryPath>();
  private middlewareRead = false;
  private readonly current: () => Guards;
  private readonly wrapped: () => ToolSet;
  private toolGuards: { readonly of: unknown; readonly guards: readonly RegisteredGuard[] } | undefined;

  /** `current`: what the runtime holds now (its handlers, hooks and redactors); `wrapped`: the tools it wrapped for plain calls, by name. */
  constructor(current: () => Guards, wrapped: () => ToolSet) {
    this.current = current;
    this.wrapped = wrapped;
  }

  /** Whether `path` is in use. */
  has(path: EntryPath): boolean {
    return this.taken.has(path);
  }

  /**
   * `interventions.middleware` was read: a model may be wrapped with it, so a
   * model-layer guard is taken with `wrapTools` (each call of a wrapped tool
   * is then checked to come from a wrapped model: {@link modelGuard}).
   */
  readMiddleware(): void {
    this.middlewareRead = true;
  }

  /**
   * The app uses `path`: every registered guard the path cannot enforce is
   * a `GuardNotEnforcedError`. Checked until the path is taken once; after
   * that, registrations are checked instead.
   */
  enter(path: EntryPath): void {
    if (this.taken.has(path)) return;
    this.refuse(path, guardsOf(this.current()));
    this.taken.add(path);
  }

  /**
   * An agent's UI stream: its guards are enforced only when the agent's
   * calls go through this runtime (a `ToolLoopAgent` built with its
   * `agentSettings`, known by the `prepareCall` those settings have). An
   * agent that is verifiably not (a `ToolLoopAgent` whose `prepareCall` is
   * not the runtime's) is refused while any guard is registered. An agent
   * of another kind is taken as it is (it may call the wrappers itself).
   */
  enterAgentStream(agent: unknown, isOwn: (prepareCall: object) => boolean): void {
    const settings = (agent as { readonly settings?: { readonly prepareCall?: unknown } } | null)?.settings;
    if (settings === undefined || settings === null || typeof settings !== 'object') return;
    const prepareCall = settings.prepareCall;
    if (typeof prepareCall === 'function' && isOwn(prepareCall)) return;
    const [guard] = guardsOf(this.current());
    if (guard === undefined) return;
    throw new GuardNotEnforcedError({
      guard: guard.label,
      kind: guard.kind,
      path: 'agent-ui-stream',
      pathLabel: PATH_LABELS['agent-ui-stream'],
      why: "the agent was not built with this runtime's agentSettings, so none of its calls go through the runtime",
      instead: 'new ToolLoopAgent(interventions.agentSettings(settings)) for the agent',
    });
  }

  /** Guards about to be registered: refused if a path in use cannot enforce them (or the tools already wrapped). */
  register(guards: Guards): void {
    if (this.taken.size === 0) return;
    const registering = guardsOf(guards);
    for (const path of this.taken) this.refuse(path, registering);
    if (this.taken.has('plain-tools')) this.checkTools(this.wrapped(), registering);
  }

  /**
   * Tools about to be guarded without a run (`registering`: guards about to
   * be registered on tools already wrapped): a tool without `execute` (the
   * app's client runs it) in the scope of a kind of guard that path cannot
   * stop its calls for ({@link CLIENT_TOOLS}) is a `GuardNotEnforcedError`
   * naming the tool. Provider-executed tools are the provider's.
   */
  checkTools(tools: ToolSet, registering: readonly RegisteredGuard[] = guardsOf(this.current())): void {
    for (const name of Object.keys(tools)) {
      const tool: Tool | undefined = getOwn(tools, name);
      if (tool === undefined || tool.execute !== undefined || tool.type === 'provider') continue;
      const guard = registering.find(({ kind, mayApplyTo }) => CLIENT_TOOLS.kinds.includes(kind) && mayApplyTo?.(name) !== false);
      if (guard === undefined) continue;
      throw new GuardNotEnforcedError({
        guard: guard.label,
        kind: guard.kind,
        path: 'plain-tools',
        pathLabel: PATH_LABELS['plain-tools'],
        why: `the tool "${name}" has no execute (the app's client runs it), and ${CLIENT_TOOLS.why}`,
        instead: CLIENT_TOOLS.instead,
      });
    }
  }

  /**
   * A model call through `interventions.middleware`: the tool guards it
   * leaves to the tools (`'with-wrapped-tools'`) need the call's tools
   * wrapped by this runtime, known by identity (`isWrapped`: the middleware
   * sees the request's tool definitions, which carry each wrapped tool's own
   * mark, never a name another tool could share). A tool in a guard's scope
   * that is not is a `GuardNotEnforcedError`.
   */
  checkModelCall(tools: LanguageModelV4CallOptions['tools'], isWrapped: (definition: ToolDefinition) => boolean): void {
    if (tools === undefined || tools.length === 0) return;
    const guards = this.guardsLeftToTools();
    if (guards.length === 0) return;
    for (const definition of tools) {
      if (definition.type !== 'function' || isWrapped(definition)) continue;
      const guard = guards.find((candidate) => candidate.mayApplyTo === undefined || candidate.mayApplyTo(definition.name));
      if (guard === undefined) continue;
      const { why, instead } = MISSING_LAYER['with-wrapped-tools'];
      throw new GuardNotEnforcedError({
        guard: guard.label,
        kind: guard.kind,
        path: 'middleware',
        pathLabel: PATH_LABELS.middleware,
        why: `the tool "${definition.name}" of this call is not wrapped by this runtime (${why})`,
        instead,
      });
    }
  }

  /**
   * The first registered guard that tools guarded without a run enforce
   * only with the model wrapped (`'with-middleware'`: the model-layer
   * guards), if any: a call of such a tool must come from a model wrapped
   * with this runtime's middleware.
   */
  modelGuard(): RegisteredGuard | undefined {
    return guardsOf(this.current()).find((guard) => capabilityOf('plain-tools', guard.kind).type === 'with-middleware');
  }

  /** The error for a guard a path does not enforce because its model is not wrapped (see {@link modelGuard}). */
  notEnforced(guard: RegisteredGuard, path: EntryPath): GuardNotEnforcedError {
    const { why, instead } = MISSING_LAYER['with-middleware'];
    return new GuardNotEnforcedError({
      guard: guard.label,
      kind: guard.kind,
      path,
      pathLabel: PATH_LABELS[path],
      why: `this tool call came from a model that is not wrapped with this runtime's interventions.middleware (${why})`,
      instead,
    });
  }

  /** The registered guards the middleware leaves to wrapped tools (kept while the runtime's lists are the same). */
  private guardsLeftToTools(): readonly RegisteredGuard[] {
    const guards = this.current();
    const of = [guards.handlers, guards.hooks];
    if (this.toolGuards === undefined || !sameItems(this.toolGuards.of as unknown[], of)) {
      const left = guardsOf(guards).filter((guard) => capabilityOf('middleware', guard.kind).type === 'with-wrapped-tools');
      this.toolGuards = { of, guards: left };
    }
    return this.toolGuards.guards;
  }

  private refuse(path: EntryPath, guards: readonly RegisteredGuard[]): void {
    for (const guard of guards) {
      const capability = capabilityOf(path, guard.kind);
      const missing =
        capability.type === 'refused'
          ? capability
          : capability.type === 'with-middleware' && !this.middlewareRead
            ? MISSING_LAYER['with-middleware']
            : undefined;
      if (missing === undefined) continue;
      throw new GuardNotEnforcedError({
        guard: guard.label,
        kind: guard.kind,
        path,
        pathLabel: PATH_LABELS[path],
        why: missing.why,
        instead: missing.instead,
      });
    }
  }
}

function sameItems(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((item, index) => item === b[index]);
}
