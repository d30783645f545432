import type { Context } from '@ai-sdk/provider-utils';
import type { BeforeToolCallEvent, ToolCallInfo } from '../actions/intervention-events.ts';
import { answerInfo, type ResumedApproval } from '../answers/read-resume.ts';
import { UNVERIFIABLE_REASON, unverifiedDenial } from '../answers/unverified-denial.ts';
import { cloneToolCallEvent } from '../handlers/drafts.ts';
import type { RegisteredHandler } from '../handlers/registered-handler.ts';
import type { Verdict } from '../handlers/verdict.ts';
import { evaluate } from '../run/evaluate-and-report.ts';
import type { Run } from '../run/run.ts';
import type { Step } from '../run/step.ts';
import type { ToolCallDecision } from '../run/tool-call-decision.ts';
import { getErrorMessage } from '../util/get-error-message.ts';
import { getOwn } from '../util/get-own.ts';
import { onDemand } from '../util/on-demand.ts';
import { unreachable } from '../util/unreachable.ts';
import { AMBIGUOUS_CALL_ID, denyCall, notTheAnsweredCall } from './deny-call.ts';
import { gatesOfCall } from './gate-tool-calls.ts';
import { toolListings } from './listed-tools.ts';

/** Grants: read only when a confirm would ask (loaded with the first). */
const grants = onDemand(() => import('./granted-call.ts'));

/** How a point of the SDK asks for a call's decision. */
export interface DecisionRequest {
  /**
   * The point applies the decision (the approval point, a plain tool's
   * `execute`): it takes the call's decision, once. Otherwise the call is
   * decided ahead of that point (the model layer, a plain tool's
   * `needsApproval`, a resume before the SDK reads it).
   */
  readonly applies: boolean;
  /** The gates' actions for this call, when its turn met the gates together (the model layer). */
  readonly gates?: readonly RegisteredHandler[] | undefined;
  /**
   * A person's answer the call resumes (tools guarded without a run). A
   * run's own resume is found in its approval session.
   */
  readonly answer?: ResumedApproval | undefined;
  /** The runtime context of whoever asked an answered call (default: as the run's session knows it, else the run's). */
  readonly asker?: Context | undefined;
  /** The call changed since it was decided (a person's edit): it is a new call, decided again. */
  readonly edited?: boolean | undefined;
}

/**
 * The one owner of a tool call's decision. Every point of the SDK that
 * meets a call asks it, and only converts the answer into what that point
 * speaks: the model layer (a turn's calls, `decideTurn`), the run's
 * `toolApproval`, a resume before the SDK reads it, and tools guarded
 * without a run (`needsApproval`, `execute`).
 *
 * A call is decided once, remembered in its step by its tool and id: a
 * point that asks again gets the same decision. It is decided by the gates
 * and the `beforeToolCall` handlers through the one reducer, and by the
 * fail-closed rules, which come first:
 *
 * - a run that failed starts no further call;
 * - two calls of one step with one tool and id cannot be told apart: none
 *   runs (asked twice ahead, or taken twice);
 * - an answer is for the call its request was made for, and for no other;
 *   a used approval answered otherwise now is not decided again (its
 *   execution replays what ran);
 * - a confirm is answered only by an approval the runtime's secret verifies;
 * - a decision that fails is recorded as a denial, ends the run, and
 *   rejects every point that asks for it.
 */
export function decisionOf(run: Run, step: Step, call: ToolCallInfo, request: DecisionRequest): Promise<ToolCallDecision> {
  const entry = step.entry(call);
  // a call decided and applied, asked ahead again (a plain tool's next request on the same messages), or a person's edit: a new call
  if (entry !== undefined && !(request.edited === true || (entry.taken && !request.applies))) {
    // fail closed: the same tool and id again, asked twice ahead or taken twice, is not one call: none runs
    if (entry.ambiguous || !request.applies || entry.taken) {
      entry.ambiguous = true;
      // the point that applies it records the denial
      return request.applies ? denyCall(run, call, AMBIGUOUS_CALL_ID) : Promise.resolve(ambiguous(run, call));
    }
    entry.taken = true;
    return entry.decision;
  }
  const decision = decide(run, step, call, request);
  step.keep(call, { decision, ahead: !request.applies, taken: request.applies, ambiguous: false });
  return decision;
}

/** The denial of a call that cannot be told apart from another, before the point that applies it records it. */
function ambiguous(run: Run, call: ToolCallInfo): ToolCallDecision {
  const reason = AMBIGUOUS_CALL_ID;
  const handler = 'ai-interventions';
  return { type: 'deny', reason, handler, text: run.snapshot.wording.deniedToolCall({ toolCall: call, reason, handler }) };
}

