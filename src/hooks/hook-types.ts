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
  UserModelMessage,
} from 'ai';
import type { DecisionRecord } from '../handlers/decision-record.ts';
import type { ToolCallInfo } from '../handlers/intervention-events.ts';
import type {
  Awaitable,
  BeforeToolCallAction,
} from '../handlers/intervention-handler.ts';
import type { Lifecycle } from '../handlers/lifecycle.ts';

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
  /** The tool's own context (`toolsContext[toolName]`, as `execute` gets it). */
  readonly toolContext: unknown;
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

/** `transformContext`: right before each model call, the history about to be sent. */
export interface TransformContextContext {
  readonly messages: ModelMessage[];
  readonly stepNumber: number;
  readonly runtimeContext: Context;
  readonly abortSignal: AbortSignal | undefined;
}

/** `gateToolCalls`: once per turn, every well-formed tool call of the turn. */
export interface GateToolCallsContext {
  /** The turn's well-formed calls (known tool, valid input), in the model's order. */
  readonly calls: readonly ToolCallInfo[];
  readonly messages: readonly ModelMessage[];
  readonly stepNumber: number | undefined;
  readonly runtimeContext: Context;
  readonly abortSignal: AbortSignal | undefined;
}

/** `drainSteering` / `drainFollowUp`: where the run is when the queue is consulted. */
export interface DrainContext {
  /** The steps completed so far. */
  readonly steps: ReadonlyArray<StepResult<ToolSet>>;
  readonly runtimeContext: Context;
}

/**
 * Messages to inject: a string (a user message), user messages, or nothing.
 * Several hooks' strings are joined with a blank line into one message.
 */
export type DrainResult = void | string | readonly UserModelMessage[];

/** What a long operation is doing, for `onStatus`. */
export type RunStatus =
  | { readonly type: 'model-call'; readonly stepNumber: number | undefined; readonly attempt: number }
  | {
      readonly type: 'guide-retry';
      readonly stepNumber: number | undefined;
      readonly attempt: number;
      readonly feedback: string;
    }
  | {
      readonly type: 'handler-pending';
      readonly handler: string;
      readonly lifecycle: Lifecycle;
      readonly toolCallId?: string;
      readonly toolName?: string;
    }
  | {
      readonly type: 'approval-pending';
      readonly toolCallId: string;
      readonly toolName: string;
      readonly prompt: string;
    }
  | { readonly type: 'tool-call'; readonly toolCallId: string; readonly toolName: string }
  | { readonly type: 'steering' | 'follow-up'; readonly messages: readonly UserModelMessage[] };

/** `onStatus`: the run entered a long operation. */
export interface OnStatusContext {
  readonly status: RunStatus;
  readonly runtimeContext: Context;
}

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
  onToolCallResult: (
    context: OnToolCallResultContext,
  ) => Awaitable<OnToolCallResultResult>;
  onToolCallError: (
    context: OnToolCallErrorContext,
  ) => Awaitable<OnToolCallErrorResult>;
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

/** The name of a hook event. */
export type HookName = keyof InterventionHooks;

/** Hooks given to `createInterventions`: one function or a list per event. */
export type HooksConfig = {
  readonly [K in HookName]?: InterventionHooks[K] | ReadonlyArray<InterventionHooks[K]>;
};
