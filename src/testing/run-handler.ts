import type { Context } from '@ai-sdk/provider-utils';
import {
  isStepCount,
  jsonSchema,
  tool as defineTool,
  type GenerateTextResult,
  type Instructions,
  type ModelMessage,
  type OutputInterface,
  type Tool,
  type ToolSet,
} from 'ai';
import { InterventionActions, type ActionType } from '../actions/intervention-actions.ts';
import type { DecisionRecord } from '../handlers/decision-record.ts';
import type { InterventionEvent } from '../handlers/intervention-events.ts';
import type { InterventionHandlerLike } from '../handlers/intervention-handler.ts';
import type { Lifecycle } from '../handlers/lifecycle.ts';
import type { HooksConfig } from '../hooks/hook-types.ts';
import { mergeHooks } from '../hooks/merge-hooks.ts';
import { createInterventions } from '../runtime/create-interventions.ts';
import type { InterventionsOptions, InterventionsResult } from '../runtime/interventions.ts';
import { scriptedModel, type ScriptedModel, type ScriptedTurn } from './scripted-model.ts';
import { text } from './text.ts';
import { toolCall as toolCallPart } from './tool-call.ts';

/**
 * The tool call the scripted model makes for a tool lifecycle point.
 *
 * @example
 * ```ts
 * const call: RunHandlerToolCall = { toolName: 'delete_file', input: { path: '/etc/passwd' } };
 * await runHandler(new ToolGuard(['delete_file']), { lifecycle: 'beforeToolCall', toolCall: call });
 * ```
 */
export interface RunHandlerToolCall {
  readonly toolName: string;
  readonly input: unknown;
  /** Default `'call-1'`. */
  readonly toolCallId?: string;
}

/**
 * What every {@link runHandler} call may set: the run's input and the
 * runtime's other options.
 *
 * @example
 * ```ts
 * const base: RunHandlerBaseOptions = {
 *   runtimeContext: { role: 'viewer' },
 *   prompt: 'Delete the report',
 *   options: { wording: { deniedToolCall: ({ reason }) => `Blocked: ${reason}` } },
 * };
 * await runHandler(new ToolGuard(['delete_file']), { ...base, lifecycle: 'beforeToolCall', toolCall: { toolName: 'delete_file', input: {} } });
 * ```
 */
export interface RunHandlerBaseOptions {
  /** The run's `runtimeContext`. */
  readonly runtimeContext?: Context;
  /** The user's message. Default `'Run the handler.'`; ignored when `messages` is set. */
  readonly prompt?: string;
  /** The run's input messages, instead of `prompt`. */
  readonly messages?: ModelMessage[];
  readonly instructions?: Instructions;
  /** More tools for the run (a tool lifecycle point adds its own). */
  readonly tools?: ToolSet;
  /** The runtime's other options (wording, `maxGuideRetries`, `approvalSecret`, …). */
  readonly options?: Omit<InterventionsOptions, 'handlers' | 'hooks'>;
}

/**
 * Where {@link runHandler} evaluates the handler, and what the scripted model
 * answers there.
 *
 * | lifecycle | the scripted run |
 * |---|---|
 * | `beforeInvocation`, `beforeModelCall` | the model answers `response` (default: text `Done.`) |
 * | `afterModelCall` | the model answers `response`, then `Done.` to any retry |
 * | `beforeToolCall`, `afterToolCall` | the model calls `toolCall`, then answers `Done.`; the tool is `tool` or a stand-in returning `result` |
 *
 * @example
 * ```ts
 * const options: RunHandlerOptions = {
 *   lifecycle: 'afterToolCall',
 *   toolCall: { toolName: 'lookup_user', input: { id: 7 } },
 *   result: { name: 'Ada', ssn: '123-45-6789' },
 * };
 * ```
 */
export type RunHandlerOptions =
  | (RunHandlerBaseOptions & {
      readonly lifecycle: 'beforeInvocation' | 'beforeModelCall';
      readonly response?: ScriptedTurn;
    })
  | (RunHandlerBaseOptions & { readonly lifecycle: 'afterModelCall'; readonly response: ScriptedTurn })
  | (RunHandlerBaseOptions & {
      readonly lifecycle: 'beforeToolCall' | 'afterToolCall';
      readonly toolCall: RunHandlerToolCall;
      /** The tool to call (its `execute` runs unless the call is stopped). Default: a stand-in. */
      readonly tool?: Tool;
      /** What the stand-in tool returns. Default `{ ok: true }`. */
      readonly result?: unknown;
    });

