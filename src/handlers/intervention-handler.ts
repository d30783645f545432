import type { Confirm, Deny, Guide, Proceed, Transform } from '../actions/intervention-actions.ts';
import type { ToolScope } from '../tools/tool-scope.ts';
import type {
  AfterModelCallEvent,
  AfterToolCallEvent,
  BeforeInvocationEvent,
  BeforeModelCallEvent,
  BeforeToolCallEvent,
  InterventionEvent,
} from './intervention-events.ts';

/**
 * A value, or a promise of it: handler methods and hooks may be synchronous
 * or `async`.
 *
 * @example
 * ```ts
 * type ToolCheck = (event: BeforeToolCallEvent) => Awaitable<BeforeToolCallAction>;
 * const allowAll: ToolCheck = () => InterventionActions.proceed();
 * const askPolicy: ToolCheck = async ({ toolCall }) =>
 *   (await policy.allows(toolCall.toolName)) ? InterventionActions.proceed() : InterventionActions.deny('Not permitted by policy');
 * ```
 */
export type Awaitable<T> = T | PromiseLike<T>;

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
 * `'enforce'` (default) applies the handler's actions; `'shadow'` evaluates
 * and records them without enforcing anything (a dry run).
 *
 * @example
 * ```ts
 * const mode: HandlerMode = process.env.ENFORCE_EMAIL_POLICY === 'true' ? 'enforce' : 'shadow';
 * interventions.use(defineHandler({
 *   name: 'email-policy',
 *   mode, // in shadow mode, its records show what it would have done, with `enforced: false`
 *   beforeToolCall: ({ toolCall }) =>
 *     toolCall.toolName === 'send_email' ? InterventionActions.confirm('Send this email?') : InterventionActions.proceed(),
 * }));
 * ```
 */
export type HandlerMode = 'enforce' | 'shadow';

/**
 * What `beforeInvocation` may return: proceed, deny (the call throws
 * `InvocationDeniedError`), guide or transform. Types a handler method
 * written on its own.
 *
 * @example
 * ```ts
 * function readOnly(event: BeforeInvocationEvent): BeforeInvocationAction {
 *   if (!('delete_file' in event.tools)) return InterventionActions.proceed();
 *   return InterventionActions.transform<BeforeInvocationEvent>((draft) => { delete draft.tools.delete_file; });
 * }
 * interventions.use(defineHandler({ name: 'read-only', beforeInvocation: readOnly }));
 * ```
 */
export type BeforeInvocationAction = Proceed | Deny | Guide | Transform<BeforeInvocationEvent> | Transform<InterventionEvent>;
/**
 * What `beforeModelCall` may return: proceed, deny (the run ends, its text is
 * the reason), guide (a user message is injected) or transform.
 *
 * @example
 * ```ts
 * function stepBudget(event: BeforeModelCallEvent): BeforeModelCallAction {
 *   return event.stepNumber >= 10 ? InterventionActions.deny('Step budget reached.') : InterventionActions.proceed();
 * }
 * interventions.use(defineHandler({ name: 'step-budget', beforeModelCall: stepBudget }));
 * ```
 */
export type BeforeModelCallAction = Proceed | Deny | Guide | Transform<BeforeModelCallEvent> | Transform<InterventionEvent>;
/**
 * What `afterModelCall` may return: proceed, guide (the response is discarded
 * and the model retried with the feedback) or transform. `deny` is recorded
 * with a warning and has no effect.
 *
 * @example
 * ```ts
 * function notEmpty(event: AfterModelCallEvent): AfterModelCallAction {
 *   return event.response.content.length === 0
 *     ? InterventionActions.guide('Your answer was empty; answer the question.')
 *     : InterventionActions.proceed();
 * }
 * interventions.use(defineHandler({ name: 'not-empty', afterModelCall: notEmpty }));
 * ```
 */
export type AfterModelCallAction = Proceed | Deny | Guide | Transform<AfterModelCallEvent> | Transform<InterventionEvent>;
/**
 * What `beforeToolCall` may return: any of the five actions. A
 * `gateToolCalls` hook returns one per call.
 *
 * @example
 * ```ts
 * function approveDeletes(event: BeforeToolCallEvent): BeforeToolCallAction {
 *   return event.toolCall.toolName === 'delete_file'
 *     ? InterventionActions.confirm(`Delete ${JSON.stringify(event.toolCall.input)}?`)
 *     : InterventionActions.proceed();
 * }
 * interventions.use(defineHandler({ name: 'approve-deletes', beforeToolCall: approveDeletes }));
 * ```
 */
export type BeforeToolCallAction = Proceed | Deny | Guide | Confirm | Transform<BeforeToolCallEvent> | Transform<InterventionEvent>;
/**
 * What `afterToolCall` may return: proceed or transform (change the result
 * the model reads). `deny` is recorded with a warning and has no effect.
 *
 * @example
 * ```ts
 * function truncate({ result }: AfterToolCallEvent): AfterToolCallAction {
 *   if (typeof result !== 'string' || result.length <= 10_000) return InterventionActions.proceed();
 *   return InterventionActions.transform<AfterToolCallEvent>((draft) => { draft.result = `${result.slice(0, 10_000)}… (truncated)`; });
 * }
 * interventions.use(defineHandler({ name: 'truncate', afterToolCall: truncate }));
 * ```
 */
export type AfterToolCallAction = Proceed | Deny | Transform<AfterToolCallEvent> | Transform<InterventionEvent>;

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
export interface InterventionHandlerLike {
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
  readonly tools?: ToolScope;
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
 *   constructor(private readonly blockedTools: string[]) {
 *     super();
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
