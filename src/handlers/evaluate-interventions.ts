import {
  InterventionActions,
  type InterventionAction,
} from '../actions/intervention-actions.ts';
import { HandlerTimeoutError } from '../errors/handler-timeout-error.ts';
import { InterventionHandlerError } from '../errors/intervention-handler-error.ts';
import { InvalidActionError } from '../errors/invalid-action-error.ts';
import { InterventionsError } from '../errors/interventions-error.ts';
import { isThenable } from '../util/is-thenable.ts';
import { settle } from '../util/settle.ts';
import type { DecisionRecord } from './decision-record.ts';
import type { InterventionEvent } from './intervention-events.ts';
import { ACTION_EFFECTS, type Lifecycle } from './lifecycle.ts';
import type { RegisteredHandler } from './registered-handler.ts';

/**
 * One handler's guide feedback, as a custom {@link Wording} receives it
 * (`guidance`, in registration order).
 *
 * @example
 * ```ts
 * const asBullets = (guidance: readonly GuideFeedback[]) =>
 *   guidance.map(({ handler, feedback }) => `- ${feedback} (from ${handler})`).join('\n');
 * createInterventions({ handlers, wording: { modelGuidance: ({ guidance }) => asBullets(guidance) } });
 * ```
 */
export interface GuideFeedback {
  readonly handler: string;
  readonly feedback: string;
}

/**
 * The outcome of evaluating every handler at one lifecycle point, resolved
 * by precedence: deny > confirm > guide > transform > proceed. `confirm`,
 * `guide` and `transform` carry the committed draft (`event`: the original
 * event when nothing transformed it) and whether a transform changed it;
 * `proceed` means nothing changed.
 */
export type Verdict<EVENT extends InterventionEvent> =
  | { readonly type: 'deny'; readonly reason: string; readonly handler: string }
  | {
      readonly type: 'confirm';
      readonly event: EVENT;
      readonly transformed: boolean;
      /** The confirm prompts, joined. */
      readonly prompt: string;
    }
  | {
      readonly type: 'guide';
      readonly event: EVENT;
      readonly transformed: boolean;
      /** Every enforced guide, in registration order. */
      readonly guidance: readonly GuideFeedback[];
    }
  | { readonly type: 'transform'; readonly event: EVENT; readonly transformed: true }
  /** Nothing changed: the event is the one evaluated. */
  | { readonly type: 'proceed' };

/** A handler that failed (threw, rejected, timed out, returned no valid action). */
class Failure {
  readonly error: InterventionsError;
  constructor(error: InterventionsError) {
    this.error = error;
  }
}

/** A valid action, or why the handler failed. */
type Outcome = InterventionAction | Failure;

type PendingRecord = { -readonly [K in keyof DecisionRecord]: DecisionRecord[K] };

/**
 * Milliseconds, for the records' `durationMs`. `Date.now()`: `performance.now()`
 * allocates on every call in Node (an argument array), twice per handler.
 */
const now = () => Date.now();

/** Options of {@link evaluateInterventions}: one evaluation at one lifecycle point. */
export interface EvaluateOptions<EVENT extends InterventionEvent> {
  readonly event: EVENT;
  readonly makeDraft: (event: EVENT) => EVENT;
  /**
   * The call was approved by a human: transforms are recorded but not
   * applied (the approved arguments are final) and confirms count as answered.
   */
  readonly frozen?: boolean | undefined;
  /** Record guides without enforcing them, with this warning (retries exhausted). */
  readonly downgradeGuide?: string | undefined;
  /** The handlers to evaluate, when not the lifecycle point's registered ones. */
  readonly handlers?: readonly RegisteredHandler[] | undefined;
}

/** Where an evaluation's records go, and who hears about awaited handlers. */
export interface EvaluationSinks {
  /** Receives every record as it is made (its `enforced` is final once the evaluation ends). */
  readonly records: DecisionRecord[];
  /** A second list to receive them (to report them to hooks once the verdict is known). */
  readonly reported?: DecisionRecord[] | undefined;
  /** Told when a handler returns a promise, before it is awaited. */
  readonly onPending?: ((handler: RegisteredHandler) => PromiseLike<void> | void) | undefined;
}

