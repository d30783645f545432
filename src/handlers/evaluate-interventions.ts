import { type ConfirmTerms, mergeTerms } from '../actions/confirm-terms.ts';
import type { DecisionRecord } from '../actions/decision-record.ts';
import { PLAIN_PROCEED } from '../actions/intervention-actions.ts';
import type { InterventionEvent } from '../actions/intervention-events.ts';
import { isThenable } from '../util/is-thenable.ts';
import type { PendingRecord } from './record-of.ts';
import type { RegisteredHandler } from './registered-handler.ts';
import { type Effect, type ReportOptions, reportOutcome } from './report-outcome.ts';
import { type Draft, type Outcome, type SettleOptions, settleHandler, settleReturned, settleThrown } from './settle-handler.ts';
import type { EvaluateSettings, EvaluationSinks, GuideFeedback, Verdict } from './verdict.ts';

/** The reducer's clock counts from its first reading (set then, not at load: a module with no top-level work leaves a bundler free to drop it). */
let epoch: number | undefined;

/**
 * Milliseconds, for the records' `durationMs`: `Date.now()` (`performance.now()`
 * allocates an argument array on every call in Node; `Date.now()` only its
 * number), counted from the clock's first reading so the difference is a
 * small integer V8 keeps unboxed for the first twelve days of a process.
 */
const now = (): number => Date.now() - (epoch ??= Date.now());

/**
 * The one core reducer: runs the handlers that define `event.lifecycle`, in
 * registration order, and folds their actions into a {@link Verdict} by
 * precedence (see {@link foldEffect}).
 *
 * - `deny` short-circuits: later handlers are not evaluated.
 * - `transform` applies to a draft (made by `makeDraft` on first use) that
 *   later handlers see; the draft is committed only if nobody denies.
 * - `guide` feedback is accumulated; `confirm` prompts are merged into one.
 * - The verdict is deny > confirm > guide > transform > proceed.
 * - A failure (throw, rejection, timeout, invalid action, a throwing
 *   `apply`) follows the handler's `onError`; shadow handlers are recorded
 *   and never enforced.
 *
 * With `settings.frozen` (a call a human approved), transforms are recorded
 * but not applied; with `settings.answered`, confirms count as answered and
 * guides do not block (the person approved exactly these arguments).
 *
 * Every handler evaluated yields one {@link DecisionRecord}, added to
 * `sinks.records` as it concludes (a later deny makes an earlier guide,
 * confirm or transform record `enforced: false`). Records say which tool
 * call and step they are about, read from the event.
 *
 * It stays synchronous until a handler (or a transform's `apply`) returns a
 * promise: a list of synchronous handlers costs no promise and no microtask.
 * Handlers that answer the plain `proceed` at once cost no state at all
 * (their records, unless reported as they are made, are built when read);
 * from the first other answer on, an {@link Evaluation} goes on. Settling
 * each handler is `settleHandler`; its record, `reportOutcome`.
 */
export function evaluateInterventions<EVENT extends InterventionEvent>(
  event: EVENT,
  makeDraft: (event: EVENT) => EVENT,
  settings: EvaluateSettings | undefined,
  handlers: readonly RegisteredHandler[],
  sinks: EvaluationSinks,
): Verdict<EVENT> | Promise<Verdict<EVENT>> {
  // the common evaluation first, with no state of its own: handlers that answer the plain proceed at once, each
  // kept for its record to be built when read; anything else goes on as an Evaluation from that handler's answer
  const point: InterventionEvent = event;
  const toolEvent = point.lifecycle === 'beforeToolCall' || point.lifecycle === 'afterToolCall' ? point : undefined;
  const quiet = sinks.reported === undefined;
  let startedAt = now();
  for (let index = 0; index < handlers.length; index++) {
    const registered = handlers[index] as RegisteredHandler;
    const method = methodFor<EVENT>(registered, point, toolEvent);
    if (method === undefined) continue;
    let value: unknown;
    try {
      value = method.call(registered.handler, event);
    } catch (error) {
      const evaluation = new Evaluation(event, makeDraft, settings, handlers, sinks);
      return evaluation.resume(index, startedAt, settleThrown(registered, error, evaluation, evaluation));
    }
    if (value !== PLAIN_PROCEED || !quiet) {
      const evaluation = new Evaluation(event, makeDraft, settings, handlers, sinks);
      return evaluation.resume(index, startedAt, settleReturned(registered, value, evaluation, evaluation));
    }
    const endedAt = now();
    sinks.records.proceeded(registered, event, endedAt - startedAt);
    startedAt = endedAt;
  }
  return PROCEED;
}

