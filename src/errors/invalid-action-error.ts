import type { Lifecycle } from '../actions/lifecycle.ts';
import { InterventionsError } from './interventions-error.ts';

const name = 'AIInterventions_InvalidActionError';
const marker = `ai-interventions.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * A handler returned something that is not an action, or an action its
 * lifecycle method may not return (for example `confirm` from
 * `afterModelCall`). It is never silently ignored.
 *
 * @example
 * ```ts
 * try {
 *   await interventions.generateText({ model, tools, prompt });
 * } catch (error) {
 *   if (InvalidActionError.isInstance(error)) console.error(error.handlerName, error.lifecycle, error.received);
 * }
 * ```
 */
export class InvalidActionError extends InterventionsError {
  // used in isInstance
  private readonly [symbol] = true;

  /** The `name` of the handler at fault. */
  readonly handlerName: string;
  /** The lifecycle method that returned the value. */
  readonly lifecycle: Lifecycle;
  /** The value the handler returned. */
  readonly received: unknown;

  constructor({
    handlerName,
    lifecycle,
    received,
    message,
  }: {
    handlerName: string;
    lifecycle: Lifecycle;
    received: unknown;
    message: string;
  }) {
    super({ name, code: 'invalid-action', message });
    this.handlerName = handlerName;
    this.lifecycle = lifecycle;
    this.received = received;
  }

  static override isInstance(error: unknown): error is InvalidActionError {
    return InterventionsError.hasMarker(error, marker);
  }
}
