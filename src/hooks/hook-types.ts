import type { InterventionsWarningCode } from '../errors/interventions-warning.ts';
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

/**
 * A provider-level request (`LanguageModelV4CallOptions`): what `preRequest`
 * and `onResponse` hooks see, and what a model middleware's `params` are.
 *
 * @example
 * ```ts
 * const responses = new Map<string, ProviderResponse>();
 * const cacheKey = (request: ProviderRequest) => JSON.stringify([request.prompt, request.tools]);
 * interventions.addHook('preRequest', ({ request }) => {
 *   const cached = responses.get(cacheKey(request));
 *   if (cached) return { response: cached };
 * });
 * ```
 */
export type ProviderRequest = LanguageModelV4CallOptions;

/**
 * A provider-level response (`LanguageModelV4GenerateResult`): what
 * `onResponse` hooks see, and what a model middleware's `wrapGenerate` returns.
 *
 * @example
 * ```ts
 * const cache = new Map<string, ProviderResponse>();
 * interventions.addHook('onResponse', ({ request, response }) => void cache.set(JSON.stringify(request.prompt), response));
 * ```
 */
export type ProviderResponse = LanguageModelV4GenerateResult;

/**
 * How a run ended successfully, as `onChatDone` sees it: the final text,
 * the steps, and the messages the run added.
 *
 * @example
 * ```ts
 * function logRun(response: ChatResponse): void {
 *   console.log(`${response.steps.length} steps, ${response.usage.totalTokens} tokens, finish: ${response.finishReason}`);
 * }
 * interventions.addHook('onChatDone', ({ response }) => logRun(response));
 * ```
 */
export interface ChatResponse {
  readonly text: string;
  readonly finishReason: FinishReason;
  readonly usage: LanguageModelUsage;
  readonly steps: ReadonlyArray<StepResult<ToolSet>>;
  /** The messages the run added (assistant and tool messages). */
  readonly responseMessages: readonly ModelMessage[];
}

/**
 * `onChatStart`: once, before the run's input messages are committed.
 *
 * @example
 * ```ts
 * interventions.addHook('onChatStart', ({ messages, runtimeContext }: OnChatStartContext) => {
 *   console.log(`run for user ${String(runtimeContext.userId)}: ${messages.length} input messages`);
 * });
 * ```
 */
export interface OnChatStartContext {
  /** The run's id (`undefined` outside a run). */
  readonly runId: string | undefined;
  /** The run's input messages. */
  readonly messages: readonly ModelMessage[];
  readonly runtimeContext: Context;
  readonly abortSignal: AbortSignal | undefined;
}

/**
 * `onChatDone`: the run completed. Exclusive with `onChatAbort` / `onChatError`.
 *
 * @example
 * ```ts
 * interventions.addHook('onChatDone', ({ response }: OnChatDoneContext) => {
 *   console.log(`done after ${response.steps.length} steps: ${response.text}`);
 * });
 * ```
 */
export interface OnChatDoneContext {
  /** The run's id (`undefined` outside a run). */
  readonly runId: string | undefined;
  readonly response: ChatResponse;
}

/**
 * `onChatAbort`: the run was cancelled through its abort signal; `reason`
 * is what the signal was aborted with.
 *
 * @example
 * ```ts
 * const controller = new AbortController();
 * interventions.addHook('onChatAbort', ({ reason }: OnChatAbortContext) => console.warn('run cancelled:', reason));
 * const result = interventions.streamText({ model, messages, abortSignal: controller.signal });
 * controller.abort('The user pressed stop');
 * ```
 */
export interface OnChatAbortContext {
  /** The run's id (`undefined` outside a run). */
  readonly runId: string | undefined;
  readonly reason: unknown;
}

/**
 * `onChatError`: the run failed (provider error, hook throw, handler
 * failure). The caller gets the same error.
 *
 * @example
 * ```ts
 * interventions.addHook('onChatError', ({ error }: OnChatErrorContext) => {
 *   if (InterventionsError.isInstance(error)) console.error(`[${error.code}] ${error.message}`);
 *   else console.error('run failed:', error);
 * });
 * ```
 */
