import type { Context } from '@ai-sdk/provider-utils';
import type { Tool, ToolExecutionOptions } from 'ai';
import type {
  AfterToolCallEvent,
  ToolCallInfo,
} from '../handlers/intervention-events.ts';
import {
  runOnToolCallError,
  runOnToolCallResult,
  runPreToolCall,
} from '../hooks/run-hooks.ts';
import { redactsToolErrors, redactToolError } from '../redaction/redact-tool-error.ts';
import { copyData } from '../util/copy-data.ts';
import { isThenable } from '../util/is-thenable.ts';
import type { Run } from './run.ts';

type Execute = NonNullable<Tool['execute']>;
type Settled = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: unknown };

/** Decides a call inside `execute` (tools guarded without a run's `toolApproval`): the call to run, or a throw. */
export type DecideInExecute = (
  run: Run,
  details: { readonly tool: Tool; readonly call: ToolCallInfo; readonly options: ToolExecutionOptions<Context> },
) => Promise<ToolCallInfo>;

/** Whether anything runs around a tool's `execute`: tool hooks, `afterToolCall` handlers, tool error redaction. */
export function hasToolHooks(snapshot: Run['snapshot']): boolean {
  const { hooks, handlers } = snapshot;
  return (
    hooks.preToolCall.length > 0 ||
    hooks.onToolCallResult.length > 0 ||
    hooks.onToolCallError.length > 0 ||
    handlers.afterToolCall.length > 0 ||
    hooks.onStatus.length > 0 ||
    redactsToolErrors(snapshot)
  );
}

/**
 * Wraps a tool's `execute` with the tool-level pipeline:
 * `decide` (tools guarded without a run) → `preToolCall` hooks →
 * `execute` → `onToolCallResult` hooks → `afterToolCall` handlers, or on
 * failure `onToolCallError` hooks → rethrow (the SDK turns it into the
 * model's error result). A hook or handler failure is recorded on the run,
 * which ends with it at its next step.
 *
 * Async-generator tools keep streaming: every preliminary value passes
 * through, and only the final one goes through the result pipeline (it is
 * held back by one value so an untransformed final is never emitted).
 */
