import type { Context } from '@ai-sdk/provider-utils';
import type { FinishReason, LanguageModelUsage, ModelMessage, StepResult, ToolSet } from 'ai';
import type { DecisionRecord } from '../actions/decision-record.ts';

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
