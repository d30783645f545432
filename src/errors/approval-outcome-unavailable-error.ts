import { InterventionsError } from './interventions-error.ts';

const name = 'AIInterventions_ApprovalOutcomeUnavailableError';
const marker = `ai-interventions.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * A replayed approval found its call already executing (on this or another
 * instance) and did not get that execution's outcome: it was still running
 * after `timeoutMs` (`reason: 'timeout'`), or its claim disappeared before an
 * outcome was recorded (`reason: 'expired'`: the ledger's TTL passed, or the
 * entry was removed). The call is not executed again either way.
 *
 * @example
 * ```ts
 * try {
 *   const outcome = await ledger.waitFor(approvalId, { timeoutMs: 30_000, abortSignal });
 * } catch (error) {
 *   if (ApprovalOutcomeUnavailableError.isInstance(error)) console.warn(error.approvalId, error.reason);
 * }
 * ```
 */
export class ApprovalOutcomeUnavailableError extends InterventionsError {
  // used in isInstance
  private readonly [symbol] = true;

  /** The approval whose outcome was awaited. */
  readonly approvalId: string;
  /** `'timeout'`: still executing after `timeoutMs`; `'expired'`: the claim is gone without an outcome. */
  readonly reason: 'timeout' | 'expired';
  /** How long it waited, in ms. */
  readonly timeoutMs: number;

  constructor({
    approvalId,
    reason,
    timeoutMs,
  }: {
    approvalId: string;
    reason: 'timeout' | 'expired';
    timeoutMs: number;
  }) {
    super({
      name,
      code: 'approval-outcome-unavailable',
      message:
        reason === 'timeout'
          ? `The call approved by "${approvalId}" is still executing elsewhere: no outcome within ${timeoutMs} ms. It is not executed again.`
          : `The call approved by "${approvalId}" was claimed, but the claim expired before an outcome was recorded. It is not executed again.`,
    });
    this.approvalId = approvalId;
    this.reason = reason;
    this.timeoutMs = timeoutMs;
  }

  static override isInstance(error: unknown): error is ApprovalOutcomeUnavailableError {
    return InterventionsError.hasMarker(error, marker);
  }
}
