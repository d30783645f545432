import type { ActionType, Confirm, Deny, Guide, Proceed, Transform } from './intervention-actions.ts';
import type {
  AfterModelCallEvent,
  AfterToolCallEvent,
  BeforeInvocationEvent,
  BeforeModelCallEvent,
  BeforeToolCallEvent,
  InterventionEvent,
} from './intervention-events.ts';

/**
 * The five points in a run where intervention handlers are evaluated.
 *
 * @example
 * ```ts
 * const point: Lifecycle = 'beforeToolCall';
 * ```
 */
export type Lifecycle = 'beforeInvocation' | 'beforeModelCall' | 'afterModelCall' | 'beforeToolCall' | 'afterToolCall';

/**
 * What an action does at each lifecycle point: `'apply'` (it takes effect),
 * `'warn'` (allowed, recorded with a warning, no effect) or absent (an
 * `InvalidActionError`). This is the lifecycle × action table of the design.
 *
 * @example
 * ```ts
 * ACTION_EFFECTS.beforeToolCall.confirm; // 'apply'
 * ACTION_EFFECTS.afterToolCall.deny; // 'warn': recorded with a warning, no effect
 * ACTION_EFFECTS.afterModelCall.confirm; // undefined: returning it is an InvalidActionError
 * ```
 */
export const ACTION_EFFECTS: Readonly<Record<Lifecycle, Partial<Record<ActionType, 'apply' | 'warn'>>>> = {
  beforeInvocation: {
    proceed: 'apply',
    deny: 'apply',
    guide: 'apply',
    transform: 'apply',
  },
  beforeModelCall: {
    proceed: 'apply',
    deny: 'apply',
    guide: 'apply',
    transform: 'apply',
  },
  afterModelCall: {
    proceed: 'apply',
    deny: 'warn',
    guide: 'apply',
    transform: 'apply',
  },
  beforeToolCall: {
    proceed: 'apply',
    deny: 'apply',
    guide: 'apply',
    confirm: 'apply',
    transform: 'apply',
  },
  afterToolCall: { proceed: 'apply', deny: 'warn', transform: 'apply' },
};

/**
 * Every lifecycle point, in the order they occur in a run.
 *
 * @example
 * ```ts
 * const result = await interventions.generateText({ model, tools, prompt });
 * for (const lifecycle of LIFECYCLES) {
 *   const count = result.interventions.decisions.filter((record) => record.lifecycle === lifecycle).length;
 *   console.log(`${lifecycle}: ${count} decisions`);
 * }
 * ```
 */
export const LIFECYCLES: readonly Lifecycle[] = [
  'beforeInvocation',
  'beforeModelCall',
  'afterModelCall',
  'beforeToolCall',
  'afterToolCall',
];

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
