import type { Context } from '@ai-sdk/provider-utils';
import type { ModelMessage, StepResult, ToolSet, UserModelMessage } from 'ai';
import type { Lifecycle } from '../actions/lifecycle.ts';
import type { InterventionsWarningCode } from '../errors/interventions-warning.ts';

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
export type DrainResult = void | string | readonly UserModelMessage[] | { readonly input?: string | undefined };
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
  /**
   * A warning (see `InterventionsWarning`): about the configuration, once per
   * runtime when it is created (`runId` is `undefined`), or about what a run
   * found (`'tool-annotations-changed'`).
   */
  | { readonly type: 'warning'; readonly code: InterventionsWarningCode; readonly message: string };
/**
 * `onStatus`: the run entered a long operation (a model call, a retry, a
 * pending handler or approval, a tool call, an injection), or a warning
 * (`type: 'warning'`): the runtime's about its configuration when it is
 * created (to the hooks given to `createInterventions({ hooks })`), or a
 * run's about what it found (a trusted tool whose annotations changed).
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
