import type { InterventionAction } from '../actions/intervention-actions.ts';
import type { InterventionEvent } from '../actions/intervention-events.ts';
import { ACTION_EFFECTS } from '../actions/lifecycle.ts';
import { HandlerTimeoutError } from '../errors/handler-timeout-error.ts';
import { InterventionHandlerError } from '../errors/intervention-handler-error.ts';
import type { InterventionsError } from '../errors/interventions-error.ts';
import { InvalidActionError } from '../errors/invalid-action-error.ts';
import { isThenable } from '../util/is-thenable.ts';
import { settle } from '../util/settle.ts';
import type { RegisteredHandler } from './registered-handler.ts';
import { actionProblem, undeclaredAction } from './validate-action.ts';

/** A handler that failed (threw, rejected, timed out, returned no valid action, had its `apply` throw). */
export class Failure {
  readonly error: InterventionsError;
  /**
   * The handler meant to stop or change a tool call and its action cannot be
   * carried out (one it did not declare in `toolCallActions`, or a deny,
   * guide, confirm or transform that is not valid: a misspelt confirm option
   * would let anyone answer): it fails closed whatever its `onError` says.
   */
  readonly failsClosed: boolean;
  constructor(error: InterventionsError, failsClosed = false) {
    this.error = error;
    this.failsClosed = failsClosed;
  }
}

/** What one handler's evaluation settled to: a valid action, or why the handler failed. */
export type Outcome = InterventionAction | Failure;

/** The event the handlers of one evaluation see, drafted (copied) at the first transform. */
export interface Draft<EVENT extends InterventionEvent> {
  current: EVENT;
  drafted: boolean;
}

/** What settling one handler needs to know about the evaluation. */
export interface SettleOptions<EVENT extends InterventionEvent> {
  readonly makeDraft: (event: EVENT) => EVENT;
  /** A human approved the call: transforms are not applied. */
  readonly frozen?: boolean | undefined;
  readonly abortSignal: AbortSignal | undefined;
  /** Told when a handler returns a promise, before it is awaited (a throw there ends the call). */
  readonly onPending?: ((handler: RegisteredHandler) => PromiseLike<void> | void) | undefined;
}

/**
 * Runs one handler's method on the draft and settles what it returned into
 * an {@link Outcome}: validated, within its `timeoutMs`, abortable, with a
 * transform's `apply` run on the draft (copied by `makeDraft` on first use).
 * Synchronous while the handler (and its `apply`) answer at once. An abort
 * is not the handler's failure: its reason is thrown, to end the run as an
 * abort.
 */
export function settleHandler<EVENT extends InterventionEvent>(
  registered: RegisteredHandler,
  method: (event: EVENT) => unknown,
  draft: Draft<EVENT>,
  options: SettleOptions<EVENT>,
): Outcome | Promise<Outcome> {
  let value: unknown;
  try {
    value = method.call(registered.handler, draft.current);
  } catch (error) {
    return settleThrown(registered, error, draft, options);
  }
  return settleReturned(registered, value, draft, options);
}

/** What a handler returned (an action, or a promise of one), settled as {@link settleHandler} settles it. */
export function settleReturned<EVENT extends InterventionEvent>(
  registered: RegisteredHandler,
  value: unknown,
  draft: Draft<EVENT>,
  options: SettleOptions<EVENT>,
): Outcome | Promise<Outcome> {
  if (isThenable(value)) return settleLater(registered, value, draft, options);
  return applyTransform(registered, validated(registered, draft.current, value), draft, options);
}

/** What a handler threw, as its failure (an abort of the run is rethrown: it is not the handler's failure). */
export function settleThrown<EVENT extends InterventionEvent>(
  registered: RegisteredHandler,
  error: unknown,
  draft: Draft<EVENT>,
  options: SettleOptions<EVENT>,
): Failure {
  return failure(registered, error, draft.current, options.abortSignal);
}

async function settleLater<EVENT extends InterventionEvent>(
  registered: RegisteredHandler,
  value: PromiseLike<unknown>,
  draft: Draft<EVENT>,
  options: SettleOptions<EVENT>,
): Promise<Outcome> {
  // outside the handler's try: a status observer that throws ends the call
  await options.onPending?.(registered);
  const { lifecycle } = draft.current;
  let outcome: Outcome;
  try {
    const settled = await settle(value, {
      timeoutMs: registered.timeoutMs,
      abortSignal: options.abortSignal,
      onTimeout: () => new HandlerTimeoutError({ handlerName: registered.name, lifecycle, timeoutMs: registered.timeoutMs ?? 0 }),
    });
    outcome = validated(registered, draft.current, settled);
  } catch (error) {
    outcome = failure(registered, error, draft.current, options.abortSignal);
  }
  return applyTransform(registered, outcome, draft, options);
}

