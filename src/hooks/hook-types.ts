import type {
  LanguageModelV4CallOptions,
  LanguageModelV4GenerateResult,
} from '@ai-sdk/provider';
import type { Context } from '@ai-sdk/provider-utils';
import type {
  FinishReason,
  LanguageModelUsage,
  ModelMessage,
  StepResult,
  Tool,
  ToolSet,
} from 'ai';
import type { DecisionRecord } from '../handlers/decision-record.ts';
import type { ToolCallInfo } from '../handlers/intervention-events.ts';
import type { Awaitable } from '../handlers/intervention-handler.ts';

/** A provider-level request: what a model middleware's `params` are. */
export type ProviderRequest = LanguageModelV4CallOptions;

/** A provider-level response: what a model middleware's `wrapGenerate` returns. */
export type ProviderResponse = LanguageModelV4GenerateResult;

/** How a run ended successfully, as `onChatDone` sees it. */
export interface ChatResponse {
  readonly text: string;
  readonly finishReason: FinishReason;
  readonly usage: LanguageModelUsage;
  readonly steps: ReadonlyArray<StepResult<ToolSet>>;
  /** The messages the run added (assistant and tool messages). */
  readonly responseMessages: readonly ModelMessage[];
}

/** `onChatStart`: once, before the run's input messages are committed. */
export interface OnChatStartContext {
  /** The run's input messages. */
  readonly messages: readonly ModelMessage[];
  readonly runtimeContext: Context;
  readonly abortSignal: AbortSignal | undefined;
}

/** `onChatDone`: the run completed. Exclusive with `onChatAbort` / `onChatError`. */
export interface OnChatDoneContext {
  readonly response: ChatResponse;
}

/** `onChatAbort`: the run was cancelled through its abort signal. */
export interface OnChatAbortContext {
  readonly reason: unknown;
}

/** `onChatError`: the run failed (provider error, hook throw, handler failure). */
export interface OnChatErrorContext {
  readonly error: unknown;
}

/**
 * `onMessage`: a message was committed to the history: the new input
 * message(s) at the start, then each assistant message and each tool message.
 */
export interface OnMessageContext {
  readonly message: ModelMessage;
}

/** `onDecision`: a handler was evaluated. */
export interface OnDecisionContext {
  readonly record: DecisionRecord;
}

/** Context shared by the provider-level hooks. */
export interface ModelHookContext {
  /** The step number, or `undefined` through `interventions.middleware` alone. */
  readonly stepNumber: number | undefined;
  /** The run's `runtimeContext`, or `undefined` through `interventions.middleware` alone. */
  readonly runtimeContext: Context | undefined;
  readonly abortSignal: AbortSignal | undefined;
}

/** `preRequest`: before each provider call. */
export interface PreRequestContext extends ModelHookContext {
  readonly request: ProviderRequest;
}

/** Modify the request, or short-circuit with a response (the provider is not called). */
export type PreRequestResult =
  | void
  | { readonly request: ProviderRequest }
  | { readonly response: ProviderResponse };

/** `onResponse`: after each provider call (or a `preRequest` short-circuit). */
export interface OnResponseContext extends ModelHookContext {
  readonly request: ProviderRequest;
  readonly response: ProviderResponse;
}

/** Replace the response. */
export type OnResponseResult = void | { readonly response: ProviderResponse };

/** Context shared by the tool-level hooks. */
export interface ToolHookContext {
  readonly call: ToolCallInfo;
  readonly messages: readonly ModelMessage[];
  readonly runtimeContext: Context;
  readonly stepNumber: number | undefined;
  readonly abortSignal: AbortSignal | undefined;
}

/** `preToolCall`: before a tool's `execute`. */
export interface PreToolCallContext extends ToolHookContext {
  readonly tool: Tool;
}

/**
 * Replace the call's input (`{ call }`), or short-circuit with a result or an
 * error (the tool's `execute` is not called).
 */
export type PreToolCallResult =
  | void
  | { readonly call: ToolCallInfo }
  | { readonly result: unknown }
  | { readonly error: unknown };

/** `onToolCallResult`: a tool returned (or `preToolCall` supplied a result). */
export interface OnToolCallResultContext extends ToolHookContext {
  readonly tool: Tool;
  readonly result: unknown;
}

/** Replace the result. */
export type OnToolCallResultResult = void | { readonly result: unknown };

/**
 * `onToolCallError`: a tool call failed: `execute` threw, the input was
 * invalid, the tool is unknown (`tool` is then `undefined`), or `preToolCall`
 * short-circuited with `{ error }`.
 */
export interface OnToolCallErrorContext extends ToolHookContext {
  readonly tool: Tool | undefined;
  readonly error: unknown;
}

/** Replace the error. The model reads it as the AI SDK renders errors: `error.toString()` for an `Error` (e.g. `Error: Bad arguments`), the string itself, or its JSON. */
export type OnToolCallErrorResult = void | { readonly error: unknown };

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
  onToolCallResult: (
    context: OnToolCallResultContext,
  ) => Awaitable<OnToolCallResultResult>;
  onToolCallError: (
    context: OnToolCallErrorContext,
  ) => Awaitable<OnToolCallErrorResult>;
}

/** The name of a hook event. */
export type HookName = keyof InterventionHooks;

/** Hooks given to `createInterventions`: one function or a list per event. */
export type HooksConfig = {
  readonly [K in HookName]?: InterventionHooks[K] | ReadonlyArray<InterventionHooks[K]>;
};
