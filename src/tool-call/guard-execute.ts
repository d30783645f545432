import type { Context } from '@ai-sdk/provider-utils';
import type { Tool, ToolExecutionOptions } from 'ai';
import type { ToolCallInfo } from '../actions/intervention-events.ts';
import type { ResumedApproval } from '../answers/read-resume.ts';
import type { ApprovalSession } from '../approvals/approval-session.ts';
import type { ApprovedCall } from '../approvals/execute-approved.ts';
import { ToolCallBlockedError } from '../errors/tool-call-blocked-error.ts';
import type { Run } from '../run/run.ts';
import { isAsyncIterable, lastOf } from '../util/async-iterable.ts';
import { isThenable } from '../util/is-thenable.ts';
import { onDemand } from '../util/on-demand.ts';
import { denyCall } from './deny-call.ts';
import { finishResult, finishToolCall, hasResultPipeline, type Settled } from './finish-tool-call.ts';
import { type DecideInExecute, needsPreparing, prepareToolCall, type ToolExecution } from './prepare-tool-call.ts';

/** Executing an approved call once, through the ledger: loads with the first approved call a process resumes. */
const approvedExecution = onDemand(() => import('../approvals/execute-approved.ts'));

export type { DecideInExecute } from './prepare-tool-call.ts';

type Execute = NonNullable<Tool['execute']>;

/** The approval a tool's execution uses, with the session that executes it once; `undefined`: none. */
export type ApprovalOf = (
  run: Run,
  options: ToolExecutionOptions<Context>,
) => { readonly session: ApprovalSession; readonly approval: ResumedApproval } | undefined;

/**
 * The approval a run's tool execution uses: a call a person approved,
 * resumed before the run's first step, when its session executes approved
 * calls once (it keeps a ledger).
 */
export const runApprovalOf: ApprovalOf = (run, { toolCallId }) => {
  const session = run.approvals;
  if (session === undefined || !session.executesOnce || run.step.number !== undefined) return undefined;
  const approval = session.resume.approved.get(toolCallId);
  return approval === undefined ? undefined : { session, approval };
};

/**
 * Wraps a tool's `execute` with the tool-level pipeline:
 * `prepareToolCall` (decide, `preToolCall` hooks) → the tool →
 * `finishToolCall` (result hooks and `afterToolCall` handlers, or
 * `onToolCallError` hooks). When nothing must happen first, the tool is
 * called at once, as the SDK would call it, and what it returns keeps its
 * shape: an async iterable stays one (each value goes through the result
 * pipeline as it comes, when there is one; it is handed over as it is
 * otherwise). An approved call being resumed runs through the approval
 * ledger (`executeApproved`): once across every resume of its approval,
 * replays get its outcome.
 * After preparing, only an async generator function keeps streaming; a
 * plain function that returns an iterable gives its last value.
 */
export function guardExecute({
  runOf,
  toolName,
  tool,
  execute,
  decide,
  approvalOf = runApprovalOf,
}: {
  /** The run of this execution (a wrapped call's, or a detached one following the runtime). */
  runOf: () => Run;
  toolName: string;
  tool: Tool;
  execute: Execute;
  decide?: DecideInExecute | undefined;
  /** The approval an execution uses. Default: a run's resumed approval ({@link runApprovalOf}). */
  approvalOf?: ApprovalOf | undefined;
}): Execute {
  // which implementation runs is known per call (a run may have replaced the tool)
  return function guardedExecute(input: unknown, options: ToolExecutionOptions<Context>) {
    const run = runOf();
    // fail closed: a run that failed starts no further tool (a sibling of the call whose decision failed)
    if (run.failed !== undefined) return notRun(run, { toolCallId: options.toolCallId, toolName, input });
    const target = run.invocation?.replacedTools.get(toolName) ?? tool;
    const perform = target.execute ?? execute;
    // an approved call being resumed executes once across every resume of its approval, on behalf of whoever asked
    const approved = approvalOf(run, options);
    const runtimeContext = approved?.session.askerOf(options.toolCallId) ?? run.runtimeContext;
    const execution: ToolExecution = { run, tool, options, runtimeContext };
    const call: ToolCallInfo = { toolCallId: options.toolCallId, toolName, input };
    // nothing first (no ledger, no decision, no hooks): the tool is called at once, then its result pipeline
    if (approved === undefined && !needsPreparing(run, decide)) return invoke(execution, call, target, perform);
    return prepared(execution, call, { target, perform, approved, decide });
  } as Execute;
}

/** A call of a run that failed: not run, with a record; the model reads why. */
async function notRun(run: Run, call: ToolCallInfo): Promise<never> {
  const denied = await denyCall(run, call, 'the run failed before it could run, so it was not run');
  throw new ToolCallBlockedError({ toolName: call.toolName, toolCallId: call.toolCallId, decision: 'deny', message: denied.text });
}

