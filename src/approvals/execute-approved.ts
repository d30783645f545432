import type { DecisionRecord } from '../actions/decision-record.ts';
import type { ToolCallInfo } from '../actions/intervention-events.ts';
import type { ResumedApproval } from '../answers/read-resume.ts';
import type { ApprovalLedger, ApprovalOutcome } from '../ledger/approval-ledger.ts';
import { claimOrReplay, executeOnce, recordOutcome } from '../ledger/execute-once.ts';
import { isAsyncIterable, lastOf } from '../util/async-iterable.ts';
import { saysOtherThanApproval } from './replay-used-approvals.ts';
import { expiredText, expiryRecord } from './settle-answer.ts';

/**
 * Executes an approved, resumed call once across every resume of its
 * approval, as an idempotency key does: `decide` (a tool guarded without a
 * run decides here, unless the approval was used and its answer now says
 * something else than a plain approval: then the ledger's outcome is the
 * answer; a throw blocks the call, and nothing is claimed, so a deny on
 * resume still wins), then the ledger's claim: the first resume runs
 * `execute` (the tool with its hooks and handlers) and records what the
 * model reads (the result, or the error's text); every replay, on this or
 * another instance, gets that outcome instead of executing again (one still
 * executing is waited for), and leaves a record saying so. An async
 * generator tool (`streams`) still streams its preliminary results the
 * first time.
 */
export function executeApproved({
  record,
  ledger,
  approval,
  call,
  abortSignal,
  streams,
  decide,
  execute,
  expiry,
}: {
  /** Keeps the record of a replay, or of an expiry. */
  readonly record: (record: DecisionRecord, input?: unknown) => Promise<void>;
  readonly ledger: ApprovalLedger;
  readonly approval: ResumedApproval;
  readonly call: ToolCallInfo;
  readonly abortSignal: AbortSignal | undefined;
  readonly streams: boolean;
  readonly decide: ((call: ToolCallInfo) => Promise<ToolCallInfo>) | undefined;
  readonly execute: (call: ToolCallInfo) => unknown;
  /** When the approval expires, and how long after it was asked: a claim from then on runs nothing. */
  readonly expiry?: { readonly expiresAt: number; readonly expiresInMs: number } | undefined;
}): unknown {
  const { approvalId } = approval;
  const waiting = abortSignal === undefined ? {} : { abortSignal };
  // a used approval answered otherwise now is answered from the ledger before anything decides again
  const decided = async (): Promise<{ readonly used: ApprovalOutcome } | { readonly call: ToolCallInfo }> => {
    const used = decide === undefined || !saysOtherThanApproval(approval) ? undefined : await ledger.outcomeOf?.(approvalId);
    if (used !== undefined) return { used };
    return { call: decide === undefined ? call : await decide(call) };
  };
  const replay = async (outcome: ApprovalOutcome) => {
    await record(replayRecord(approval), approval.input);
    if (outcome.type === 'error') throw replayedError(outcome.text);
    return replayedOutput(outcome);
  };
  // claimed after the approval expired (on the ledger's clock, in the claim's own atomic step): nothing runs
  const expired = async (): Promise<never> => {
    const expiresInMs = expiry?.expiresInMs ?? 0;
    await record(expiryRecord(approval, expiresInMs), approval.input);
    throw replayedError(expiredText(approval.toolName, expiresInMs));
  };

  if (!streams) {
    return decided().then(async (decision) => {
      if ('used' in decision) return replay(decision.used);
      const decidedCall = decision.call;
      const execution = await executeOnce({
        ledger,
        approvalId,
        execute: async () => {
          const value = await execute(decidedCall);
          return isAsyncIterable(value) ? lastOf(value) : value;
        },
        input: decidedCall.input,
        expiresAt: expiry?.expiresAt,
        ...waiting,
      });
      if (execution.type === 'expired') return expired();
      return execution.type === 'executed' ? execution.output : replay(execution.outcome);
    });
  }
  return (async function* () {
    const decision = await decided();
    if ('used' in decision) {
      yield await replay(decision.used);
      return;
    }
    const decidedCall = decision.call;
    const claim = await claimOrReplay(ledger, approvalId, waiting, expiry?.expiresAt);
    if (claim.type === 'expired') {
      await expired();
      return;
    }
    if (claim.type === 'replayed') {
      yield await replay(claim.outcome);
      return;
    }
    let last: unknown;
    try {
      for await (const value of execute(decidedCall) as AsyncIterable<unknown>) {
        last = value;
        yield value;
      }
    } catch (error) {
      await recordOutcome(ledger, approvalId, { type: 'error', error }, decidedCall.input);
      throw error;
    }
    await recordOutcome(ledger, approvalId, { type: 'result', output: last }, decidedCall.input);
  })();
}

/** The record of a replayed approval, answered from the ledger. */
function replayRecord(approval: ResumedApproval): DecisionRecord {
  return {
    handler: 'approval-ledger',
    lifecycle: 'beforeToolCall',
    action: 'proceed',
    reason: 'This approval was already used: the call was not executed again, and the outcome of its execution was returned.',
    replayed: true,
    enforced: true,
    mode: 'enforce',
    durationMs: 0,
    toolCallId: approval.toolCallId,
    toolName: approval.toolName,
  };
}

/**
 * A replayed result as the SDK will read it: what the first execution's
 * model read (a result JSON made a string, such as a `Date`, is still read
 * as a JSON value, not as text).
 */
function replayedOutput(outcome: Extract<ApprovalOutcome, { type: 'result' }>): unknown {
  const { output } = outcome;
  return outcome.readAsJson === true && typeof output === 'string' ? { toJSON: () => output } : output;
}

/** The error of a replayed call that failed: it reads exactly as the first execution's did (the SDK reads `toString()`). */
function replayedError(text: string): Error {
  const error = new Error(text);
  error.toString = () => text;
  return error;
}

/** What {@link executeApproved} is given: the approved call, how it is decided and run, and where its outcome is kept. */
export type ApprovedCall = Parameters<typeof executeApproved>[0];
