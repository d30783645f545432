import type { JSONValue } from '@ai-sdk/provider';
import { getErrorMessage } from '@ai-sdk/provider-utils';
import type { ApprovalLedger, ApprovalOutcome, ApprovalWaitOptions } from './approval-ledger.ts';

/**
 * The result of {@link executeOnce}: `'executed'`, this caller ran the call
 * (`output` is the tool's own value); `'replayed'`, the call was executed by
 * an earlier (or concurrent) resume of the same approval, and `outcome` is
 * what it recorded.
 */
export type ApprovalExecution<OUTPUT> =
  | { readonly type: 'executed'; readonly output: OUTPUT }
  | { readonly type: 'replayed'; readonly outcome: ApprovalOutcome };

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
}: {
  readonly ledger: ApprovalLedger;
  readonly approvalId: string;
  readonly execute: () => OUTPUT | PromiseLike<OUTPUT>;
  /** The arguments the call runs with, recorded with its outcome. */
  readonly input?: unknown;
} & ApprovalWaitOptions): Promise<ApprovalExecution<OUTPUT>> {
  const ran = input === undefined ? {} : { input: input as JSONValue };
  const claim = await ledger.claim(approvalId);
  if (claim.type === 'done') return { type: 'replayed', outcome: claim.outcome };
  if (claim.type === 'running') {
    const outcome = await ledger.waitFor(approvalId, {
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      ...(abortSignal === undefined ? {} : { abortSignal }),
    });
    return { type: 'replayed', outcome };
  }
  let output: OUTPUT;
  try {
    output = await execute();
  } catch (error) {
    await ledger.complete(approvalId, { type: 'error', text: getErrorMessage(error), ...ran }).catch(() => undefined);
    throw error;
  }
  await ledger.complete(approvalId, { type: 'result', output: output as JSONValue, ...ran }).catch(() => undefined);
  return { type: 'executed', output };
}