/**
 * The one core reducer: runs the handlers that define `event.lifecycle`, in
 * registration order, and resolves their actions into a {@link Verdict}.
 *
 * - `deny` short-circuits: later handlers are not evaluated.
 * - `transform` applies to a draft (made by `makeDraft` on first use) that
 *   later handlers see; the draft is committed only if nobody denies.
 * - `guide` feedback is accumulated; `confirm` prompts are merged into one.
 * - A failure (throw, rejection, timeout, invalid action, a throwing
 *   `apply`) follows the handler's `onError`; shadow handlers are recorded
 *   and never enforced.
 *
 * With `frozen` (a call a human approved), transforms are recorded but not
 * applied and confirms count as answered.
 *
 * Every handler evaluated yields one {@link DecisionRecord}, added to
 * `sinks.records` as it concludes (a later deny makes an earlier guide,
 * confirm or transform record `enforced: false`). Records say which tool
 * call and step they are about, read from the event.
 *
 * It stays synchronous until a handler (or a transform's `apply`) returns a
 * promise: a list of synchronous handlers costs no promise and no microtask.
 */
export function evaluateInterventions<EVENT extends InterventionEvent>(
  options: EvaluateOptions<EVENT>,
  handlers: readonly RegisteredHandler[],
  sinks: EvaluationSinks,
): Verdict<EVENT> | Promise<Verdict<EVENT>> {
  return new Evaluation(options, handlers, sinks).run(0);
}

/** The state of one evaluation; `run(index)` resumes it at a handler. */
class Evaluation<EVENT extends InterventionEvent> {
  private readonly options: EvaluateOptions<EVENT>;
  private readonly handlers: readonly RegisteredHandler[];
  private readonly sinks: EvaluationSinks;
  private readonly lifecycle: Lifecycle;
  private guidance: GuideFeedback[] | undefined;
  private prompts: string[] | undefined;
  /** Records that lose their effect if a later handler denies (guide, confirm, transform). */
  private provisional: PendingRecord[] | undefined;
  private current: EVENT;
  private drafted = false;
  private transformed = false;

  constructor(options: EvaluateOptions<EVENT>, handlers: readonly RegisteredHandler[], sinks: EvaluationSinks) {
    this.options = options;
    this.handlers = handlers;
    this.sinks = sinks;
    this.lifecycle = options.event.lifecycle;
    this.current = options.event;
  }

  run(start: number): Verdict<EVENT> | Promise<Verdict<EVENT>> {
    const { handlers } = this;
    const { event } = this.options;
    // the call's tool lifecycles are scoped by name and by the tool's annotations
    const evaluated: InterventionEvent = event;
    const toolEvent =
      evaluated.lifecycle === 'beforeToolCall' || evaluated.lifecycle === 'afterToolCall' ? evaluated : undefined;
    for (let index = start; index < handlers.length; index++) {
      const registered = handlers[index] as RegisteredHandler;
      const method = registered.handler[this.lifecycle] as ((event: EVENT) => unknown) | undefined;
      if (method === undefined) continue;
      // a handler scoped to some tools is not evaluated for the others
      if (toolEvent !== undefined && registered.inScope?.(toolEvent.toolCall.toolName, toolEvent.tool) === false) continue;
      const startedAt = now();
      let value: unknown;
      try {
        value = method.call(registered.handler, this.current);
      } catch (error) {
        const stop = this.conclude(registered, startedAt, this.failure(registered, error));
        if (stop !== undefined) return stop;
        continue;
      }
      if (isThenable(value)) return this.awaitHandler(index, registered, startedAt, value);
      const stop = this.afterAction(registered, startedAt, validateAction(registered, this.current, value));
      if (stop === CONTINUE) continue;
      if (isThenable(stop)) return stop.then((verdict) => verdict ?? this.run(index + 1));
      return stop;
    }
    return this.finish();
  }

  private async awaitHandler(
    index: number,
    registered: RegisteredHandler,
    startedAt: number,
    value: PromiseLike<unknown>,
  ): Promise<Verdict<EVENT>> {
    // outside the handler's try: a status observer that throws ends the call
    await this.sinks.onPending?.(registered);
    let outcome: Outcome;
    try {
      const settled = await settle(value, {
        timeoutMs: registered.timeoutMs,
        abortSignal: this.options.event.abortSignal,
        onTimeout: () =>
          new HandlerTimeoutError({
            handlerName: registered.name,
            lifecycle: this.lifecycle,
            timeoutMs: registered.timeoutMs ?? 0,
          }),
      });
      outcome = validateAction(registered, this.current, settled);
    } catch (error) {
      outcome = this.failure(registered, error);
    }
    const stop = await this.afterAction(registered, startedAt, outcome);
    return stop === CONTINUE || stop === undefined ? this.run(index + 1) : stop;
  }

