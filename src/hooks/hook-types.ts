import type { ModelMessage } from 'ai';
import type { BeforeToolCallAction } from '../actions/lifecycle.ts';
import type { Awaitable } from '../util/awaitable.ts';
import type {
  OnChatAbortContext,
  OnChatDoneContext,
  OnChatErrorContext,
  OnChatStartContext,
  OnDecisionContext,
  OnMessageContext,
} from './chat-hook-types.ts';
import type { DrainContext, DrainResult, OnStatusContext, TransformContextContext } from './loop-hook-types.ts';
import type { OnResponseContext, OnResponseResult, PreRequestContext, PreRequestResult } from './model-hook-types.ts';
import type {
  GateToolCallsContext,
  OnToolCallErrorContext,
  OnToolCallErrorResult,
  OnToolCallResultContext,
  OnToolCallResultResult,
  PreToolCallContext,
  PreToolCallResult,
} from './tool-hook-types.ts';

// the hook families, each in its own file
export type {
  ChatResponse,
  OnChatAbortContext,
  OnChatDoneContext,
  OnChatErrorContext,
  OnChatStartContext,
  OnDecisionContext,
  OnMessageContext,
} from './chat-hook-types.ts';
export type { DrainContext, DrainResult, OnStatusContext, RunStatus, TransformContextContext } from './loop-hook-types.ts';
export type {
  ModelHookContext,
  OnResponseContext,
  OnResponseResult,
  PreRequestContext,
  PreRequestResult,
  ProviderRequest,
  ProviderResponse,
} from './model-hook-types.ts';
export type {
  GateToolCallsContext,
  OnToolCallErrorContext,
  OnToolCallErrorResult,
  OnToolCallResultContext,
  OnToolCallResultResult,
  PreToolCallContext,
  PreToolCallResult,
  ToolHookContext,
} from './tool-hook-types.ts';

/**
 * Every hook, by event. Observers (`onChat*`, `onMessage`, `onDecision`)
 * return nothing; interceptors may return a value that the next hook sees.
 * All run in registration order, awaited one at a time.
 *
 * | event | kind | short-circuits on |
 * |---|---|---|
 * | `preRequest` | interceptor | `{ response }` |
 * | `onResponse` | interceptor | never, always drains |
 * | `preToolCall` | interceptor | `{ result }` or `{ error }` |
 * | `onToolCallResult` | interceptor | never, always drains |
 * | `onToolCallError` | interceptor | never, always drains |
 * | `transformContext` | interceptor | never, always drains |
 * | `gateToolCalls` | decision (actions per call) | a deny, per call |
 * | `drainSteering` / `drainFollowUp` | collector | never, results joined |
 *
 * @example
 * ```ts
 * const hooks: Partial<InterventionHooks> = {
 *   preToolCall: ({ call }) => (call.toolName === 'fetch_weather' ? { result: { tempC: 20 } } : undefined),
 * };
 * ```
 */
export interface InterventionHooks {
  onChatStart: (context: OnChatStartContext) => Awaitable<void>;
  onChatDone: (context: OnChatDoneContext) => Awaitable<void>;
  onChatAbort: (context: OnChatAbortContext) => Awaitable<void>;
  onChatError: (context: OnChatErrorContext) => Awaitable<void>;
  onMessage: (context: OnMessageContext) => Awaitable<void>;
  onDecision: (context: OnDecisionContext) => Awaitable<void>;
  preRequest: (context: PreRequestContext) => Awaitable<PreRequestResult>;
  onResponse: (context: OnResponseContext) => Awaitable<OnResponseResult>;
  preToolCall: (context: PreToolCallContext) => Awaitable<PreToolCallResult>;
  onToolCallResult: (context: OnToolCallResultContext) => Awaitable<OnToolCallResultResult>;
  onToolCallError: (context: OnToolCallErrorContext) => Awaitable<OnToolCallErrorResult>;
  /** Reshape the history right before each model call (a waterfall; return nothing to keep it). */
  transformContext: (context: TransformContextContext) => Awaitable<ModelMessage[] | void>;
  /** Decide a turn's tool calls together: one action per call, index-aligned. */
  gateToolCalls: (context: GateToolCallsContext) => Awaitable<readonly BeforeToolCallAction[]>;
  /** Messages to inject after the turn's tool results (keeps the run going). */
  drainSteering: (context: DrainContext) => Awaitable<DrainResult>;
  /** Messages to continue the run with instead of ending at a final answer. */
  drainFollowUp: (context: DrainContext) => Awaitable<DrainResult>;
  /** Observe long operations: model calls, retries, pending handlers and approvals. */
  onStatus: (context: OnStatusContext) => Awaitable<void>;
}
/**
 * The name of a hook event, as `addHook` takes it.
 *
 * @example
 * ```ts
 * function addHooks<K extends HookName>(event: K, hooks: ReadonlyArray<InterventionHooks[K]>): () => void {
 *   const disposers = hooks.map((hook) => interventions.addHook(event, hook));
 *   return () => disposers.forEach((dispose) => dispose());
 * }
 * ```
 */
export type HookName = keyof InterventionHooks;
/**
 * Hooks given to `createInterventions`: one function or a list per event.
 *
 * @example
 * ```ts
 * const hooks: HooksConfig = {
 *   onChatStart: () => console.time('run'),
 *   onChatDone: [() => console.timeEnd('run'), ({ response }) => console.log(response.text)], // run in this order
 * };
 * const interventions = createInterventions({ handlers, hooks });
 * ```
 */
export type HooksConfig = {
  readonly [K in HookName]?: InterventionHooks[K] | ReadonlyArray<InterventionHooks[K]>;
};
