const name = 'AIInterventionsWarning';
const marker = `ai-interventions.warning.${name}`;
const symbol = Symbol.for(marker);

/**
 * The stable code of each {@link InterventionsWarning}:
 * `'approval-ledger-in-memory'`: an `approvalSecret` is configured (so
 * approvals are meant to be resumed on any instance) but the approval
 * ledger is the default in-memory one, so "an approved call executes once"
 * holds per instance only: a resume replayed on another instance runs the
 * tool again.
 *
 * @example
 * ```ts
 * const code: InterventionsWarningCode = 'approval-ledger-in-memory';
 * ```
 */
export type InterventionsWarningCode = 'approval-ledger-in-memory';

/**
 * A configuration that works but does not keep a guarantee everywhere the
 * app may expect it to. Emitted once per process and code through
 * `process.emitWarning` (listen with `process.on('warning', …)`; `name` is
 * `'AIInterventionsWarning'`, `code` says which), or `console.warn` where
 * there is no `process`; and, per runtime, as an `onStatus` event
 * `{ type: 'warning', code, message }` to the `onStatus` hooks given to
 * `createInterventions({ hooks })`.
 *
 * @example
 * ```ts
 * process.on('warning', (warning) => {
 *   if (InterventionsWarning.isInstance(warning) && warning.code === 'approval-ledger-in-memory') log.warn(warning.message);
 * });
 * ```
 */
export class InterventionsWarning extends Error {
  // used in isInstance
  private readonly [symbol] = true;

  /** Which warning this is, as a stable code. */
  readonly code: InterventionsWarningCode;

  constructor({ code, message }: { code: InterventionsWarningCode; message: string }) {
    super(message);
    this.name = name;
    this.code = code;
  }

  /** Whether `value` is an `InterventionsWarning` (of any bundled copy of the library). */
  static isInstance(value: unknown): value is InterventionsWarning {
    return value != null && typeof value === 'object' && (value as Record<symbol, unknown>)[symbol] === true;
  }
}
