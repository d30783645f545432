import type { Context } from '@ai-sdk/provider-utils';
import type { Tool, ToolExecutionOptions } from 'ai';
import type { ToolCallInfo } from '../handlers/intervention-events.ts';
import { redactsToolErrors } from '../redaction/redact-tool-error.ts';
import { isAsyncIterable, lastOf } from '../util/async-iterable.ts';
import { isThenable } from '../util/is-thenable.ts';
import { finishToolCall, type Settled } from './finish-tool-call.ts';
import { needsPreparing, prepareToolCall, type DecideInExecute, type ToolExecution } from './prepare-tool-call.ts';
import type { Run } from './run.ts';
import { approvalOf, executeApproved } from './use-approval.ts';

export type { DecideInExecute } from './prepare-tool-call.ts';

type Execute = NonNullable<Tool['execute']>;

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
 * `prepareToolCall` (decide, `preToolCall` hooks) → the tool →
 * `finishToolCall` (result hooks and `afterToolCall` handlers, or
 * `onToolCallError` hooks). When nothing must happen first, the tool is
 * called at once, as the SDK would call it, and what it returns keeps its
 * shape: an async iterable stays one (each preliminary value passes through;
 * the final one, held back by one value, goes through the result pipeline).
 * After preparing, only an async generator function keeps streaming; a
 * plain function that returns an iterable gives its last value. An approved
 * call being resumed runs through the approval ledger (`executeApproved`):
 * once across every resume of its approval, replays get its outcome.
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
  // which implementation runs is known per call (a run may have replaced the tool)
  return function guardedExecute(input: unknown, options: ToolExecutionOptions<Context>) {
    const run = runOf();
    const target = run.invocation?.replacedTools.get(toolName) ?? tool;
    const perform = target.execute ?? execute;
    const execution: ToolExecution = { run, tool, options };
    const call: ToolCallInfo = { toolCallId: options.toolCallId, toolName, input };
    const streams = Object.prototype.toString.call(perform) === '[object AsyncGeneratorFunction]';
    const runTool = (prepared: ToolCallInfo) => invoke(execution, prepared, () => perform.call(target, prepared.input, options));
    const pipeline = (start: ToolCallInfo, decideFirst: DecideInExecute | undefined): unknown => {
      if (!needsPreparing(run, decideFirst)) return runTool(start);
      if (streams) {
        return (async function* () {
          const prepared = await prepareToolCall(execution, start, decideFirst);
          if (prepared.type !== 'call') yield await finishToolCall(execution, prepared.call, shortCircuit(prepared));
          else yield* runTool(prepared.call) as AsyncIterable<unknown>;
        })();
      }
      return prepareToolCall(execution, start, decideFirst).then(async (prepared) => {
        if (prepared.type !== 'call') return finishToolCall(execution, prepared.call, shortCircuit(prepared));
        const result = runTool(prepared.call);
        return isAsyncIterable(result) ? lastOf(result) : result;
      });
    };
    // an approved call being resumed executes once across every resume of its approval
    const approval = approvalOf(run, options);
    const ledger = run.approvalLedger;
    if (approval === undefined || ledger === undefined) return pipeline(call, decide);
    return executeApproved({
      run,
      ledger,
      approval,
      call,
      abortSignal: options.abortSignal,
      streams,
      decide: decide === undefined ? undefined : (start) => decide(run, { tool, call: start, options }),
      execute: (decided) => pipeline(decided, undefined),
    });
  } as Execute;
}

/** Calls the tool and routes what it gives through the result pipeline, keeping its shape. */
function invoke(execution: ToolExecution, call: ToolCallInfo, perform: () => unknown): unknown {
  let value: unknown;
  try {
    value = perform();
  } catch (error) {
    return finishToolCall(execution, call, { ok: false, error });
  }
  if (isAsyncIterable(value)) return streamResults(execution, call, value);
  if (isThenable(value)) {
    return Promise.resolve(value).then(
      (resolved) => finishToolCall(execution, call, { ok: true, value: resolved }),
      (error: unknown) => finishToolCall(execution, call, { ok: false, error }),
    );
  }
  return finishToolCall(execution, call, { ok: true, value });
}

/** Preliminary results pass through; the final one goes through the result pipeline. */
async function* streamResults(execution: ToolExecution, call: ToolCallInfo, iterable: AsyncIterable<unknown>) {
  let previous: { value: unknown } | undefined;
  try {
    for await (const value of iterable) {
      if (previous !== undefined) yield previous.value;
      previous = { value };
    }
  } catch (error) {
    yield await finishToolCall(execution, call, { ok: false, error });
    return;
  }
  yield await finishToolCall(execution, call, { ok: true, value: previous?.value });
}

function shortCircuit(prepared: { type: 'result'; result: unknown } | { type: 'error'; error: unknown }): Settled {
  return prepared.type === 'result' ? { ok: true, value: prepared.result } : { ok: false, error: prepared.error };
}
