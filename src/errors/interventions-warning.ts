const name = 'AIInterventionsWarning';
const marker = `ai-interventions.warning.${name}`;
const symbol = Symbol.for(marker);

/**
 * The stable code of each {@link InterventionsWarning}:
 *
 * - `'approval-ledger-in-memory'`: an `approvalSecret` is configured, or a
 *   built-in's approval requests are on a shared store (so approvals are
 *   meant to be resumed on any instance), but the approval ledger is the
 *   default in-memory one, so "an approved call executes once" holds per
 *   instance only: a resume replayed on another instance runs the tool
 *   again, and a quorum's approvals are counted per instance.
 * - `'approval-secret-per-instance'`: the approval ledger (or a built-in's
 *   approval requests, `humanApproval`'s `remember.store`) is on a shared
 *   store, so approvals are meant to be answered on any instance, but no
 *   `approvalSecret` is set: each instance signs with a random key of its
 *   own, and an approval answered on another instance is refused, which
 *   shows only when a person answers. Not for `guardTools`, whose approvals
 *   the app's plain SDK call signs.
 * - `'state-in-memory'`: some of a runtime's state is shared by several
 *   instances (the approval ledger, the trail, a built-in's store) while
 *   other state is left in this process's memory, where its guarantee holds
 *   per instance only: `humanApproval`'s requests and remembered answers, a
 *   `rateLimit`'s or a per-user `callBudget`'s counters (`handlerName` and
 *   `option` say which), or a decision trail on a memory store (`option:
 *   'trail'`). Once per process and handler and option.
 * - `'tool-annotations-changed'`: a tool whose annotations the app trusts
 *   (`trustToolAnnotations`) is listed with other annotations than earlier in
 *   the conversation (the history records each request's listing). It is
 *   treated by its strictest listing; a server that changes what it says
 *   about its tools mid-conversation may be trying to loosen a policy.
 *   Emitted by a run, not at creation: once per process through
 *   `process.emitWarning`, and to the run's `onStatus` hooks each time, with
 *   a decision record (`handler: 'ai-interventions'`) naming the tool.
 * - `'scope-matches-no-tool'`: a handler's (or a built-in's) `tools` scope
 *   matches no tool of a run it was registered for (a name the tool set does
 *   not have: `delete_file` where the tool is `deleteFile`), so it applies to
 *   nothing there; `handlerName`, `option`, `scope` and `closestTools` say
 *   which. With `strictScopes: true` it is an `InvalidHandlerError` instead.
 * - `'deprecated-option'`: a built-in was given an option under a name that
 *   is deprecated (`humanApproval`'s `timeoutMs`, now `expiresInMs`): it
 *   still works, for a deprecation period; `handlerName` and `option` say
 *   which, and the message names the new one. Emitted once per process and
 *   option, and to the `onStatus` hooks of each runtime it is registered
 *   with.
 * - `'inbox-notify-failed'`: the approval inbox's `notify` threw (or
 *   rejected) on a notification: the request stands and can be answered,
 *   but whoever should have been told was not. Emitted each time.
 *
 * @example
 * ```ts
 * const code: InterventionsWarningCode = 'approval-ledger-in-memory';
 * ```
 */
export type InterventionsWarningCode =
  | 'approval-ledger-in-memory'
  | 'approval-secret-per-instance'
  | 'deprecated-option'
  | 'inbox-notify-failed'
  | 'scope-matches-no-tool'
  | 'state-in-memory'
  | 'tool-annotations-changed';

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
  /**
   * `'scope-matches-no-tool'`: the handler whose scope matches nothing;
   * `'deprecated-option'`: the handler given the option; `'state-in-memory'`:
   * the handler whose store is in memory.
   */
  readonly handlerName: string | undefined;
  /**
   * `'scope-matches-no-tool'`: which of its options the scope is (`tools`,
   * `rules[1].deny`, `sinks`); `'deprecated-option'`: the deprecated option
   * (`timeoutMs`); `'state-in-memory'`: the option holding the store
   * (`store`, `remember.store`, `trail`).
   */
  readonly option: string | undefined;
  /** `'scope-matches-no-tool'`: the scope, as given. */
  readonly scope: unknown;
  /** `'scope-matches-no-tool'`: the run's tools closest to the names in the scope, the closest first. */
  readonly closestTools: readonly string[] | undefined;

  constructor({
    code,
    message,
    handlerName,
    option,
    scope,
    closestTools,
  }: {
    code: InterventionsWarningCode;
    message: string;
    handlerName?: string;
    option?: string;
    scope?: unknown;
    closestTools?: readonly string[];
  }) {
    super(message);
    this.name = name;
    this.code = code;
    this.handlerName = handlerName;
    this.option = option;
    this.scope = scope;
    this.closestTools = closestTools;
  }

  /** Whether `value` is an `InterventionsWarning` (of any bundled copy of the library). */
  static isInstance(value: unknown): value is InterventionsWarning {
    return value != null && typeof value === 'object' && (value as Record<symbol, unknown>)[symbol] === true;
  }
}
