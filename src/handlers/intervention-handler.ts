import type {
  Confirm,
  Deny,
  Guide,
  Proceed,
  Transform,
} from '../actions/intervention-actions.ts';
import type {
  AfterModelCallEvent,
  AfterToolCallEvent,
  BeforeInvocationEvent,
  BeforeModelCallEvent,
  BeforeToolCallEvent,
  InterventionEvent,
} from './intervention-events.ts';

/** A value, or a promise of it. */
export type Awaitable<T> = T | PromiseLike<T>;

/**
 * What happens when a handler throws, rejects or times out:
 * `'throw'` (default) ends the call with a typed error, `'proceed'` records
 * the error and continues as if it returned `proceed()`, `'deny'` records it
 * and treats it as a `deny()` (fail closed).
 */
export type OnError = 'throw' | 'proceed' | 'deny';

/**
 * `'enforce'` (default) applies the handler's actions; `'shadow'` evaluates
 * and records them without enforcing anything (a dry run).
 */
export type HandlerMode = 'enforce' | 'shadow';

/** What `beforeInvocation` may return. */
export type BeforeInvocationAction =
  | Proceed
  | Deny
  | Guide
  | Transform<BeforeInvocationEvent>
  | Transform<InterventionEvent>;
/** What `beforeModelCall` may return. */
export type BeforeModelCallAction =
  | Proceed
  | Deny
  | Guide
  | Transform<BeforeModelCallEvent>
  | Transform<InterventionEvent>;
/** What `afterModelCall` may return (`deny` is recorded with a warning and has no effect). */
export type AfterModelCallAction =
  | Proceed
  | Deny
  | Guide
  | Transform<AfterModelCallEvent>
  | Transform<InterventionEvent>;
/** What `beforeToolCall` may return. */
export type BeforeToolCallAction =
  | Proceed
  | Deny
  | Guide
  | Confirm
  | Transform<BeforeToolCallEvent>
  | Transform<InterventionEvent>;
/** What `afterToolCall` may return (`deny` is recorded with a warning and has no effect). */
export type AfterToolCallAction =
  | Proceed
  | Deny
  | Transform<AfterToolCallEvent>
  | Transform<InterventionEvent>;

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
  /** A handler that has not settled after this many ms is treated as having thrown. */
  readonly timeoutMs?: number | undefined;
  /** `'shadow'` records decisions without enforcing them. Default `'enforce'`. */
  readonly mode?: HandlerMode;
  beforeInvocation?(
    event: BeforeInvocationEvent,
  ): Awaitable<BeforeInvocationAction>;
  beforeModelCall?(
    event: BeforeModelCallEvent,
  ): Awaitable<BeforeModelCallAction>;
  afterModelCall?(event: AfterModelCallEvent): Awaitable<AfterModelCallAction>;
  beforeToolCall?(event: BeforeToolCallEvent): Awaitable<BeforeToolCallAction>;
  afterToolCall?(event: AfterToolCallEvent): Awaitable<AfterToolCallAction>;
}

/**
 * Base class for intervention handlers. Override only the lifecycle methods
 * you need; a method you do not override is never called (and costs
 * nothing).
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
  readonly onError: OnError = 'throw';
  readonly timeoutMs: number | undefined = undefined;
  readonly mode: HandlerMode = 'enforce';

  beforeInvocation?(
    event: BeforeInvocationEvent,
  ): Awaitable<BeforeInvocationAction>;
  beforeModelCall?(
    event: BeforeModelCallEvent,
  ): Awaitable<BeforeModelCallAction>;
  afterModelCall?(event: AfterModelCallEvent): Awaitable<AfterModelCallAction>;
  beforeToolCall?(event: BeforeToolCallEvent): Awaitable<BeforeToolCallAction>;
  afterToolCall?(event: AfterToolCallEvent): Awaitable<AfterToolCallAction>;
}