/** The guarded execution of a call something must run before (a decision, hooks, the approval ledger). */
function prepared(
  execution: ToolExecution,
  call: ToolCallInfo,
  {
    target,
    perform,
    approved,
    decide,
  }: { target: Tool; perform: Execute; approved: ReturnType<ApprovalOf>; decide: DecideInExecute | undefined },
): unknown {
  const { run, tool, options } = execution;
  const streams = Object.prototype.toString.call(perform) === '[object AsyncGeneratorFunction]';
  const runTool = (prepared: ToolCallInfo) => invoke(execution, prepared, target, perform);
  const pipeline = (start: ToolCallInfo, decideFirst: DecideInExecute | undefined): unknown => {
    if (!needsPreparing(run, decideFirst)) return runTool(start);
    const preparing = prepareToolCall(execution, start, decideFirst);
    if (!isThenable(preparing)) {
      // prepared at once: the tool is called now, as without hooks
      return preparing.type === 'call' ? runTool(preparing.call) : finishToolCall(execution, preparing.call, shortCircuit(preparing));
    }
    if (streams) {
      return (async function* () {
        const prepared = await preparing;
        if (prepared.type !== 'call') yield await finishToolCall(execution, prepared.call, shortCircuit(prepared));
        else yield* runTool(prepared.call) as AsyncIterable<unknown>;
      })();
    }
    return Promise.resolve(preparing).then(async (prepared) => {
      if (prepared.type !== 'call') return finishToolCall(execution, prepared.call, shortCircuit(prepared));
      const result = runTool(prepared.call);
      return isAsyncIterable(result) ? lastOf(result) : result;
    });
  };
  const ledger = approved?.session.state.ledger;
  if (approved === undefined || ledger === undefined) return pipeline(call, decide);
  const approvedCall: ApprovedCall = {
    record: approved.session.state.record,
    expiry: approved.session.state.expiries.get(approved.approval.approvalId),
    ledger,
    approval: approved.approval,
    call,
    abortSignal: options.abortSignal,
    streams,
    decide: decide === undefined ? undefined : (start: ToolCallInfo) => decide(run, { tool, call: start, options }),
    execute: (decided: ToolCallInfo) => pipeline(decided, undefined),
  };
  // the ledger's execute-once loads with the first approved call a request resumes (the call is async either way)
  const executing = Promise.resolve(approvedExecution()).then(({ executeApproved }) => executeApproved(approvedCall));
  return streams ? streamOf(executing) : executing;
}

/** Calls the tool (`perform`, on `target`) and routes what it gives through the result pipeline, keeping its shape. */
function invoke(execution: ToolExecution, call: ToolCallInfo, target: Tool, perform: Execute): unknown {
  let value: unknown;
  try {
    value = perform.call(target, call.input as never, execution.options);
  } catch (error) {
    return finishToolCall(execution, call, { ok: false, error });
  }
  if (isAsyncIterable(value)) return hasResultPipeline(execution.run.snapshot) ? streamResults(execution, call, value) : value;
  if (isThenable(value)) return settledLater(execution, call, value);
  return finishResult(execution, call, value);
}

function settledLater(execution: ToolExecution, call: ToolCallInfo, value: PromiseLike<unknown>): Promise<unknown> {
  return Promise.resolve(value).then(
    (resolved) => finishResult(execution, call, resolved),
    (error: unknown) => finishToolCall(execution, call, { ok: false, error }),
  );
}

/**
 * Every value a streaming tool yields goes through the result pipeline as it
 * comes (preliminary ones too: the client sees them), so nothing is held back
 * and a transform or redaction covers each of them; the last one is the
 * final result, as the SDK counts it.
 */
async function* streamResults(execution: ToolExecution, call: ToolCallInfo, iterable: AsyncIterable<unknown>) {
  try {
    for await (const value of iterable) yield await finishToolCall(execution, call, { ok: true, value });
  } catch (error) {
    yield await finishToolCall(execution, call, { ok: false, error });
  }
}

/** A call that `prepareToolCall` answered without running the tool, as the result pipeline takes it. */
function shortCircuit(prepared: { type: 'result'; result: unknown } | { type: 'error'; error: unknown }): Settled {
  return prepared.type === 'result' ? { ok: true, value: prepared.result } : { ok: false, error: prepared.error };
}

/** The values of an async iterable that is yet to come (a streaming tool's approved execution, once loaded). */
async function* streamOf(iterable: Promise<unknown>): AsyncGenerator<unknown> {
  yield* (await iterable) as AsyncIterable<unknown>;
}
