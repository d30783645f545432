import { InterventionsError } from './interventions-error.ts';

const name = 'AIInterventions_InvalidHookResultError';
const marker = `ai-interventions.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * An interceptor hook returned a value its event does not accept, for example
 * `{ response }` from `preToolCall`. `hook` names the event and the hook
 * (its function name, or its position in registration order).
 *
 * @example
 * ```ts
 * interventions.addHook('onChatError', ({ error }) => {
 *   if (InvalidHookResultError.isInstance(error)) console.error(error.hook, error.received);
 * });
 * ```
 */
export class InvalidHookResultError extends InterventionsError {
  // used in isInstance
  private readonly [symbol] = true;

  /** The hook at fault, e.g. `preToolCall hook "checkPermissions"`. */
  readonly hook: string;
  /** The value the hook returned. */
  readonly received: unknown;

  constructor({
    hook,
    received,
    expected,
  }: {
    hook: string;
    received: unknown;
    expected: string;
  }) {
    super({
      name,
      code: 'invalid-hook-result',
      message: `${hook} returned an invalid value; expected ${expected}.`,
    });
    this.hook = hook;
    this.received = received;
  }

  static override isInstance(error: unknown): error is InvalidHookResultError {
    return InterventionsError.hasMarker(error, marker);
  }
}
