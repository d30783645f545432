import type { Context } from '@ai-sdk/provider-utils';
import type { GenerateTextResult, Instructions, ModelMessage, OutputInterface, Tool, ToolSet } from 'ai';
import type { DecisionRecord } from '../actions/decision-record.ts';
import type { ActionType } from '../actions/intervention-actions.ts';
import type { InterventionEvent } from '../actions/intervention-events.ts';
import type { Lifecycle } from '../actions/lifecycle.ts';
import type { InterventionsResult } from '../runtime/interventions.ts';
import type { InterventionsOptions } from '../runtime/interventions-options.ts';
import type { ScriptedModel, ScriptedTurn } from './scripted-model.ts';

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