export function guardExecute({
  runOf,
  toolName,
  tool,
  execute,
  decide,
}: {
  /** The run of this execution (a wrapped call's, or a detached one following the runtime). */
  runOf: () => Run;
  toolName: string;
  tool: Tool;
  execute: Execute;
  decide?: DecideInExecute | undefined;
}): Execute {
  const prepare = async (run: Run, input: unknown, options: ToolExecutionOptions<Context>) => {
    const starting = run.ensureStarted();
    if (starting !== undefined) await starting;
    let call: ToolCallInfo = { toolCallId: options.toolCallId, toolName, input };
    if (decide !== undefined) call = await decide(run, { tool, call, options });
    const { onStatus, preToolCall } = run.snapshot.hooks;
    if (onStatus.length === 0 && preToolCall.length === 0) return { type: 'call' as const, call };
    // hooks here run where the SDK would swallow their throw: it ends the run instead
    try {
      if (onStatus.length > 0) {
        await run.status({ type: 'tool-call', toolCallId: call.toolCallId, toolName: call.toolName });
      }
      return preToolCall.length === 0
        ? { type: 'call' as const, call }
        : await runPreToolCall(preToolCall, { ...base(run, options), call, tool });
    } catch (error) {
      run.fail(error);
      throw error;
    }
  };

  const finish = async (
    run: Run,
    call: ToolCallInfo,
    options: ToolExecutionOptions<Context>,
    settled: Settled,
  ) => {
    const { hooks, handlers } = run.snapshot;
    if (!settled.ok) {
      // the error's text reaches the next request, the response messages and the UI: redacted
      if (options.abortSignal?.aborted || hooks.onToolCallError.length === 0) throw await redactToolError(run, call, settled.error);
      let replaced: unknown;
      try {
        replaced = await runOnToolCallError(hooks.onToolCallError, {
          ...base(run, options),
          call,
          tool,
          error: settled.error,
        });
      } catch (error) {
        run.fail(error);
        throw error;
      }
      throw await redactToolError(run, call, replaced);
    }
    if (hooks.onToolCallResult.length === 0 && handlers.afterToolCall.length === 0) return settled.value;
    try {
      const context = base(run, options);
      let result = settled.value;
      if (hooks.onToolCallResult.length > 0) {
        result = await runOnToolCallResult(hooks.onToolCallResult, { ...context, call, tool, result });
      }
      if (handlers.afterToolCall.length > 0) {
        const evaluation = run.evaluate<AfterToolCallEvent>({
          event: { lifecycle: 'afterToolCall', ...context, toolCall: call, tool, result },
          makeDraft: draftResult,
          subject: subject(run, call),
        });
        const verdict = isThenable(evaluation) ? await evaluation : evaluation;
        if (verdict.type !== 'deny') result = verdict.event.result;
      }
      return result;
    } catch (error) {
      run.fail(error);
      throw error;
    }
  };

  async function* streaming(
    run: Run,
    target: Tool,
    perform: Execute,
    input: unknown,
    options: ToolExecutionOptions<Context>,
  ) {
    const prepared = await prepare(run, input, options);
    if (prepared.type !== 'call') {
      yield await finish(run, prepared.call, options, shortCircuit(prepared));
      return;
    }
    let previous: { value: unknown } | undefined;
    try {
      const iterable = perform.call(target, prepared.call.input, options) as AsyncIterable<unknown>;
      for await (const value of iterable) {
        if (previous !== undefined) yield previous.value;
        previous = { value };
      }
    } catch (error) {
      yield await finish(run, prepared.call, options, { ok: false, error });
      return;
    }
    yield await finish(run, prepared.call, options, { ok: true, value: previous?.value });
  }

  async function single(
    run: Run,
    target: Tool,
    perform: Execute,
    input: unknown,
    options: ToolExecutionOptions<Context>,
  ) {
    const prepared = await prepare(run, input, options);
    if (prepared.type !== 'call') return finish(run, prepared.call, options, shortCircuit(prepared));
    let settled: Settled;
    try {
      let value: unknown = perform.call(target, prepared.call.input, options);
      if (isThenable(value)) value = await value;
      // a function that returns (rather than is) an async generator: keep its last value
      if (isAsyncIterable(value)) value = await lastOf(value);
      settled = { ok: true, value };
    } catch (error) {
      settled = { ok: false, error };
    }
    return finish(run, prepared.call, options, settled);
  }

  // which implementation runs is known per call (a run may have replaced the tool)
  return function guardedExecute(input: unknown, options: ToolExecutionOptions<Context>) {
    const run = runOf();
    const target = run.invocation?.replacedTools.get(toolName) ?? tool;
    const perform = target.execute ?? execute;
    return Object.prototype.toString.call(perform) === '[object AsyncGeneratorFunction]'
      ? streaming(run, target, perform, input, options)
      : single(run, target, perform, input, options);
  } as Execute;
}

/** An afterToolCall draft: the result is copied, so a transform never edits the tool's own object. */
function draftResult(event: AfterToolCallEvent): AfterToolCallEvent {
  return { ...event, result: copyData(event.result) };
}

function shortCircuit(
  prepared: { type: 'result'; result: unknown } | { type: 'error'; error: unknown },
): Settled {
  return prepared.type === 'result'
    ? { ok: true, value: prepared.result }
    : { ok: false, error: prepared.error };
}

function base(run: Run, options: ToolExecutionOptions<Context>) {
  return {
    messages: options.messages,
    runtimeContext: run.runtimeContext,
    runId: run.runId,
    toolContext: options.context,
    stepNumber: run.stepNumber,
    abortSignal: options.abortSignal,
  };
}

function subject(run: Run, call: ToolCallInfo) {
  return { toolCallId: call.toolCallId, toolName: call.toolName, stepNumber: run.stepNumber };
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return (
    value != null &&
    typeof value === 'object' &&
    typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function'
  );
}

async function lastOf(iterable: AsyncIterable<unknown>): Promise<unknown> {
  let last: unknown;
  for await (const value of iterable) last = value;
  return last;
}