async function decide(run: Run, step: Step, call: ToolCallInfo, request: DecisionRequest): Promise<ToolCallDecision> {
  // fail closed: a run that failed starts nothing more
  if (run.failed !== undefined) throw run.failed.error;
  const session = run.approvals;
  const answer = request.answer ?? (step.number === undefined ? session?.resume.approved.get(call.toolCallId) : undefined);
  if (answer !== undefined) {
    // fail closed: the SDK resumes a call by its id; an answer is for the call its request was made for
    const another = notTheAnsweredCall(answer, call);
    if (another !== undefined) return denyCall(run, call, another);
    // a used approval answered otherwise now is not decided again: its execution gives the model what ran
    if (session?.replaysOverriddenAnswer(answer.approvalId) === true) return REPLAYED;
  }
  let decision: ToolCallDecision;
  try {
    decision = await evaluateCall(run, step, call, answer, request);
  } catch (error) {
    await failed(run, call, error);
    throw error;
  }
  // fail closed: a confirm is answered only by an approval the runtime's secret verifies
  if (decision.type === 'confirm' && answer !== undefined && session?.verified(answer) === false) {
    return denyCall(run, call, UNVERIFIABLE_REASON, unverifiedDenial(call.toolName));
  }
  // a confirm the asker holds a grant for is answered by it (a person's earlier approval, turned into a grant)
  if (decision.type === 'confirm' && answer === undefined && run.snapshot.approvalInbox !== undefined) {
    const granted = await (await grants()).grantedCall(run, call, decision);
    if (granted !== undefined) return granted;
  }
  if (decision.type === 'confirm' && run.snapshot.hooks.onStatus.length > 0) {
    const { toolCallId, toolName } = call;
    await run.critical(async () => run.status({ type: 'approval-pending', toolCallId, toolName, prompt: decision.prompt }));
  }
  return decision;
}

/** The gates' actions and the `beforeToolCall` handlers on a call, through the reducer. */
async function evaluateCall(
  run: Run,
  step: Step,
  call: ToolCallInfo,
  answer: ResumedApproval | undefined,
  request: DecisionRequest,
): Promise<ToolCallDecision> {
  // handlers see each trusted tool at its strictest listing of the conversation (worked out once per run)
  const { tools } = await toolListings(run);
  const gates = request.gates ?? (await gatesOfCall(run, step, call, answer !== undefined && request.answer === undefined));
  // an approval the runtime could not verify answers no confirm, and handlers are not told of it
  const answered = answer !== undefined && run.approvals?.verified(answer) !== false;
  const runtimeContext =
    answer === undefined ? run.runtimeContext : (request.asker ?? run.approvals?.askerOf(call.toolCallId) ?? run.runtimeContext);
  const event: BeforeToolCallEvent = {
    lifecycle: 'beforeToolCall',
    runtimeContext,
    runId: run.runId,
    abortSignal: run.abortSignal,
    stepNumber: step.number,
    toolCall: call,
    tool: getOwn(tools, call.toolName),
    tools,
    messages: step.messages,
    instructions: run.instructions,
    approved: answered,
    approval: answered ? answerInfo(answer) : undefined,
  };
  const handlers = run.snapshot.handlers.beforeToolCall;
  const verdict = await evaluate(run, event, cloneToolCallEvent, {
    frozen: answer !== undefined,
    answered,
    handlers: gates.length === 0 ? handlers : [...gates, ...handlers],
  });
  return toDecision(run, call, verdict);
}

/** A decision that failed: recorded as the denial it is (the call does not run), and the run ends with the failure. */
async function failed(run: Run, call: ToolCallInfo, error: unknown): Promise<void> {
  run.fail(error);
  // an abort is the caller's, not a failure of the decision
  if (run.abortSignal?.aborted) return;
  await denyCall(run, call, `deciding it failed (${getErrorMessage(error)}), so it was not run and the run ended`).catch(() => {});
}

/** What a `beforeToolCall` verdict means for the call. */
function toDecision(run: Run, call: ToolCallInfo, verdict: Verdict<BeforeToolCallEvent>): ToolCallDecision {
  const { wording } = run.snapshot;
  switch (verdict.type) {
    case 'deny':
      return {
        type: 'deny',
        reason: verdict.reason,
        handler: verdict.handler,
        text: wording.deniedToolCall({ toolCall: call, reason: verdict.reason, handler: verdict.handler }),
      };
    case 'guide':
      return {
        type: 'guide',
        guidance: verdict.guidance,
        text: wording.guidedToolCall({ toolCall: call, guidance: verdict.guidance }),
      };
    case 'confirm':
      return {
        type: 'confirm',
        prompt: verdict.prompt,
        terms: verdict.terms,
        input: verdict.transformed ? { value: verdict.event.toolCall.input } : undefined,
        ...(verdict.guidance === undefined ? {} : { guidance: verdict.guidance }),
      };
    case 'transform':
      return { type: 'transform', input: verdict.event.toolCall.input, answered: verdict.answered };
    case 'proceed':
      return verdict.answered === undefined ? PROCEED : { type: 'proceed', answered: verdict.answered };
    default:
      return unreachable(verdict);
  }
}

const PROCEED: ToolCallDecision = Object.freeze({ type: 'proceed' });
/** A used approval answered otherwise now: not decided again (the ledger replays what ran). */
const REPLAYED: ToolCallDecision = Object.freeze({ type: 'proceed' });