  /**
   * Applies a transform's `apply` to the draft (a throwing apply is this
   * handler's failure), then concludes. `CONTINUE` to go on, a verdict to
   * stop, or a promise of either when `apply` is async.
   */
  private afterAction(
    registered: RegisteredHandler,
    startedAt: number,
    outcome: Outcome,
  ): typeof CONTINUE | Verdict<EVENT> | Promise<Verdict<EVENT> | undefined> {
    if (
      !(outcome instanceof Failure) &&
      outcome.type === 'transform' &&
      registered.mode !== 'shadow' &&
      this.options.frozen !== true &&
      ACTION_EFFECTS[this.lifecycle].transform === 'apply'
    ) {
      const action = outcome;
      let returned: unknown;
      try {
        if (!this.drafted) {
          this.current = this.options.makeDraft(this.current);
          this.drafted = true;
        }
        returned = action.apply(this.current);
      } catch (error) {
        return this.conclude(registered, startedAt, this.failure(registered, error)) ?? CONTINUE;
      }
      if (isThenable(returned)) {
        return Promise.resolve(returned).then(
          (value) => this.conclude(registered, startedAt, this.transformedTo(registered, value, outcome)),
          (error: unknown) => this.conclude(registered, startedAt, this.failure(registered, error)),
        );
      }
      return this.conclude(registered, startedAt, this.transformedTo(registered, returned, outcome)) ?? CONTINUE;
    }
    return this.conclude(registered, startedAt, outcome) ?? CONTINUE;
  }

  /** Takes what `apply` returned (the draft mutated, or a replacement event). */
  private transformedTo(registered: RegisteredHandler, returned: unknown, outcome: Outcome): Outcome {
    if (returned === undefined) return outcome;
    if (
      returned == null ||
      typeof returned !== 'object' ||
      (returned as { lifecycle?: unknown }).lifecycle !== this.lifecycle
    ) {
      return new Failure(
        new InvalidActionError({
          handlerName: registered.name,
          lifecycle: this.lifecycle,
          received: returned,
          message: `The transform of intervention handler "${registered.name}" returned a value that is not a ${this.lifecycle} event; mutate the draft or return it.`,
        }),
      );
    }
    this.current = returned as EVENT;
    return outcome;
  }

  private failure(registered: RegisteredHandler, error: unknown): Outcome {
    const abortSignal = this.options.event.abortSignal;
    // an abort is not the handler's failure: let it end the run as an abort
    if (abortSignal?.aborted && error === abortSignal.reason) throw error;
    return new Failure(asHandlerError(registered, error, this.lifecycle));
  }

  /** Records one handler's outcome and applies it; a verdict when evaluation stops. */
  private conclude(registered: RegisteredHandler, startedAt: number, given: Outcome): Verdict<EVENT> | undefined {
    const { frozen, downgradeGuide, event } = this.options;
    const lifecycle = this.lifecycle;
    const shadow = registered.mode === 'shadow';
    const record: PendingRecord = {
      handler: registered.name,
      lifecycle,
      action: 'proceed',
      enforced: !shadow,
      mode: registered.mode,
      durationMs: now() - startedAt,
    };
    // what the record is about: the tool call and the step, read from the event
    if ('toolCall' in event) {
      record.toolCallId = event.toolCall.toolCallId;
      record.toolName = event.toolCall.toolName;
    }
    if ('stepNumber' in event && event.stepNumber !== undefined) record.stepNumber = event.stepNumber;
    this.sinks.records.push(record);
    this.sinks.reported?.push(record);

    let action: InterventionAction;
    if (given instanceof Failure) {
      record.error = given.error;
      if (shadow) {
        record.action = 'error';
        return undefined;
      }
      if (registered.onError === 'proceed') return undefined;
      if (registered.onError === 'throw') {
        record.action = 'error';
        throw given.error;
      }
      // fail closed: the failure becomes a deny that names the handler
      action = InterventionActions.deny(`The "${registered.name}" check failed, so this was blocked (fail closed).`);
    } else {
      action = given;
    }
    record.action = action.type;
    if (shadow) {
      describe(record, action);
      return undefined;
    }
    if (ACTION_EFFECTS[lifecycle][action.type] === 'warn') {
      describe(record, action);
      record.enforced = false;
      record.warning = `${action.type} has no effect in ${lifecycle}`;
      return undefined;
    }
    if (frozen === true && action.type === 'transform') {
      record.enforced = false;
      record.warning = 'transform not applied: the arguments were fixed when the call was approved';
      return undefined;
    }
    if (frozen === true && action.type === 'confirm') {
      describe(record, action);
      record.enforced = false;
      record.warning = 'already answered: a human approved this call';
      return undefined;
    }

    switch (action.type) {
      case 'proceed':
        describe(record, action);
        return undefined;
      case 'deny':
        describe(record, action);
        for (const pending of this.provisional ?? []) pending.enforced = false;
        return { type: 'deny', reason: action.reason, handler: registered.name };
      case 'guide':
        describe(record, action);
        if (downgradeGuide !== undefined) {
          record.enforced = false;
          record.warning = downgradeGuide;
          return undefined;
        }
        (this.guidance ??= []).push({ handler: registered.name, feedback: action.feedback });
        (this.provisional ??= []).push(record);
        return undefined;
      case 'confirm':
        describe(record, action);
        (this.prompts ??= []).push(action.prompt);
        (this.provisional ??= []).push(record);
        return undefined;
      case 'transform':
        this.transformed = true;
        (this.provisional ??= []).push(record);
        return undefined;
    }
  }

