import type { AfterToolCallEvent, ToolCallInfo } from '../actions/intervention-events.ts';
import { copyData } from '../data/copy-data.ts';
import type { Verdict } from '../handlers/verdict.ts';
import { runOnToolCallError, runOnToolCallResult } from '../hooks/run-hooks.ts';
import { redactsToolErrors } from '../redaction/redacts-tool-errors.ts';
import { evaluate } from '../run/evaluate-and-report.ts';
import { isThenable } from '../util/is-thenable.ts';
import { onDemand } from '../util/on-demand.ts';
import { type ToolExecution, toolHookContext } from './prepare-tool-call.ts';

/** A tool error's redaction: loads with the first error a redacting runtime redacts. */
const errorRedaction = onDemand(() => import('../redaction/redact-tool-error.ts'));
/** How a tool's execution settled. */
export type Settled = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: unknown };

/**
 * What happens after a tool ran: a result goes through the
 * `onToolCallResult` hooks, then the `afterToolCall` handlers (a transform
 * replaces it); an error goes through the `onToolCallError` hooks and is
 * rethrown redacted (the SDK turns it into the model's error result). A hook
 * or handler that throws is recorded on the run and rethrown.
 */
export function finishToolCall(execution: ToolExecution, call: ToolCallInfo, settled: Settled): unknown {
  if (settled.ok) return finishResult(execution, call, settled.value);
  const { hooks } = execution.run.snapshot;
  // nothing to run: the throw stays a throw, at once
  if (hooks.onToolCallError.length === 0 && !redactsToolErrors(execution.run.snapshot)) throw settled.error;
  return finishAsync(execution, call, settled);
}

/**
 * {@link finishToolCall} for a result: as it is, at once, when nothing runs;
 * through the `afterToolCall` handlers alone synchronously while they are.
 */
export function finishResult(execution: ToolExecution, call: ToolCallInfo, value: unknown): unknown {
  const { hooks, handlers } = execution.run.snapshot;
  if (hooks.onToolCallResult.length > 0) return finishAsync(execution, call, { ok: true, value });
  if (handlers.afterToolCall.length === 0) return value;
  let evaluated: unknown;
  try {
    evaluated = afterToolCall(execution, call, value);
  } catch (error) {
    execution.run.fail(error);
    throw error;
  }
  return isThenable(evaluated) ? failing(execution, evaluated) : evaluated;
}

/** A result under way whose throw ends the run (apart: the synchronous path allocates no closure). */
function failing(execution: ToolExecution, pending: PromiseLike<unknown>): Promise<unknown> {
  return Promise.resolve(pending).then(undefined, (error: unknown) => {
    execution.run.fail(error);
    throw error;
  });
}

/** Whether a result passes through anything (hooks or handlers that may replace it). */
export function hasResultPipeline({ hooks, handlers }: ToolExecution['run']['snapshot']): boolean {
  return hooks.onToolCallResult.length > 0 || handlers.afterToolCall.length > 0;
}

async function finishAsync(execution: ToolExecution, call: ToolCallInfo, settled: Settled): Promise<unknown> {
  const { run, tool, options } = execution;
  const { hooks, handlers } = run.snapshot;
  if (!settled.ok) {
    // the error's text reaches the next request, the response messages and the UI: redacted
    if (options.abortSignal?.aborted || hooks.onToolCallError.length === 0) throw await redactedError(run, call, settled.error);
    let replaced: unknown;
    try {
      replaced = await runOnToolCallError(hooks.onToolCallError, {
        ...toolHookContext(execution),
        call,
        tool,
        error: settled.error,
      });
    } catch (error) {
      run.fail(error);
      throw error;
    }
    throw await redactedError(run, call, replaced);
  }
  if (hooks.onToolCallResult.length === 0 && handlers.afterToolCall.length === 0) return settled.value;
  try {
    let result = settled.value;
    if (hooks.onToolCallResult.length > 0) {
      result = await runOnToolCallResult(hooks.onToolCallResult, { ...toolHookContext(execution), call, tool, result });
    }
    if (handlers.afterToolCall.length > 0) result = await afterToolCall(execution, call, result);
    return result;
  } catch (error) {
    run.fail(error);
    throw error;
  }
}

/** The `afterToolCall` handlers on a result: the result they leave (a transform's), synchronously while they answer at once. */
function afterToolCall(execution: ToolExecution, call: ToolCallInfo, result: unknown): unknown {
  const { run, tool, options } = execution;
  const event: AfterToolCallEvent = {
    lifecycle: 'afterToolCall',
    messages: options.messages,
    runtimeContext: execution.runtimeContext,
    runId: run.runId,
    stepNumber: run.stepNumber,
    abortSignal: options.abortSignal,
    toolCall: call,
    tool,
    result,
  };
  const evaluation = evaluate(run, event, draftResult);
  return isThenable(evaluation) ? resultLater(evaluation, result) : resultOf(evaluation, result);
}

function resultLater(evaluation: Promise<Verdict<AfterToolCallEvent>>, result: unknown): Promise<unknown> {
  return evaluation.then((verdict) => resultOf(verdict, result));
}

function resultOf(verdict: Verdict<AfterToolCallEvent>, result: unknown): unknown {
  return verdict.type === 'deny' || verdict.type === 'proceed' ? result : verdict.event.result;
}

/** An afterToolCall draft: the result is copied, so a transform never edits the tool's own object. */
function draftResult(event: AfterToolCallEvent): AfterToolCallEvent {
  return { ...event, result: copyData(event.result) };
}

/** An error as the model reads it: redacted, by the code that loads with the first error a redacting runtime redacts. */
async function redactedError(run: ToolExecution['run'], call: ToolCallInfo, error: unknown): Promise<unknown> {
  if (!redactsToolErrors(run.snapshot)) return error;
  const { redactToolError } = await errorRedaction();
  return redactToolError(run, call, error);
}