/**
 * One evaluation's state: its event and what settling and recording each
 * handler need (read from its settings and sinks, not copied), the draft,
 * and the {@link Tally} once a handler decided something. One object per
 * evaluation (a point with handlers runs it for every model call and tool
 * call): a run of handlers that all proceed makes no tally.
 */
class Evaluation<EVENT extends InterventionEvent> implements SettleOptions<EVENT>, ReportOptions, Draft<EVENT> {
  current: EVENT;
  drafted = false;
  /** What the handlers evaluated so far decided, made at the first guide, confirm or transform. */
  tally?: Tally;
  /** The event evaluated, as given. */
  readonly event: EVENT;
  readonly makeDraft: (event: EVENT) => EVENT;
  readonly frozen: boolean | undefined;
  readonly answered: boolean | undefined;
  readonly downgradeGuide: string | undefined;
  readonly abortSignal: AbortSignal | undefined;
  readonly onPending: EvaluationSinks['onPending'];
  private readonly handlers: readonly RegisteredHandler[];
  private readonly sinks: EvaluationSinks;

  constructor(
    event: EVENT,
    makeDraft: (event: EVENT) => EVENT,
    settings: EvaluateSettings | undefined,
    handlers: readonly RegisteredHandler[],
    sinks: EvaluationSinks,
  ) {
    this.current = event;
    this.event = event;
    this.makeDraft = makeDraft;
    this.frozen = settings?.frozen;
    this.answered = settings?.answered ?? settings?.frozen;
    this.downgradeGuide = settings?.downgradeGuide;
    this.abortSignal = event.abortSignal;
    this.onPending = sinks.onPending;
    this.handlers = handlers;
    this.sinks = sinks;
  }

  /**
   * Evaluates the handlers from `start` on, until a deny or the last one.
   * The clock is read once before the handlers (unless `startedAt` is
   * given) and once after each: a handler's reading after it is the next
   * one's start.
   */
  from(start: number, startedAt = now()): Verdict<EVENT> | Promise<Verdict<EVENT>> {
    const event: InterventionEvent = this.event;
    // the call of a tool lifecycle point: handlers are scoped by its name and its tool's annotations
    const toolEvent = event.lifecycle === 'beforeToolCall' || event.lifecycle === 'afterToolCall' ? event : undefined;
    for (let index = start; index < this.handlers.length; index++) {
      const registered = this.handlers[index] as RegisteredHandler;
      const method = methodFor<EVENT>(registered, event, toolEvent);
      if (method === undefined) continue;
      const outcome = settleHandler(registered, method, this, this);
      if (isThenable(outcome)) return this.later(outcome, registered, startedAt, index);
      const endedAt = now();
      const verdict = this.conclude(registered, endedAt - startedAt, outcome);
      if (verdict !== undefined) return verdict;
      startedAt = endedAt;
    }
    return finish(this.current, this.drafted, this.tally);
  }

  /** Goes on from the answer of the handler at `index` (evaluated since `startedAt`), settled already or under way. */
  resume(index: number, startedAt: number, outcome: Outcome | Promise<Outcome>): Verdict<EVENT> | Promise<Verdict<EVENT>> {
    const registered = this.handlers[index] as RegisteredHandler;
    if (isThenable(outcome)) return this.later(outcome, registered, startedAt, index);
    const endedAt = now();
    return this.conclude(registered, endedAt - startedAt, outcome) ?? this.from(index + 1, endedAt);
  }

  /** Goes on once a handler's promise settles (out of {@link from}: its loop allocates no closure context). */
  private later(outcome: Promise<Outcome>, registered: RegisteredHandler, startedAt: number, index: number): Promise<Verdict<EVENT>> {
    return outcome.then((settled) => this.conclude(registered, now() - startedAt, settled) ?? this.from(index + 1));
  }

