import { InterventionsError } from './interventions-error.ts';

const name = 'AIInterventions_GuardNotEnforcedError';
const marker = `ai-interventions.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * A guard was registered on, or a runtime was used through, an entry path
 * that cannot enforce it: rather than a guard that silently does nothing
 * there (a `gateToolCalls` hook on tools guarded without a run, a
 * `beforeModelCall` handler behind `interventions.middleware`, a
 * `drainSteering` hook on a `ToolLoopAgent`), the registration (`use`,
 * `addHook`) or the use of the path (`wrapTools`, `agentSettings`, the
 * middleware's first call, an agent's UI stream) throws. `guard` names it,
 * `kind` says what it is, `path` where it cannot be enforced, and `instead`
 * what to use. The table of what each path enforces is `CAPABILITIES` (and
 * the Guarantees page).
 *
 * @example
 * ```ts
 * const interventions = createInterventions();
 * const guarded = interventions.wrapTools(tools);
 * try {
 *   interventions.addHook('transformContext', ({ messages }) => messages.slice(-10));
 * } catch (error) {
 *   if (GuardNotEnforcedError.isInstance(error)) console.error(error.path, error.instead); // 'plain-tools', 'interventions.generateText / streamText, …'
 * }
 * ```
 */
export class GuardNotEnforcedError extends InterventionsError {
  // used in isInstance
  private readonly [symbol] = true;

  /** The guard: `gateToolCalls hook "noShell"`, `beforeModelCall of handler "step-budget"`, `the runtime's redactors`. */
  readonly guard: string;
  /** What kind of guard it is (a lifecycle point, a hook, `redactors`, `redactToolError`). */
  readonly kind: string;
  /** The entry path that cannot enforce it (see `EntryPath`). */
  readonly path: string;
  /** What to use instead. */
  readonly instead: string;

  constructor({
    guard,
    kind,
    path,
    pathLabel,
    why,
    instead,
  }: {
    guard: string;
    kind: string;
    path: string;
    pathLabel: string;
    why: string;
    instead: string;
  }) {
    super({
      name,
      code: 'guard-not-enforced',
      message: `The ${guard} cannot be enforced on ${pathLabel}: ${why}. It would silently do nothing there, so it is refused. Use ${instead}.`,
    });
    this.guard = guard;
    this.kind = kind;
    this.path = path;
    this.instead = instead;
  }

  static override isInstance(error: unknown): error is GuardNotEnforcedError {
    return InterventionsError.hasMarker(error, marker);
  }
}