/** Applies an enforced transform to the draft; a throwing (or rejecting) `apply`, or one returning something else than an event, is the handler's failure. */
function applyTransform<EVENT extends InterventionEvent>(
  registered: RegisteredHandler,
  outcome: Outcome,
  draft: Draft<EVENT>,
  options: SettleOptions<EVENT>,
): Outcome | Promise<Outcome> {
  if (
    outcome instanceof Failure ||
    outcome.type !== 'transform' ||
    registered.mode === 'shadow' ||
    options.frozen === true ||
    ACTION_EFFECTS[draft.current.lifecycle].transform !== 'apply'
  ) {
    return outcome;
  }
  let returned: unknown;
  try {
    if (!draft.drafted) {
      draft.current = options.makeDraft(draft.current);
      draft.drafted = true;
    }
    returned = outcome.apply(draft.current);
  } catch (error) {
    return failure(registered, error, draft.current, options.abortSignal);
  }
  return isThenable(returned) ? appliedLater(registered, outcome, draft, options, returned) : applied(registered, outcome, draft, returned);
}

/** {@link applied} once an async `apply` settles (its own function: the synchronous path allocates no closure). */
function appliedLater<EVENT extends InterventionEvent>(
  registered: RegisteredHandler,
  outcome: Outcome,
  draft: Draft<EVENT>,
  options: SettleOptions<EVENT>,
  returned: PromiseLike<unknown>,
): Promise<Outcome> {
  return Promise.resolve(returned).then(
    (value) => applied(registered, outcome, draft, value),
    (error: unknown) => failure(registered, error, draft.current, options.abortSignal),
  );
}

/** What a transform's `apply` returned: `undefined` (it mutated the draft) or the new event. */
function applied<EVENT extends InterventionEvent>(
  registered: RegisteredHandler,
  outcome: Outcome,
  draft: Draft<EVENT>,
  value: unknown,
): Outcome {
  if (value === undefined) return outcome;
  const { lifecycle } = draft.current;
  if (value == null || typeof value !== 'object' || (value as { lifecycle?: unknown }).lifecycle !== lifecycle) {
    const message = `The transform of intervention handler "${registered.name}" returned a value that is not a ${lifecycle} event; mutate the draft or return it.`;
    return new Failure(new InvalidActionError({ handlerName: registered.name, lifecycle, received: value, message }));
  }
  draft.current = value as EVENT;
  return outcome;
}

function validated(registered: RegisteredHandler, event: InterventionEvent, value: unknown): Outcome {
  const { name, toolCallActions } = registered;
  const { lifecycle } = event;
  const problem = actionProblem(value, lifecycle, name);
  const undeclared =
    problem === undefined && toolCallActions !== undefined
      ? undeclaredAction(value as InterventionAction, lifecycle, name, toolCallActions)
      : undefined;
  const message = problem ?? undeclared;
  if (message === undefined) return value as InterventionAction;
  // a call a handler meant to stop or change (any action but a plain proceed) is not run as if it proceeded
  const intent = value !== null && typeof value === 'object' ? (value as { readonly type?: unknown }).type : undefined;
  const meantToAct = lifecycle === 'beforeToolCall' && typeof intent === 'string' && intent !== 'proceed';
  const error = new InvalidActionError({ handlerName: name, lifecycle, received: value, message });
  return new Failure(error, undeclared !== undefined || meantToAct);
}

function failure(registered: RegisteredHandler, error: unknown, event: InterventionEvent, abortSignal: AbortSignal | undefined): Failure {
  // an abort is not the handler's failure: let it end the run as an abort
  if (abortSignal?.aborted && error === abortSignal.reason) throw error;
  if (HandlerTimeoutError.isInstance(error) || InvalidActionError.isInstance(error)) return new Failure(error);
  return new Failure(new InterventionHandlerError({ handlerName: registered.name, lifecycle: event.lifecycle, cause: error }));
}
