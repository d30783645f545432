import { tool as defineTool, isStepCount, jsonSchema, type Tool } from 'ai';
import type { DecisionRecord } from '../actions/decision-record.ts';
import { InterventionActions } from '../actions/intervention-actions.ts';
import type { InterventionEvent } from '../actions/intervention-events.ts';
import type { Lifecycle } from '../actions/lifecycle.ts';
import type { InterventionHandlerLike } from '../handlers/intervention-handler.ts';
import type { HooksConfig } from '../hooks/hook-types.ts';
import { mergeHooks } from '../hooks/merge-hooks.ts';
import { createInterventions } from '../runtime/create-interventions.ts';
import type { RunHandlerOptions, RunHandlerResult } from './run-handler-options.ts';
import { type ScriptedModel, type ScriptedTurn, scriptedModel } from './scripted-model.ts';
import { text } from './text.ts';
import { toolCall as toolCallPart } from './tool-call.ts';

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
