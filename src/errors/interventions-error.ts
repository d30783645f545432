/**
 * A stable, machine-readable code for every error this library throws, on
 * `error.code`. Map errors by code rather than by message.
 *
 * @example
 * ```ts
 * function httpStatus(error: unknown): number {
 *   if (!InterventionsError.isInstance(error)) return 500;
 *   const code: InterventionsErrorCode = error.code;
 *   return code === 'invocation-denied' || code === 'tool-call-blocked' ? 403 : 500;
 * }
 * ```
 */
export type InterventionsErrorCode =
  | 'handler-failed'
  | 'handler-timeout'
  | 'invalid-action'
  | 'invalid-handler'
  | 'duplicate-handler'
  | 'unknown-lifecycle'
  | 'unknown-key'
  | 'no-lifecycle'
  | 'invalid-tools'
  | 'scope-matches-no-tool'
  | 'invocation-denied'
  | 'invalid-hook'
  | 'invalid-hook-result'
  | 'tool-call-blocked'
  | 'approval-outcome-unavailable'
  | 'approval-secret-required'
  | 'unknown-option'
  | 'invalid-option'
  | 'decision-trail-failed'
  | 'guard-not-enforced';

const marker = 'ai-interventions.error';
const symbol = Symbol.for(marker);

/**
 * Base class of every error thrown by `ai-interventions`.
 *
 * Each subclass has a stable `name`, a `code`, and a static `isInstance` that
 * works across bundled copies of the library (it checks a `Symbol.for` marker
 * instead of `instanceof`).
 *
 * @example
 * ```ts
 * try {
 *   await interventions.generateText({ model, tools, prompt });
 * } catch (error) {
 *   if (InterventionsError.isInstance(error)) console.error(error.code, error.message);
 * }
 * ```
 */
export class InterventionsError extends Error {
  // used in isInstance
  private readonly [symbol] = true;

  /** What went wrong, as a stable code. */
  readonly code: InterventionsErrorCode;

  constructor({
    name,
    message,
    code,
    cause,
  }: {
    name: string;
    message: string;
    code: InterventionsErrorCode;
    cause?: unknown;
  }) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = name;
    this.code = code;
  }

  /** Whether `error` is an error thrown by this library. */
  static isInstance(error: unknown): error is InterventionsError {
    return InterventionsError.hasMarker(error, marker);
  }

  protected static hasMarker(error: unknown, markerName: string): boolean {
    return error != null && typeof error === 'object' && (error as Record<symbol, unknown>)[Symbol.for(markerName)] === true;
  }
}
