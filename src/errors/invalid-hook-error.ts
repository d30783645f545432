import { InterventionsError } from './interventions-error.ts';

const name = 'AIInterventions_InvalidHookError';
const marker = `ai-interventions.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * A hook could not be registered: the event name is unknown or the hook is
 * not a function.
 *
 * @example
 * ```ts
 * try {
 *   interventions.addHook('preToolcall' as 'preToolCall', () => {});
 * } catch (error) {
 *   if (InvalidHookError.isInstance(error)) console.error(error.event);
 * }
 * ```
 */
export class InvalidHookError extends InterventionsError {
  // used in isInstance
  private readonly [symbol] = true;

  /** The event name the hook was registered for. */
  readonly event: string;

  constructor({ event, message }: { event: string; message: string }) {
    super({ name, code: 'invalid-hook', message });
    this.event = event;
  }

  static override isInstance(error: unknown): error is InvalidHookError {
    return InterventionsError.hasMarker(error, marker);
  }
}
