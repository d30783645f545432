import type { JSONValue } from '@ai-sdk/provider';
import { getErrorMessage } from '../util/get-error-message.ts';
import type { ApprovalLedger, ApprovalOutcome, ApprovalWaitOptions } from './approval-ledger.ts';

/**
 * The result of {@link executeOnce}: `'executed'`, this caller ran the call
 * (`output` is the tool's own value); `'replayed'`, the call was executed by
 * an earlier (or concurrent) resume of the same approval, and `outcome` is
 * what it recorded.
 */
export type ApprovalExecution<OUTPUT> =
  | { readonly type: 'executed'; readonly output: OUTPUT }
  | { readonly type: 'replayed'; readonly outcome: ApprovalOutcome }
  /** Claimed after `expiresAt`: the approval expired, and nothing ran. */
  | { readonly type: 'expired' };

/**
 * Executes an approved call at most once across every resume of its
 * approval: claims it in the ledger, runs `execute` if the claim is this
 * caller's and records the outcome (the result, or the error text the model
 * reads, `getErrorMessage` of the AI SDK, before rethrowing the error), and
 * otherwise returns the recorded outcome, waiting for it while another
 * request is still executing (bounded by `timeoutMs`, abortable).
 *
 * If recording the outcome fails (the store is down), the executed result is
 * still returned; the claim then stays without an outcome until it expires,
 * so replays reject with {@link ApprovalOutcomeUnavailableError} rather than
 * execute again.
 */
export async function executeOnce<OUTPUT>({
  ledger,
  approvalId,
  execute,
  input,
  timeoutMs,
  abortSignal,
  expiresAt,
}: {
  readonly ledger: ApprovalLedger;
  readonly approvalId: string;
  readonly execute: () => OUTPUT | PromiseLike<OUTPUT>;
  /** The arguments the call runs with, recorded with its outcome. */
  readonly input?: unknown;
  /** When the approval expires (ms since the epoch): a later claim runs nothing. */
  readonly expiresAt?: number | undefined;
} & ApprovalWaitOptions): Promise<ApprovalExecution<OUTPUT>> {
  const claim = await claimOrReplay(ledger, approvalId, { timeoutMs, abortSignal }, expiresAt);
  if (claim.type !== 'claimed') return claim;
  let output: OUTPUT;
  try {
    output = await execute();
  } catch (error) {
    await recordOutcome(ledger, approvalId, { type: 'error', error }, input);
    throw error;
  }
  await recordOutcome(ledger, approvalId, { type: 'result', output }, input);
  return { type: 'executed', output };
}

/**
 * Claims an approved call in the ledger: `'claimed'`, this caller executes
 * it (and then calls {@link recordOutcome}); `'expired'`, claimed after
 * `expiresAt` (nothing runs); `'replayed'`, an earlier or
 * concurrent resume executed it, with the outcome it recorded (waited for
 * while it is still running, bounded by `timeoutMs`, abortable).
 */
export async function claimOrReplay(
  ledger: ApprovalLedger,
  approvalId: string,
  { timeoutMs, abortSignal }: ApprovalWaitOptions,
  expiresAt?: number,
): Promise<{ readonly type: 'claimed' } | { readonly type: 'expired' } | { readonly type: 'replayed'; readonly outcome: ApprovalOutcome }> {
  const claim = await ledger.claim(approvalId, expiresAt === undefined ? undefined : { expiresAt });
  if (claim.type === 'claimed' || claim.type === 'expired') return claim;
  if (claim.type === 'done') return { type: 'replayed', outcome: claim.outcome };
  const outcome = await ledger.waitFor(approvalId, {
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    ...(abortSignal === undefined ? {} : { abortSignal }),
  });
  return { type: 'replayed', outcome };
}

/**
 * Records what a claimed call's execution gave: its result, or the error
 * text the model reads (`getErrorMessage` of the AI SDK), with the
 * arguments it ran with. A store that fails here is ignored: the claim then
 * stays without an outcome until it expires, so replays reject rather than
 * execute again.
 */
export async function recordOutcome(
  ledger: ApprovalLedger,
  approvalId: string,
  ended: { readonly type: 'result'; readonly output: unknown } | { readonly type: 'error'; readonly error: unknown },
  input: unknown,
): Promise<void> {
  const ran = input === undefined ? {} : { input: input as JSONValue };
  const outcome: ApprovalOutcome =
    ended.type === 'result'
      ? { type: 'result', output: ended.output as JSONValue, ...ran }
      : { type: 'error', text: getErrorMessage(ended.error), ...ran };
  await ledger.complete(approvalId, outcome).catch(() => undefined);
}
