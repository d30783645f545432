import type { ConfirmTerms } from '../actions/confirm-terms.ts';
import type { DecisionRecord } from '../actions/decision-record.ts';
import type { InterventionEvent } from '../actions/intervention-events.ts';
import type { DecisionLog } from './decision-log.ts';
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
 * by seed 000's precedence: deny > confirm > guide > transform > proceed.
 * `confirm`, `guide` and `transform` carry the committed draft (`event`:
 * the original event when nothing transformed it) and whether a transform
 * changed it; a `confirm` that outranks guides carries their feedback, for
 * the person who answers it; `proceed` means nothing changed.
 */
export type Verdict<EVENT extends InterventionEvent> =
  | { readonly type: 'deny'; readonly reason: string; readonly handler: string }
  | {
      readonly type: 'confirm';
      readonly event: EVENT;
      readonly transformed: boolean;
      /** The confirm prompts, joined. */
      readonly prompt: string;
      /** What the confirms ask of the answer (who, how many, how long), merged; `undefined`: anyone, once, no expiry. */
      readonly terms: ConfirmTerms | undefined;
      /** The guides it outranks, in registration order: the person is shown them with the request. */
      readonly guidance?: readonly GuideFeedback[] | undefined;
    }
  | {
      readonly type: 'guide';
      readonly event: EVENT;
      readonly transformed: boolean;
      /** Every enforced guide, in registration order. */
      readonly guidance: readonly GuideFeedback[];
    }
  | {
      readonly type: 'transform';
      readonly event: EVENT;
      readonly transformed: true;
      /** A person's approval answered confirms: what they ask of the answer. */
      readonly answered?: ConfirmTerms | undefined;
    }
  /** Nothing changed: the event is the one evaluated (`answered`: as for a transform). */
  | { readonly type: 'proceed'; readonly answered?: ConfirmTerms | undefined };

/**
 * How one evaluation runs besides its event: none of it for a plain
 * evaluation (the lifecycle point's registered handlers, a confirm asks, a
 * transform applies, a guide is enforced).
 */
export interface EvaluateSettings {
  /**
   * The call was approved by a human: transforms are recorded but not
   * applied (the approved arguments are final) and confirms count as answered.
   */
  readonly frozen?: boolean | undefined;
  /**
   * Whether a confirm counts as answered (default: `frozen`). `false` for an
   * approval the runtime could not verify: transforms stay frozen, and a
   * confirm still asks.
   */
  readonly answered?: boolean | undefined;
  /** Record guides without enforcing them, with this warning (retries exhausted). */
  readonly downgradeGuide?: string | undefined;
  /** The handlers to evaluate, when not the lifecycle point's registered ones. */
  readonly handlers?: readonly RegisteredHandler[] | undefined;
}

/** Where an evaluation's records go, and who hears about awaited handlers. */
export interface EvaluationSinks {
  /** Receives every record as it is made (its `enforced` is final once the evaluation ends); a plain proceed's is built when read. */
  readonly records: DecisionLog;
  /** A second list to receive them (to report them to hooks once the verdict is known). */
  readonly reported?: DecisionRecord[] | undefined;
  /** Told when a handler returns a promise, before it is awaited. */
  readonly onPending?: ((handler: RegisteredHandler) => PromiseLike<void> | void) | undefined;
  /** Stamped on every record (the runtime's `policyVersion`). */
  readonly policyVersion?: string | undefined;
}
