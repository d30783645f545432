import { InterventionsError } from './interventions-error.ts';

const name = 'AIInterventions_InvalidOptionError';
const marker = `ai-interventions.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * An option has a value the function cannot work with, such as an empty
 * or short `approvalSecret` (an unset environment variable would otherwise
 * fail the first approval, mid-stream, with an error that never names the
 * secret). Thrown when the function is called, naming the function
 * (`owner`), the option (`option`, with the entry of a list:
 * `approvalSecret[1]`) and what it must be. A secret's value is never
 * part of the message.
 *
 * @example
 * ```ts
 * try {
 *   createInterventions({ handlers, approvalSecret: process.env.APPROVAL_SECRET });
 * } catch (error) {
 *   if (InvalidOptionError.isInstance(error)) console.error(error.option, error.message); // 'approvalSecret' …
 * }
 * ```
 */
export class InvalidOptionError extends InterventionsError {
  // used in isInstance
  private readonly [symbol] = true;

  /** What was given the option: `createInterventions`, `createDecisionTrail`. */
  readonly owner: string;
  /** The option, with the entry of a list (`approvalSecret[1]`). */
  readonly option: string;

  constructor({ owner, option, message }: { owner: string; option: string; message: string }) {
    super({ name, code: 'invalid-option', message: `${owner}: ${message}` });
    this.owner = owner;
    this.option = option;
  }

  static override isInstance(error: unknown): error is InvalidOptionError {
    return InterventionsError.hasMarker(error, marker);
  }
}
