import { InterventionsError } from './interventions-error.ts';

const name = 'AIInterventions_DecisionTrailError';
const marker = `ai-interventions.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * A decision record could not be written to the runtime's decision trail:
 * the store failed (`reason: 'store'`, the store's error as `cause`), the
 * trail's `key` function gave no key (`'key'`), or the chain kept growing
 * under other writers for every attempt (`'contended'`). The trail fails
 * closed: the evaluation that made the record ends the call with this error,
 * so nothing runs that the trail does not hold.
 *
 * @example
 * ```ts
 * try {
 *   await interventions.generateText({ model, tools, prompt });
 * } catch (error) {
 *   if (DecisionTrailError.isInstance(error)) log.error(`trail ${error.key ?? '?'} unavailable (${error.reason})`, error.cause);
 * }
 * ```
 */
export class DecisionTrailError extends InterventionsError {
  // used in isInstance
  private readonly [symbol] = true;

  /** The chain the record was for, when its key was known. */
  readonly key: string | undefined;
  /** Why it was not written. */
  readonly reason: 'store' | 'key' | 'contended';

  constructor({
    key,
    reason,
    message,
    cause,
  }: {
    key: string | undefined;
    reason: 'store' | 'key' | 'contended';
    message: string;
    cause?: unknown;
  }) {
    super({ name, code: 'decision-trail-failed', message, cause });
    this.key = key;
    this.reason = reason;
  }

  static override isInstance(error: unknown): error is DecisionTrailError {
    return InterventionsError.hasMarker(error, marker);
  }
}
