import type { Lifecycle } from '../actions/lifecycle.ts';
import { InterventionsError } from './interventions-error.ts';

const name = 'AIInterventions_HandlerTimeoutError';
const marker = `ai-interventions.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * A handler did not settle within its `timeoutMs`. It is treated as having
 * thrown: its `onError` policy decides what happens next, and with `'throw'`
 * this error ends the call.
 *
 * @example
 * ```ts
 * class SlowPolicy extends InterventionHandler {
 *   readonly name = 'slow-policy';
 *   readonly timeoutMs = 500;
 *   readonly onError = 'deny'; // a timeout blocks the call (fail closed)
 * }
 * ```
 */
export class HandlerTimeoutError extends InterventionsError {
  // used in isInstance
  private readonly [symbol] = true;

  /** The `name` of the handler that timed out. */
  readonly handlerName: string;
  /** The lifecycle method that timed out. */
  readonly lifecycle: Lifecycle;
  /** The handler's `timeoutMs`. */
  readonly timeoutMs: number;

  constructor({
    handlerName,
    lifecycle,
    timeoutMs,
  }: {
    handlerName: string;
    lifecycle: Lifecycle;
    timeoutMs: number;
  }) {
    super({
      name,
      code: 'handler-timeout',
      message: `Intervention handler "${handlerName}" did not settle within ${timeoutMs} ms in ${lifecycle}.`,
    });
    this.handlerName = handlerName;
    this.lifecycle = lifecycle;
    this.timeoutMs = timeoutMs;
  }

  static override isInstance(error: unknown): error is HandlerTimeoutError {
    return InterventionsError.hasMarker(error, marker);
  }
}