/**
 * What {@link runHandler} observed.
 *
 * @example
 * ```ts
 * const outcome: RunHandlerResult<'beforeToolCall'> = await runHandler(new ToolGuard(['delete_file']), {
 *   lifecycle: 'beforeToolCall',
 *   toolCall: { toolName: 'delete_file', input: { path: '/tmp/x' } },
 * });
 * if (outcome.action === 'transform') console.log(outcome.event?.toolCall.input);
 * ```
 */
export interface RunHandlerResult<LIFECYCLE extends Lifecycle = Lifecycle> {
  /** The action of the handler's first record at the lifecycle point; `undefined` if it was not evaluated there. */
  readonly action: ActionType | 'error' | undefined;
  /** That record. */
  readonly record: DecisionRecord | undefined;
  /** Every record of the run, in order. */
  readonly records: readonly DecisionRecord[];
  /**
   * The event as the handler left it (a transform applied) in that first
   * evaluation; `undefined` when it denied or threw.
   */
  readonly event: Extract<InterventionEvent, { readonly lifecycle: LIFECYCLE }> | undefined;
  /** What the run threw (`onError: 'throw'`, a `beforeInvocation` deny, …), if it threw. */
  readonly error: unknown;
  /** The run's result, unless it threw. */
  readonly result: (GenerateTextResult<ToolSet, Context, OutputInterface<string, string>> & InterventionsResult) | undefined;
  /** The scripted model: `model.calls` are the requests it received. */
  readonly model: ScriptedModel;
  /** The inputs the tool's `execute` ran with (tool lifecycle points). */
  readonly executed: readonly unknown[];
  /** The tool result the model read for the call (tool lifecycle points), if it read one. */
  readonly toolResult: unknown;
}

const PROBE = 'ai-interventions/testing:probe';
const DONE = 'Done.';

/**
 * Runs one handler (or one set of hooks) through the real runtime
 * (`createInterventions` and `generateText`, on a scripted model) at one
 * lifecycle point, and returns its decision record, the action, and the
 * event as it left it. Everything else about the run is there too: every
 * record, what the tool ran with, what the model read.
 *
 * With a hooks config instead of a handler (e.g. `{ gateToolCalls }` or
 * `{ preToolCall }`), `record` is the first record at the lifecycle point
 * (a `gateToolCalls` hook's records are named after the hook).
 *
 * @example
 * ```ts
 * const { action, record, toolResult, executed } = await runHandler(new ToolGuard(['delete_file']), {
 *   lifecycle: 'beforeToolCall',
 *   toolCall: { toolName: 'delete_file', input: { path: '/tmp/report.txt' } },
 *   runtimeContext: { role: 'viewer' },
 * });
 * expect(action).toBe('deny');
 * expect(record?.reason).toMatch(/not allowed/);
 * expect(executed).toEqual([]);
 * expect(toolResult).toMatchObject({ type: 'execution-denied' });
 * ```
 */
