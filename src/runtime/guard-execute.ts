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
import type { ToolScope } from './tool-scope.ts';

type Execute = NonNullable<Tool['execute']>;
type Settled = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: unknown };

/**
 * Whether anything runs around `execute` for this scope: hooks, handlers, or
 * (in a run) a decision that can replace the input.
 */
export function needsExecuteGuard(scope: Pick<ToolScope, 'snapshot' | 'beforeExecute'>): boolean {
  const { hooks, handlers } = scope.snapshot;
  return (
    hooks.preToolCall.length > 0 ||
    hooks.onToolCallResult.length > 0 ||
    hooks.onToolCallError.length > 0 ||
    handlers.afterToolCall.length > 0 ||
    hooks.onStatus.length > 0 ||
    scope.beforeExecute !== undefined ||
    redactsToolErrors(scope.snapshot)
  );
}

/**
 * Wraps a tool's `execute` with the tool-level pipeline:
 * `scope.beforeExecute` (standalone decisions) → `preToolCall` hooks →
 * `execute` → `onToolCallResult` hooks → `afterToolCall` handlers, or on
 * failure `onToolCallError` hooks → rethrow (the SDK turns it into the
 * model's error result). A hook or handler failure ends the run through
 * `scope.critical`.
 *
 * Async-generator tools keep streaming: every preliminary value passes
 * through, and only the final one goes through the result pipeline (it is
 * held back by one value so an untransformed final is never emitted).
 */
export function guardExecute({
  scopeOf,
  toolName,
  tool,
  execute,
}: {
  /** The scope of this execution (a run's is fixed; the standalone one follows the runtime). */
  scopeOf: () => ToolScope;
  toolName: string;
  tool: Tool;
  execute: Execute;
}): Execute {
  const prepare = async (scope: ToolScope, input: unknown, options: ToolExecutionOptions<Context>) => {
    const starting = scope.ensureStarted();
    if (starting !== undefined) await starting;
    const override = scope.inputOverride(options.toolCallId);
    let call: ToolCallInfo = {
      toolCallId: options.toolCallId,
      toolName,
      input: override === undefined ? input : override.input,
    };
    if (scope.beforeExecute !== undefined) {
      call = await scope.beforeExecute({ tool, call, options });
    }
    const { onStatus, preToolCall } = scope.snapshot.hooks;
    if (onStatus.length === 0 && preToolCall.length === 0) return { type: 'call' as const, call };
    // hooks here run where the SDK would swallow their throw: it ends the run instead
    try {
      if (onStatus.length > 0) {
        await scope.status({ type: 'tool-call', toolCallId: call.toolCallId, toolName: call.toolName });
      }
      return preToolCall.length === 0
        ? { type: 'call' as const, call }
        : await runPreToolCall(preToolCall, { ...base(scope, options), call, tool });
    } catch (error) {
      scope.fail(error);
      throw error;
    }
  };

  const finish = async (
    scope: ToolScope,
    call: ToolCallInfo,
    options: ToolExecutionOptions<Context>,
    settled: Settled,
  ) => {
    const { hooks, handlers } = scope.snapshot;
    if (!settled.ok) {
      // the error's text reaches the next request, the response messages and the UI: redacted
      if (options.abortSignal?.aborted || hooks.onToolCallError.length === 0) throw await redactToolError(scope, call, settled.error);
      let replaced: unknown;
      try {
        replaced = await runOnToolCallError(hooks.onToolCallError, {
          ...base(scope, options),
          call,
          tool,
          error: settled.error,
        });
      } catch (error) {
        scope.fail(error);
        throw error;
      }
      throw await redactToolError(scope, call, replaced);
    }
    if (hooks.onToolCallResult.length === 0 && handlers.afterToolCall.length === 0) return settled.value;
    try {
      const context = base(scope, options);
      let result = settled.value;
      if (hooks.onToolCallResult.length > 0) {
        result = await runOnToolCallResult(hooks.onToolCallResult, { ...context, call, tool, result });
      }
      if (handlers.afterToolCall.length > 0) {
        const evaluation = scope.evaluate<AfterToolCallEvent>({
          event: { lifecycle: 'afterToolCall', ...context, toolCall: call, tool, result },
          makeDraft: draftResult,
          subject: subject(scope, call),
        });
        const verdict = isThenable(evaluation) ? await evaluation : evaluation;
        if (verdict.type !== 'deny') result = verdict.event.result;
      }
      return result;
    } catch (error) {
      scope.fail(error);
      throw error;
    }
  };

  async function* streaming(
    scope: ToolScope,
    target: Tool,
    run: Execute,
    input: unknown,
    options: ToolExecutionOptions<Context>,
  ) {
    const prepared = await prepare(scope, input, options);
    if (prepared.type !== 'call') {
      yield await finish(scope, prepared.call, options, shortCircuit(prepared));
      return;
    }
    let previous: { value: unknown } | undefined;
    try {
      const iterable = run.call(target, prepared.call.input, options) as AsyncIterable<unknown>;
      for await (const value of iterable) {
        if (previous !== undefined) yield previous.value;
        previous = { value };
      }
    } catch (error) {
      yield await finish(scope, prepared.call, options, { ok: false, error });
      return;
    }
    yield await finish(scope, prepared.call, options, { ok: true, value: previous?.value });
  }

  async function single(
    scope: ToolScope,
    target: Tool,
    run: Execute,
    input: unknown,
    options: ToolExecutionOptions<Context>,
  ) {
    const prepared = await prepare(scope, input, options);
    if (prepared.type !== 'call') return finish(scope, prepared.call, options, shortCircuit(prepared));
    let settled: Settled;
    try {
      let value: unknown = run.call(target, prepared.call.input, options);
      if (isThenable(value)) value = await value;
      // a function that returns (rather than is) an async generator: keep its last value
      if (isAsyncIterable(value)) value = await lastOf(value);
      settled = { ok: true, value };
    } catch (error) {
      settled = { ok: false, error };
    }
    return finish(scope, prepared.call, options, settled);
  }

  // which implementation runs is known per call (a run may have replaced the tool)
  return function guardedExecute(input: unknown, options: ToolExecutionOptions<Context>) {
    const scope = scopeOf();
    const target = scope.toolFor?.(toolName) ?? tool;
    const run = target.execute ?? execute;
    return Object.prototype.toString.call(run) === '[object AsyncGeneratorFunction]'
      ? streaming(scope, target, run, input, options)
      : single(scope, target, run, input, options);
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

function base(scope: ToolScope, options: ToolExecutionOptions<Context>) {
  return {
    messages: options.messages,
    runtimeContext: scope.runtimeContext,
    runId: scope.runId,
    toolContext: options.context,
    stepNumber: scope.stepNumber,
    abortSignal: options.abortSignal,
  };
}

function subject(scope: ToolScope, call: ToolCallInfo) {
  return {
    toolCallId: call.toolCallId,
    toolName: call.toolName,
    ...(scope.stepNumber === undefined ? {} : { stepNumber: scope.stepNumber }),
  };
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