  private finish(): Verdict<EVENT> {
    const event = this.current;
    const transformed = this.drafted;
    if (this.prompts !== undefined) {
      // a confirm outranks guide at the same point: the human decides instead
      for (const record of this.provisional ?? []) if (record.action === 'guide') record.enforced = false;
      return { type: 'confirm', event, transformed, prompt: this.prompts.join('\n') };
    }
    if (this.guidance !== undefined) return { type: 'guide', event, transformed, guidance: this.guidance };
    return this.transformed && transformed ? { type: 'transform', event, transformed } : PROCEED;
  }
}

const CONTINUE = Symbol('continue');
const PROCEED = Object.freeze({ type: 'proceed' } as const);

function validateAction(
  registered: RegisteredHandler,
  event: InterventionEvent,
  value: unknown,
): Outcome {
  const lifecycle = event.lifecycle;
  const message = actionProblem(value, lifecycle, registered.name);
  if (message === undefined) return value as InterventionAction;
  return new Failure(new InvalidActionError({ handlerName: registered.name, lifecycle, received: value, message }));
}

/** Why a handler's return value is not a valid action here, or `undefined` when it is. */
/** The start of every invalid-action message (built only when something is wrong). */
const returned = (name: string) => `Intervention handler "${name}" returned`;

function actionProblem(value: unknown, lifecycle: Lifecycle, name: string): string | undefined {
  if (value == null || typeof value !== 'object') {
    return `${returned(name)} ${value === null ? 'null' : typeof value} from ${lifecycle}; expected an action from InterventionActions (proceed, deny, guide, confirm, transform).`;
  }
  const action = value as { type?: unknown } & Record<string, unknown>;
  switch (action.type) {
    case 'proceed':
      if (action.reason !== undefined && typeof action.reason !== 'string') return `${returned(name)} proceed with a reason that is not a string from ${lifecycle}.`;
      break;
    case 'deny':
      if (typeof action.reason !== 'string') return `${returned(name)} deny without a string reason from ${lifecycle}.`;
      break;
    case 'guide':
      if (typeof action.feedback !== 'string') return `${returned(name)} guide without string feedback from ${lifecycle}.`;
      break;
    case 'confirm':
      if (typeof action.prompt !== 'string') return `${returned(name)} confirm without a string prompt from ${lifecycle}.`;
      break;
    case 'transform':
      if (typeof action.apply !== 'function') return `${returned(name)} transform without an apply function from ${lifecycle}.`;
      break;
    default:
      return `${returned(name)} an object that is not an action from ${lifecycle} (type ${JSON.stringify(action.type)}); use InterventionActions.`;
  }
  if (action.display !== undefined && typeof action.display !== 'string') {
    return `${returned(name)} ${action.type} with a display that is not a string from ${lifecycle}.`;
  }
  if (ACTION_EFFECTS[lifecycle][action.type] === undefined) {
    return `${returned(name)} ${action.type} from ${lifecycle}, which does not support it.`;
  }
  return undefined;
}

function asHandlerError(
  registered: RegisteredHandler,
  error: unknown,
  lifecycle: Lifecycle,
): InterventionsError {
  if (
    HandlerTimeoutError.isInstance(error) ||
    InvalidActionError.isInstance(error)
  ) {
    return error;
  }
  return new InterventionHandlerError({
    handlerName: registered.name,
    lifecycle,
    cause: error,
  });
}

function describe(record: PendingRecord, action: InterventionAction): void {
  if (action.type === 'deny' || (action.type === 'proceed' && action.reason !== undefined)) record.reason = action.reason;
  else if (action.type === 'guide') record.feedback = action.feedback;
  else if (action.type === 'confirm') record.prompt = action.prompt;
  if ('display' in action && action.display !== undefined) record.display = action.display;
}
