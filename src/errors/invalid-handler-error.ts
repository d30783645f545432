import { InterventionsError } from './interventions-error.ts';

const name = 'AIInterventions_InvalidHandlerError';
const marker = `ai-interventions.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * A handler could not be registered. `code` tells why:
 * `'duplicate-handler'` (a second handler has the same `name`),
 * `'unknown-lifecycle'` (a method that looks like a lifecycle method but is
 * not one, e.g. `beforeToolcall`, or a hook name such as `preToolCall`: it
 * would never be called; `key` names it and the message suggests the
 * closest valid name), `'unknown-key'` (a handler written as a plain object
 * has a key no handler has, e.g. `tool` for `tools` or `timeout` for
 * `timeoutMs`: it would be ignored; `key` names it and the message suggests
 * the closest), `'no-lifecycle'` (no lifecycle method at all),
 * `'invalid-tools'` (a `tools` scope that cannot be valid, see `ToolScope`;
 * `key` is `'tools'`), `'scope-matches-no-tool'` (with `strictScopes: true`, a
 * scope that matches no tool of a run; `key` names the option: `tools`,
 * `rules[1].deny`), or `'invalid-handler'` (no `name`, or an invalid `onError`, `timeoutMs`,
 * `mode` or `tools`). A handler that would silently do nothing is an error
 * when it is registered, not a guard that never runs.
 *
 * @example
 * ```ts
 * class NoDeletes extends InterventionHandler {
 *   readonly name = 'no-deletes';
 *   beforeToolcall() { // a typo: never called
 *     return InterventionActions.deny('Deleting is not allowed.');
 *   }
 * }
 * try {
 *   interventions.use(new NoDeletes());
 * } catch (error) {
 *   if (InvalidHandlerError.isInstance(error) && error.code === 'unknown-lifecycle') {
 *     console.error(error.message); // … has a method "beforeToolcall" … Did you mean beforeToolCall? …
 *   }
 * }
 * ```
 */
export class InvalidHandlerError extends InterventionsError {
  // used in isInstance
  private readonly [symbol] = true;

  /** The `name` of the handler at fault (`undefined` when it has none). */
  readonly handlerName: string | undefined;
  /** The method or key at fault, for `'unknown-lifecycle'` and `'unknown-key'`; `'tools'` for `'invalid-tools'`. */
  readonly key: string | undefined;

  constructor({
    handlerName,
    message,
    code = 'invalid-handler',
    key,
  }: {
    handlerName: string | undefined;
    message: string;
    code?:
      | 'invalid-handler'
      | 'duplicate-handler'
      | 'unknown-lifecycle'
      | 'unknown-key'
      | 'no-lifecycle'
      | 'invalid-tools'
      | 'scope-matches-no-tool';
    key?: string;
  }) {
    super({ name, code, message });
    this.handlerName = handlerName;
    this.key = key;
  }

  static override isInstance(error: unknown): error is InvalidHandlerError {
    return InterventionsError.hasMarker(error, marker);
  }
}
