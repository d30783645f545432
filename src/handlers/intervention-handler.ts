import type { ToolSet } from 'ai';
import type { HandlerMode } from '../actions/decision-record.ts';
import type {
  AfterModelCallEvent,
  AfterToolCallEvent,
  BeforeInvocationEvent,
  BeforeModelCallEvent,
  BeforeToolCallEvent,
} from '../actions/intervention-events.ts';
import type {
  AfterModelCallAction,
  AfterToolCallAction,
  BeforeInvocationAction,
  BeforeModelCallAction,
  BeforeToolCallAction,
} from '../actions/lifecycle.ts';
import type { ToolScope } from '../tools/tool-scope.ts';
import type { Awaitable } from '../util/awaitable.ts';

/**
 * What happens when a handler throws, rejects or times out:
 * `'throw'` (default) ends the call with a typed error, `'proceed'` records
 * the error and continues as if it returned `proceed()`, `'deny'` records it
 * and treats it as a `deny()` (fail closed).
 *
 * @example
 * ```ts
 * const onError: OnError = process.env.NODE_ENV === 'production' ? 'deny' : 'throw';
 * const policyCheck = defineHandler({
 *   name: 'policy-check',
 *   onError, // in production, an unreachable policy service blocks the call
 *   timeoutMs: 2_000,
 *   beforeToolCall: async ({ toolCall }) =>
 *     (await policy.allows(toolCall.toolName)) ? InterventionActions.proceed() : InterventionActions.deny('Not permitted by policy'),
 * });
 * ```
 */
export type OnError = 'throw' | 'proceed' | 'deny';

/**
 * An action a `beforeToolCall` handler may declare it returns besides
 * `proceed` (`InterventionHandlerLike.toolCallActions`).
 *
 * @example
 * ```ts
 * const declared: readonly ToolCallActionType[] = ['deny', 'guide'];
 * const noShell = defineHandler({
 *   name: 'no-shell',
 *   toolCallActions: declared, // never transforms or confirms: streamed calls are not held
 *   beforeToolCall: ({ toolCall }) =>
 *     toolCall.toolName === 'shell' ? InterventionActions.deny('No shell access.') : InterventionActions.proceed(),
 * });
 * ```
 */
export type ToolCallActionType = 'deny' | 'guide' | 'confirm' | 'transform';

/**
 * The shape of an intervention handler: a unique `name`, optional settings,
 * and any of the five lifecycle methods. Extend {@link InterventionHandler}
 * or write a plain object with {@link defineHandler}.
 *
 * @example
 * ```ts
 * const audit: InterventionHandlerLike = {
 *   name: 'audit',
 *   onError: 'proceed',
 *   beforeToolCall: (event) => {
 *     console.log(event.toolCall.toolName);
 *     return InterventionActions.proceed();
 *   },
 * };
 * ```
 */
export interface InterventionHandlerLike<TOOLS extends ToolSet = ToolSet> {
  /** Unique within an `createInterventions` instance; tags records and feedback. */
  readonly name: string;
  /** What a throw, rejection or timeout does. Default `'throw'`. */
  readonly onError?: OnError;
  /**
   * A handler that has not settled after this many ms is treated as having
   * thrown (its `onError` decides). Default: the runtime's
   * `handlerTimeoutMs` (30 seconds unless set); `false`: no timeout.
   */
  readonly timeoutMs?: number | false | undefined;
  /** `'shadow'` records decisions without enforcing them. Default `'enforce'`. */
  readonly mode?: HandlerMode;
  /**
   * The tools this handler is about ({@link ToolScope}: names, `*` / `?`
   * globs, `!` negations, MCP annotation selectors): its `beforeToolCall` /
   * `afterToolCall` run only for calls in scope (others are not evaluated,
   * and leave no record). Default: every tool. A scope that cannot be valid
   * is an `InvalidHandlerError` when the handler is registered.
   */
  readonly tools?: ToolScope<TOOLS>;
  /**
   * The actions its `beforeToolCall` may return besides `proceed`
   * ({@link ToolCallActionType}). Declaring them lets a streamed step pay
   * only for what they need: when no registered handler may `transform` a
   * call, `streamText` streams each call as the provider sends it and decides
   * it at the SDK's own approval point (`toolApproval`), instead of holding
   * its arguments in the model layer until it is decided; when none may
   * `confirm` either, the run gives the SDK no approval secret and adds no
   * layer for approval requests. Default: any action (the call is held).
   * Returning an action that is not declared is an `InvalidActionError`
   * naming the handler.
   */
  readonly toolCallActions?: readonly ToolCallActionType[];
  beforeInvocation?(event: BeforeInvocationEvent): Awaitable<BeforeInvocationAction>;
  beforeModelCall?(event: BeforeModelCallEvent): Awaitable<BeforeModelCallAction>;
  afterModelCall?(event: AfterModelCallEvent): Awaitable<AfterModelCallAction>;
  beforeToolCall?(event: BeforeToolCallEvent): Awaitable<BeforeToolCallAction>;
  afterToolCall?(event: AfterToolCallEvent): Awaitable<AfterToolCallAction>;
}

/**
 * Base class for intervention handlers. Override only the lifecycle methods
 * you need; a method you do not override is never called (and costs
 * nothing). Declare `onError`, `timeoutMs` or `mode` as fields to change the
 * defaults (`'throw'`, the runtime's `handlerTimeoutMs`, `'enforce'`).
 * Registering a handler without any lifecycle method, or with a method that
 * looks like one but is not (`beforeToolcall`, a hook name such as
 * `preToolCall`), throws an `InvalidHandlerError`: such a handler would
 * never run.
 *
 * @example
 * ```ts
 * class ToolGuard extends InterventionHandler {
 *   readonly name = 'tool-guard';
 *   readonly blockedTools: readonly string[];
 *   constructor(blockedTools: readonly string[]) {
 *     super();
 *     this.blockedTools = blockedTools;
 *   }
 *   override beforeToolCall(event: BeforeToolCallEvent) {
 *     if (this.blockedTools.includes(event.toolCall.toolName)) {
 *       return InterventionActions.deny(`Tool '${event.toolCall.toolName}' is not allowed in this environment`);
 *     }
 *     return InterventionActions.proceed();
 *   }
 * }
 *
 * const interventions = createInterventions({ handlers: [new ToolGuard(['delete_file'])] });
 * ```
 */
export abstract class InterventionHandler implements InterventionHandlerLike {
  abstract readonly name: string;
  // `onError` ('throw' by default), `timeoutMs` and `mode` ('enforce' by default)
  // are read from the subclass when it declares them; they are not declared
  // here so `readonly onError: OnError = 'deny'` needs no `override`.

  beforeInvocation?(event: BeforeInvocationEvent): Awaitable<BeforeInvocationAction>;
  beforeModelCall?(event: BeforeModelCallEvent): Awaitable<BeforeModelCallAction>;
  afterModelCall?(event: AfterModelCallEvent): Awaitable<AfterModelCallAction>;
  beforeToolCall?(event: BeforeToolCallEvent): Awaitable<BeforeToolCallAction>;
  afterToolCall?(event: AfterToolCallEvent): Awaitable<AfterToolCallAction>;
}
