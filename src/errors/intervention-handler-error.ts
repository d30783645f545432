import type { Lifecycle } from '../actions/lifecycle.ts';
import { InterventionsError } from './interventions-error.ts';

const name = 'AIInterventions_InterventionHandlerError';
const marker = `ai-interventions.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * A handler threw (or rejected) and its `onError` policy is `'throw'`.
 * The original error is the `cause`.
 *
 * @example
 * ```ts
 * try {
 *   await interventions.generateText({ model, tools, prompt });
 * } catch (error) {
 *   if (InterventionHandlerError.isInstance(error)) {
 *     console.error(`${error.handlerName} failed in ${error.lifecycle}`, error.cause);
 *   }
 * }
 * ```
 */
export class InterventionHandlerError extends InterventionsError {
  // used in isInstance
  private readonly [symbol] = true;

  /** The `name` of the handler that failed. */
  readonly handlerName: string;
  /** The lifecycle method that failed. */
  readonly lifecycle: Lifecycle;

  constructor({
    handlerName,
    lifecycle,
    cause,
  }: {
    handlerName: string;
    lifecycle: Lifecycle;
    cause: unknown;
  }) {
    super({
      name,
      code: 'handler-failed',
      message: `Intervention handler "${handlerName}" threw in ${lifecycle}: ${describe(cause)}`,
      cause,
    });
    this.handlerName = handlerName;
    this.lifecycle = lifecycle;
  }

  static override isInstance(error: unknown): error is InterventionHandlerError {
    return InterventionsError.hasMarker(error, marker);
  }
}

function describe(cause: unknown): string {
  if (cause instanceof Error) return cause.message;
  if (typeof cause === 'string') return cause;
  try {
    return JSON.stringify(cause) ?? String(cause);
  } catch {
    return String(cause);
  }
}
