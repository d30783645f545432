import type { Context } from '@ai-sdk/provider-utils';
import type { ModelMessage, Tool } from 'ai';
import type { ToolCallInfo } from '../actions/intervention-events.ts';

/**
 * Context shared by the tool-level hooks (`preToolCall`, `onToolCallResult`,
 * `onToolCallError`).
 *
 * @example
 * ```ts
 * const label = ({ call, stepNumber }: ToolHookContext) => `${call.toolName} (${call.toolCallId}, step ${stepNumber ?? '-'})`;
 * interventions.addHook('onToolCallResult', (context) => console.log('done:', label(context)));
 * ```
 */
export interface ToolHookContext {
  /** The run's id (`undefined` outside a run). */
  readonly runId: string | undefined;
  readonly call: ToolCallInfo;
  readonly messages: readonly ModelMessage[];
  readonly runtimeContext: Context;
  /** The tool's own context (`toolsContext[toolName]`, as `execute` gets it). */
  readonly toolContext: unknown;
  readonly stepNumber: number | undefined;
  readonly abortSignal: AbortSignal | undefined;
}
/**
 * `preToolCall`: before a tool's `execute`, with the tool definition.
 *
 * @example
 * ```ts
 * interventions.addHook('preToolCall', ({ call, runtimeContext }: PreToolCallContext) => {
 *   if (call.toolName === 'delete_file' && runtimeContext.role !== 'admin') return { error: new Error('Not permitted') };
 * });
 * ```
 */
export interface PreToolCallContext extends ToolHookContext {
  readonly tool: Tool;
}
/**
 * Replace the call's input (`{ call }`), or short-circuit with a result or an
 * error (the tool's `execute` is not called). Return nothing to run the call
 * as it is.
 *
 * @example
 * ```ts
 * interventions.addHook('preToolCall', ({ call }): PreToolCallResult => {
 *   if (call.toolName === 'get_time') return { result: new Date().toISOString() }; // execute is not called
 *   if (call.toolName === 'search') return { call: { ...call, input: { ...(call.input as object), limit: 5 } } };
 * });
 * ```
 */
export type PreToolCallResult = void | { readonly call: ToolCallInfo } | { readonly result: unknown } | { readonly error: unknown };
/**
 * `onToolCallResult`: a tool returned (or `preToolCall` supplied a result).
 *
 * @example
 * ```ts
 * interventions.addHook('onToolCallResult', ({ call, result }: OnToolCallResultContext) => {
 *   console.log(`${call.toolName} returned`, result);
 * });
 * ```
 */
export interface OnToolCallResultContext extends ToolHookContext {
  readonly tool: Tool;
  readonly result: unknown;
}
/**
 * Replace the result the model reads. Return nothing to keep it.
 *
 * @example
 * ```ts
 * interventions.addHook('onToolCallResult', ({ result }): OnToolCallResultResult =>
 *   typeof result === 'string' && result.length > 8_000 ? { result: `${result.slice(0, 8_000)}… (truncated)` } : undefined,
 * );
 * ```
 */
export type OnToolCallResultResult = void | { readonly result: unknown };
/**
 * `onToolCallError`: a tool call failed: `execute` threw, the input was
 * invalid, the tool is unknown (`tool` is then `undefined`), or `preToolCall`
 * short-circuited with `{ error }`.
 *
 * @example
 * ```ts
 * interventions.addHook('onToolCallError', ({ call, tool, error }: OnToolCallErrorContext) => {
 *   if (tool === undefined) console.warn(`the model called an unknown tool "${call.toolName}"`);
 *   else console.error(`${call.toolName} failed:`, error);
 * });
 * ```
 */
export interface OnToolCallErrorContext extends ToolHookContext {
  readonly tool: Tool | undefined;
  readonly error: unknown;
}
/**
 * Replace the error. The model reads it as the AI SDK renders errors:
 * `error.toString()` for an `Error` (e.g. `Error: Bad arguments`), the string
 * itself, or its JSON.
 *
 * @example
 * ```ts
 * // log the details, give the model a short message instead
 * interventions.addHook('onToolCallError', ({ call, error }): OnToolCallErrorResult => {
 *   console.error(error);
 *   return { error: `${call.toolName} failed; continue without it.` };
 * });
 * ```
 */
export type OnToolCallErrorResult = void | { readonly error: unknown };
/**
 * `gateToolCalls`: once per turn, every well-formed tool call of the turn,
 * before any of them runs. Return one action per call, in the same order.
 *
 * @example
 * ```ts
 * interventions.addHook('gateToolCalls', ({ calls }: GateToolCallsContext) =>
 *   calls.map(() =>
 *     calls.length > 3 ? InterventionActions.guide('Call at most 3 tools per turn.') : InterventionActions.proceed(),
 *   ),
 * );
 * ```
 */
export interface GateToolCallsContext {
  /** The run's id (`undefined` outside a run). */
  readonly runId: string | undefined;
  /** The turn's well-formed calls (known tool, valid input), in the model's order. */
  readonly calls: readonly ToolCallInfo[];
  readonly messages: readonly ModelMessage[];
  readonly stepNumber: number | undefined;
  readonly runtimeContext: Context;
  readonly abortSignal: AbortSignal | undefined;
}
