import type { Context } from '@ai-sdk/provider-utils';
import type { BeforeToolCallEvent, ToolCallInfo } from '../actions/intervention-events.ts';
import { answerInfo, type ResumedApproval } from '../approvals/read-resume.ts';
import { cloneToolCallEvent } from '../handlers/drafts.ts';
import type { Verdict } from '../handlers/evaluate-interventions.ts';
import type { RegisteredHandler } from '../handlers/registered-handler.ts';
import { evaluate } from '../run/evaluate-and-report.ts';
import type { Run } from '../run/run.ts';
import type { Step } from '../run/step.ts';
import type { ToolCallDecision } from '../run/tool-call-decision.ts';
import { getOwn } from '../util/get-own.ts';
import { isThenable } from '../util/is-thenable.ts';
import { unreachable } from '../util/unreachable.ts';
import { toolListings } from './listed-tools.ts';

/**
 * Decides one tool call: builds its `BeforeToolCallEvent`, resolves the
 * gates' actions for it and the `beforeToolCall` handlers through the
 * reducer, and returns the decision (the caller applies it, or writes it
 * into the step's decision table for whoever applies it). Every call takes
 * this path: the calls of a model response (decided together by
 * `decideTurn`), calls the SDK repaired, and calls a human approved (then
 * `approval` is set: a `confirm` counts as answered, transforms are not
 * applied, a deny still wins).
 */
export function decideToolCall(
  run: Run,
  step: Step,
  call: ToolCallInfo,
  options: {
    readonly gates?: readonly RegisteredHandler[] | undefined;
    readonly approval?: ResumedApproval | undefined;
    /** The runtime context the call is decided in: the run's, or for an answered call the asker's. */
    readonly runtimeContext?: Context | undefined;
  } = {},
): ToolCallDecision | Promise<ToolCallDecision> {
  // handlers see each trusted tool at its strictest listing of the conversation (worked out once per run)
  const listings = toolListings(run);
  if (isThenable(listings)) return listings.then(() => decideToolCall(run, step, call, options));
  const { tools } = listings;
  const { gates, approval, runtimeContext = run.runtimeContext } = options;
  const handlers = run.snapshot.handlers.beforeToolCall;
  // an approval the runtime could not verify answers no confirm, and handlers are not told of it
  const answered = approval !== undefined && run.approvals?.verified(approval) !== false;
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
    approval: answered ? answerInfo(approval) : undefined,
  };
  // a call nobody approved, without gates: a plain evaluation (no settings to allocate)
  const gated = gates !== undefined && gates.length > 0;
  const evaluation = evaluate(
    run,
    event,
    cloneToolCallEvent,
    approval === undefined && !gated
      ? undefined
      : { frozen: approval !== undefined, answered, handlers: gated ? [...gates, ...handlers] : handlers },
  );
  return isThenable(evaluation) ? evaluation.then((verdict) => settle(run, call, verdict)) : settle(run, call, evaluation);
}

/** The decision a verdict means; says when a human is asked. */
function settle(run: Run, call: ToolCallInfo, verdict: Verdict<BeforeToolCallEvent>): ToolCallDecision | Promise<ToolCallDecision> {
  const decision = toDecision(run, call, verdict);
  if (decision.type !== 'confirm' || run.snapshot.hooks.onStatus.length === 0) return decision;
  return run
    .critical(async () =>
      run.status({ type: 'approval-pending', toolCallId: call.toolCallId, toolName: call.toolName, prompt: decision.prompt }),
    )
    .then(() => decision);
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