export interface OnChatErrorContext {
  /** The run's id (`undefined` outside a run). */
  readonly runId: string | undefined;
  readonly error: unknown;
}

/**
 * `onMessage`: a message was committed to the history: the new input
 * message(s) at the start, then each assistant message and each tool message.
 *
 * @example
 * ```ts
 * const transcript: ModelMessage[] = [];
 * interventions.addHook('onMessage', ({ message }: OnMessageContext) => void transcript.push(message));
 * ```
 */
export interface OnMessageContext {
  /** The run's id (`undefined` outside a run). */
  readonly runId: string | undefined;
  readonly message: ModelMessage;
}

/**
 * `onDecision`: a handler was evaluated; the record is final (`enforced`
 * included).
 *
 * @example
 * ```ts
 * interventions.addHook('onDecision', ({ record }: OnDecisionContext) => {
 *   if (record.action === 'deny' && record.enforced) {
 *     console.warn(`${record.handler} denied ${record.toolName ?? record.lifecycle}: ${record.reason}`);
 *   }
 * });
 * ```
 */
export interface OnDecisionContext {
  /** The run's id (`undefined` outside a run). */
  readonly runId: string | undefined;
  readonly record: DecisionRecord;
}

/**
 * Context shared by the provider-level hooks (`preRequest`, `onResponse`).
 *
 * @example
 * ```ts
 * const where = ({ stepNumber }: ModelHookContext) => (stepNumber === undefined ? 'middleware' : `step ${stepNumber}`);
 * interventions.addHook('onResponse', (context) => console.log(where(context), context.response.finishReason.unified));
 * ```
 */
export interface ModelHookContext {
  /** The model called: its provider and id (`undefined` through `interventions.middleware` before the call). */
  readonly model: { readonly provider: string; readonly modelId: string };
  /** The run's id (`undefined` outside a run). */
  readonly runId: string | undefined;
  /** The step number, or `undefined` through `interventions.middleware` alone. */
  readonly stepNumber: number | undefined;
  /** The run's `runtimeContext`, or `undefined` through `interventions.middleware` alone. */
  readonly runtimeContext: Context | undefined;
  readonly abortSignal: AbortSignal | undefined;
}

/**
 * `preRequest`: before each provider call, with the request about to be sent.
 *
 * @example
 * ```ts
 * interventions.addHook('preRequest', ({ request, stepNumber }: PreRequestContext) => {
 *   console.log(`step ${stepNumber}: ${request.prompt.length} messages, ${request.tools?.length ?? 0} tools`);
 * });
 * ```
 */
export interface PreRequestContext extends ModelHookContext {
  readonly request: ProviderRequest;
}

/**
 * Modify the request, or short-circuit with a response (the provider is not
 * called). Return nothing to send the request as it is.
 *
 * @example
 * ```ts
 * const responses = new Map<string, ProviderResponse>();
 * interventions.addHook('preRequest', ({ request }): PreRequestResult => {
 *   const cached = responses.get(JSON.stringify(request.prompt));
 *   if (cached) return { response: cached };
 *   return { request: { ...request, maxOutputTokens: Math.min(request.maxOutputTokens ?? 4_096, 4_096) } };
 * });
 * ```
 */
export type PreRequestResult =
  | void
  | { readonly request: ProviderRequest }
  | { readonly response: ProviderResponse };

/**
 * `onResponse`: after each provider call (or a `preRequest` short-circuit),
 * with the request and its response.
 *
 * @example
 * ```ts
 * const responses = new Map<string, ProviderResponse>();
 * interventions.addHook('onResponse', ({ request, response }: OnResponseContext) => {
 *   responses.set(JSON.stringify(request.prompt), response);
 * });
 * ```
 */