  private conclude(registered: RegisteredHandler, durationMs: number, outcome: Outcome): Verdict<EVENT> | undefined {
    const effect = reportOutcome(registered, durationMs, outcome, this, this.sinks);
    if (effect.type === 'none') return undefined;
    if (effect.type === 'deny') {
      for (const pending of this.tally?.provisional ?? []) pending.enforced = false;
      return { type: 'deny', reason: effect.reason, handler: registered.name };
    }
    this.tally ??= { transformed: false };
    foldEffect(this.tally, effect, registered.name);
    return undefined;
  }
}

/**
 * The method `registered` defines for the event's lifecycle point, if it is
 * evaluated there: a handler scoped to some tools is not evaluated for the
 * others (`toolEvent`: the event of a tool lifecycle point).
 */
function methodFor<EVENT extends InterventionEvent>(
  registered: RegisteredHandler,
  event: InterventionEvent,
  toolEvent: Extract<InterventionEvent, { readonly toolCall: unknown }> | undefined,
): ((event: EVENT) => unknown) | undefined {
  const method = registered.handler[event.lifecycle] as unknown as ((event: EVENT) => unknown) | undefined;
  if (method === undefined) return undefined;
  if (toolEvent !== undefined && registered.inScope?.(toolEvent.toolCall.toolName, toolEvent.tool) === false) return undefined;
  return method;
}

/** What the handlers evaluated so far decided, short of a deny. */
interface Tally {
  transformed: boolean;
  guidance?: GuideFeedback[];
  prompts?: string[];
  /** What the confirms asked (`terms`), or what those a person answered ask of the answer (`answered`). */
  terms?: ConfirmTerms | undefined;
  answeredTerms?: ConfirmTerms | undefined;
  /** Records that lose their effect if a later handler denies (guide, confirm, transform). */
  provisional?: PendingRecord[];
}

/**
 * The precedence, one enforced effect at a time (a deny, which ends the
 * evaluation and unenforces what came before it, and an effect of nothing
 * never reach it): guides accumulate, confirm prompts merge, a transform
 * marks the draft committed.
 */
function foldEffect(tally: Tally, effect: Exclude<Effect, { readonly type: 'none' | 'deny' }>, handler: string): void {
  switch (effect.type) {
    case 'guide':
      tally.guidance ??= [];
      tally.guidance.push({ handler, feedback: effect.feedback });
      break;
    case 'confirm':
      tally.prompts ??= [];
      tally.prompts.push(effect.prompt);
      tally.terms = mergeTerms(tally.terms, effect.terms);
      break;
    case 'answered':
      tally.answeredTerms = mergeTerms(tally.answeredTerms, effect.terms);
      return;
    case 'transform':
      tally.transformed = true;
      break;
  }
  tally.provisional ??= [];
  tally.provisional.push(effect.record);
}

/**
 * The verdict once every handler was evaluated without a deny: confirm >
 * guide > transform > proceed (seed 000). A confirm outranks a guide: the
 * person is asked, shown the guides' feedback with the request, and their
 * answer counts (on resume, a guide does not block a call they approved:
 * see `reportOutcome`; a refusal gives the model their reason with the
 * feedback).
 */
function finish<EVENT extends InterventionEvent>(event: EVENT, drafted: boolean, tally: Tally | undefined): Verdict<EVENT> {
  if (tally === undefined) return PROCEED;
  const { transformed, guidance, prompts, terms, answeredTerms: answered } = tally;
  if (prompts !== undefined) {
    return guidance === undefined
      ? { type: 'confirm', event, transformed: drafted, prompt: prompts.join('\n'), terms }
      : { type: 'confirm', event, transformed: drafted, prompt: prompts.join('\n'), terms, guidance };
  }
  if (guidance !== undefined) return { type: 'guide', event, transformed: drafted, guidance };
  if (transformed && drafted)
    return answered === undefined
      ? { type: 'transform', event, transformed: true }
      : { type: 'transform', event, transformed: true, answered };
  return answered === undefined ? PROCEED : { type: 'proceed', answered };
}

const PROCEED = Object.freeze({ type: 'proceed' } as const);