export async function runHandler<OPTIONS extends RunHandlerOptions>(
  target: InterventionHandlerLike | HooksConfig,
  scripted: OPTIONS,
): Promise<RunHandlerResult<OPTIONS['lifecycle']>> {
  const options: RunHandlerOptions = scripted;
  const { lifecycle } = options;
  const seen: InterventionEvent[] = [];
  const records: DecisionRecord[] = [];
  const executed: unknown[] = [];
  const handler = isHandler(target) ? target : undefined;

  let first: ScriptedTurn;
  const tools: Record<string, Tool> = { ...options.tools };
  let toolCallId: string | undefined;
  if ('toolCall' in options) {
    const { toolName, input } = options.toolCall;
    toolCallId = options.toolCall.toolCallId ?? 'call-1';
    first = toolCallPart(toolCallId, toolName, input);
    tools[toolName] = recording(options.tool ?? standIn(options.result), executed);
  } else {
    first = options.response ?? text(DONE);
  }
  // guided retries and later steps get a plain answer
  const model = scriptedModel(first, ...Array.from({ length: 16 }, () => text(DONE)));

  const interventions = createInterventions({
    ...options.options,
    handlers: handler === undefined ? [probeFor(lifecycle, seen)] : [handler, probeFor(lifecycle, seen)],
    hooks: mergeHooks(handler === undefined ? (target as HooksConfig) : undefined, {
      onDecision: ({ record }) => void records.push(record),
    }),
  });

  let result: RunHandlerResult['result'];
  let error: unknown;
  try {
    result = await interventions.generateText({
      model,
      tools,
      stopWhen: isStepCount(3),
      prompt: options.messages ?? options.prompt ?? 'Run the handler.',
      ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
      ...(options.runtimeContext === undefined ? {} : { runtimeContext: options.runtimeContext }),
    });
  } catch (caught) {
    error = caught;
  }

  const position = records.findIndex(
    (record) => record.handler !== PROBE && record.lifecycle === lifecycle && (handler === undefined || record.handler === handler.name),
  );
  const record = records[position];
  return {
    action: record?.action,
    record,
    records: records.filter((candidate) => candidate.handler !== PROBE),
    event: record === undefined ? undefined : (eventAfter(records, position, seen) as RunHandlerResult<OPTIONS['lifecycle']>['event']),
    error,
    result,
    model,
    executed,
    toolResult: toolCallId === undefined ? undefined : toolResultRead(model, toolCallId),
  };
}

function isHandler(target: InterventionHandlerLike | HooksConfig): target is InterventionHandlerLike {
  return 'name' in target && typeof target.name === 'string';
}

/**
 * The event the probe (registered right after the handler) saw in the
 * evaluation of `records[position]`: the records of one evaluation are
 * reported together, in registration order, and the probe's come last.
 */
function eventAfter(
  records: readonly DecisionRecord[],
  position: number,
  seen: readonly InterventionEvent[],
): InterventionEvent | undefined {
  const tested = records[position];
  if (tested === undefined) return undefined;
  const sameEvaluation = (other: DecisionRecord) =>
    other.lifecycle === tested.lifecycle && other.toolCallId === tested.toolCallId && other.stepNumber === tested.stepNumber;
  let next = position + 1;
  while (records[next] !== undefined && records[next]?.handler !== PROBE && sameEvaluation(records[next] as DecisionRecord)) next++;
  const probe = records[next];
  if (probe?.handler !== PROBE || !sameEvaluation(probe)) return undefined;
  return seen[records.slice(0, next).filter((record) => record.handler === PROBE).length];
}

/** A handler that records the event it sees at `lifecycle` and proceeds. */
function probeFor(lifecycle: Lifecycle, seen: InterventionEvent[]): InterventionHandlerLike {
  const observe = (event: InterventionEvent) => {
    seen.push(event);
    return InterventionActions.proceed();
  };
  switch (lifecycle) {
    case 'beforeInvocation':
      return { name: PROBE, beforeInvocation: observe };
    case 'beforeModelCall':
      return { name: PROBE, beforeModelCall: observe };
    case 'afterModelCall':
      return { name: PROBE, afterModelCall: observe };
    case 'beforeToolCall':
      return { name: PROBE, beforeToolCall: observe };
    case 'afterToolCall':
      return { name: PROBE, afterToolCall: observe };
  }
}

/** A tool accepting any input and returning `result`. */
function standIn(result: unknown): Tool {
  return defineTool({
    description: 'A stand-in tool scripted by runHandler',
    inputSchema: jsonSchema<unknown>({}),
    execute: async () => (result === undefined ? { ok: true } : result),
  });
}

/** `tool`, noting each input its `execute` runs with. */
function recording(tool: Tool, executed: unknown[]): Tool {
  const { execute } = tool;
  if (execute === undefined) return tool;
  return {
    ...tool,
    execute: (input: unknown, options: Parameters<typeof execute>[1]) => {
      executed.push(input);
      return execute(input, options);
    },
  } as Tool;
}

/** The output of the last tool result for `toolCallId` the model was sent. */
function toolResultRead(model: ScriptedModel, toolCallId: string): unknown {
  let output: unknown;
  for (const request of model.calls) {
    for (const message of request.prompt) {
      if (message.role !== 'tool') continue;
      for (const part of message.content) {
        if (part.type === 'tool-result' && part.toolCallId === toolCallId) output = part.output;
      }
    }
  }
  return output;
}
