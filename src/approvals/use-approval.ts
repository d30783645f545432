import type { Context } from '@ai-sdk/provider-utils';
import type { ModelMessage, ToolExecutionOptions } from 'ai';
import type { ToolCallInfo } from '../actions/intervention-events.ts';
import type { Run } from '../run/run.ts';
import { isAsyncIterable, lastOf } from '../util/async-iterable.ts';
import type { ApprovalLedger, ApprovalOutcome } from './approval-ledger.ts';
import type { DroppedApproval } from './drop-stale-approvals.ts';
import { claimOrReplay, executeOnce, recordOutcome } from './execute-once.ts';
import { type Resume, type ResumedApproval, readResume } from './read-resume.ts';
import { saysOtherThanApproval } from './replay-used-approvals.ts';

/**
 * The approval a tool's execution uses: the resumed call's, when the SDK is
 * executing a call a human approved (before the run's first step), and the
 * runtime keeps an approval ledger; `undefined` otherwise. A tool guarded
 * without a run reads it from the messages the SDK passes a resumed call
 * (the input, whose last tool message answers it); a later step's messages
 * end with tool results, so a provider reusing call ids (`call_0` every
 * turn) never makes a new call look resumed.
 */
export function approvalOf(run: Run, { toolCallId, messages }: ToolExecutionOptions<Context>): ResumedApproval | undefined {
  if (run.approvalLedger === undefined) return undefined;
  if (run.runId !== undefined) return run.step.number === undefined ? run.resume.approved.get(toolCallId) : undefined;
  return answerOf(run, messages, toolCallId);
}

/**
 * The answer a plain SDK call resumes for a call (tools guarded without a
 * run): the approval response of the input's last message whose request
 * was made for this call (and that holds no result for it), decoded
 * (`approved` is what the person decided: a typed refusal, or an answer
 * that cannot be read, is a refusal, even where the SDK reads the response
 * as an approval). `undefined` when the messages resume nothing for it.
 */
export function answerOf(run: Run, messages: ModelMessage[], toolCallId: string): ResumedApproval | undefined {
  if (!resumesCall(messages, toolCallId)) return undefined;
  const resume = resumeOf(messages, run);
  // an answer nobody can read is among the refusals, though the SDK, reading the raw response, executes the call
  return resume.approved.get(toolCallId) ?? resume.refused.get(toolCallId);
}

/**
 * The approval response of the input's last message that answers a call
 * (found by id) but was dropped as answering nothing a person may answer
 * (the call already has its result, or its request was automatic). The plain
 * SDK reads the raw responses and may still execute such a call (with a
 * provider that repeated the id in one response, its history keeps one call
 * twice, and the result it has sits in an earlier message): a tool guarded
 * without a run refuses it.
 */
export function droppedAnswerOf(run: Run, messages: ModelMessage[], toolCallId: string): DroppedApproval | undefined {
  if (!resumesCall(messages, toolCallId)) return undefined;
  return resumeOf(messages, run).dropped.find((dropped) => dropped.toolCallId === toolCallId);
}

/**
 * Whether the SDK may be resuming a call with `toolCallId` from `messages`
 * (a plain call's input): their last message answers approvals, and holds
 * no result for that id. The SDK resumes no call whose result that message
 * holds (it ended the request that ran it), so a call with that id is a new
 * one, from a provider reusing ids.
 */
function resumesCall(messages: readonly ModelMessage[], toolCallId: string): boolean {
  const last = messages.at(-1);
  return (
    last?.role === 'tool' &&
    last.content.some((part) => part.type === 'tool-approval-response') &&
    !last.content.some((part) => part.type === 'tool-result' && part.toolCallId === toolCallId)
  );
}

const resumes = new WeakMap<readonly ModelMessage[], Resume>();

function resumeOf(messages: ModelMessage[], run: Run): Resume {
  let resume = resumes.get(messages);
  if (resume === undefined) resumes.set(messages, (resume = readResume({ messages }, run.snapshot.wording)));
  return resume;
}

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
  run,
  ledger,
  approval,
  call,
  abortSignal,
  streams,
  decide,
  execute,
}: {
  readonly run: Run;
  readonly ledger: ApprovalLedger;
  readonly approval: ResumedApproval;
  readonly call: ToolCallInfo;
  readonly abortSignal: AbortSignal | undefined;
  readonly streams: boolean;
  readonly decide: ((call: ToolCallInfo) => Promise<ToolCallInfo>) | undefined;
  readonly execute: (call: ToolCallInfo) => unknown;
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
    await recordReplay(run, approval);
    if (outcome.type === 'error') throw replayedError(outcome.text);
    return replayedOutput(outcome);
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
        ...waiting,
      });
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
    const claim = await claimOrReplay(ledger, approvalId, waiting);
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

/** Records that a replayed approval was answered from the ledger. */
async function recordReplay(run: Run, approval: ResumedApproval): Promise<void> {
  await run.record(
    {
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
    },
    approval.input,
  );
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