export interface OnResponseContext extends ModelHookContext {
  readonly request: ProviderRequest;
  readonly response: ProviderResponse;
}

/**
 * Replace the response: later hooks and the run see the replacement.
 * Return nothing to keep it.
 *
 * @example
 * ```ts
 * // drop reasoning parts before the run sees them
 * interventions.addHook('onResponse', ({ response }): OnResponseResult => ({
 *   response: { ...response, content: response.content.filter((part) => part.type !== 'reasoning') },
 * }));
 * ```
 */
export type OnResponseResult = void | { readonly response: ProviderResponse };

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
export type PreToolCallResult =
  | void
  | { readonly call: ToolCallInfo }
  | { readonly result: unknown }
  | { readonly error: unknown };

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
 * `transformContext`: right before each model call, the history about to be
 * sent. Return the messages to send, or nothing to keep them.
 *
 * @example
 * ```ts
 * interventions.addHook('transformContext', ({ messages, stepNumber }: TransformContextContext) =>
 *   stepNumber >= 5 ? messages.slice(-10) : undefined,
 * );
 * ```
 */
export interface TransformContextContext {
  /** The run's id (`undefined` outside a run). */
  readonly runId: string | undefined;
  readonly messages: ModelMessage[];
  readonly stepNumber: number;
  readonly runtimeContext: Context;
  readonly abortSignal: AbortSignal | undefined;
}

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

/**
 * `drainSteering` / `drainFollowUp`: where the run is when the queue is consulted.
 *
 * @example
 * ```ts
 * interventions.addHook('drainFollowUp', ({ steps }: DrainContext) =>
 *   steps.at(-1)?.text.includes('TODO') ? 'Finish the remaining TODOs before you answer.' : undefined,
 * );
 * ```
 */
export interface DrainContext {
  /** The run's id (`undefined` outside a run). */
  readonly runId: string | undefined;
  /** The steps completed so far. */
  readonly steps: ReadonlyArray<StepResult<ToolSet>>;
  readonly runtimeContext: Context;
}

/**
 * Messages to inject: a string (a user message), user messages, seed 002's
 * `{ input }`, or nothing (`undefined` or `{}`). Several hooks' strings are
 * joined with a blank line into one message.
 *
 * @example
 * ```ts
 * interventions.addHook('drainSteering', ({ steps }): DrainResult =>
 *   steps.length === 8 ? 'Two steps left: start wrapping up.' : undefined,
 * );
 * ```
 */
export type DrainResult =
  | void
  | string
  | readonly UserModelMessage[]
  | { readonly input?: string | undefined };

/**
 * What a long operation is doing, for `onStatus`. Discriminated on `type`.
 *
 * @example
 * ```ts
 * function statusLine(status: RunStatus): string {
 *   switch (status.type) {
 *     case 'approval-pending': return `Waiting for approval: ${status.prompt}`;
 *     case 'tool-call': return `Running ${status.toolName}…`;
 *     default: return `${status.type}…`;
 *   }
 * }
 * ```
 */
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
  | { readonly type: 'steering' | 'follow-up'; readonly messages: readonly UserModelMessage[] }
  /** A configuration warning, once per runtime when it is created (see `InterventionsWarning`); `runId` is `undefined`. */
  | { readonly type: 'warning'; readonly code: InterventionsWarningCode; readonly message: string };

/**
 * `onStatus`: the run entered a long operation (a model call, a retry, a
 * pending handler or approval, a tool call, an injection), or the runtime
 * warns about its configuration when it is created (`type: 'warning'`, to
 * the hooks given to `createInterventions({ hooks })`).
 *
 * @example
 * ```ts
 * interventions.addHook('onStatus', ({ status }: OnStatusContext) => {
 *   if (status.type === 'guide-retry') console.log(`retry ${status.attempt} of step ${status.stepNumber}: ${status.feedback}`);
 * });
 * ```
 */
export interface OnStatusContext {
  /** The run's id (`undefined` outside a run). */
  readonly runId: string | undefined;
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
