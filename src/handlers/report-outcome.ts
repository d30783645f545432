import { ANYONE_ONCE, approversData, type ConfirmTerms, termsOf, whoMayAnswer } from '../actions/confirm-terms.ts';
import type { DecisionRecord } from '../actions/decision-record.ts';
import { type InterventionAction, InterventionActions } from '../actions/intervention-actions.ts';
import type { InterventionEvent } from '../actions/intervention-events.ts';
import { ACTION_EFFECTS } from '../actions/lifecycle.ts';
import type { DecisionLog } from './decision-log.ts';
import { type PendingRecord, recordOf } from './record-of.ts';
import type { RegisteredHandler } from './registered-handler.ts';
import { Failure, type Outcome } from './settle-handler.ts';

/**
 * What one handler's outcome does to the verdict: nothing (recorded only),
 * or an enforced action; a guide, confirm or transform carries its record,
 * which a later deny makes `enforced: false`.
 */
export type Effect =
  | { readonly type: 'none' }
  | { readonly type: 'deny'; readonly reason: string }
  | { readonly type: 'guide'; readonly feedback: string; readonly record: PendingRecord }
  | { readonly type: 'confirm'; readonly prompt: string; readonly terms: ConfirmTerms | undefined; readonly record: PendingRecord }
  /** A confirm a person's verified approval answers: asks nothing, and what it asks of the answer still counts. */
  | { readonly type: 'answered'; readonly terms: ConfirmTerms }
  | { readonly type: 'transform'; readonly record: PendingRecord };

const NONE: Effect = Object.freeze({ type: 'none' });

/** What the record of one evaluation is written with. */
export interface ReportOptions {
  readonly event: InterventionEvent;
  /** A human approved the call: transforms are not applied. */
  readonly frozen?: boolean | undefined;
  /** A human's verified approval answers the call's confirms. */
  readonly answered?: boolean | undefined;
  /** Record guides without enforcing them, with this warning (retries exhausted). */
  readonly downgradeGuide?: string | undefined;
}

/**
 * Writes the decision record of one handler's outcome (into `records`, as
 * it concludes) and says what the outcome does (its {@link Effect}): a failure follows the
 * handler's `onError` (`'deny'` fails closed with a deny naming the
 * handler, `'proceed'` is recorded only, `'throw'` rethrows); a shadow
 * handler, an action without effect at this lifecycle point, a transform or
 * confirm on a call a human approved, and a downgraded guide are recorded,
 * not enforced.
 */
export function reportOutcome(
  registered: RegisteredHandler,
  durationMs: number,
  outcome: Outcome,
  { event, frozen, answered, downgradeGuide }: ReportOptions,
  {
    records,
    reported,
    policyVersion,
  }: { readonly records: DecisionLog; readonly reported?: DecisionRecord[] | undefined; readonly policyVersion?: string | undefined },
): Effect {
  // a plain proceed nobody is told about as it happens: its record is built when the records are read
  if (
    reported === undefined &&
    !(outcome instanceof Failure) &&
    outcome.type === 'proceed' &&
    outcome.reason === undefined &&
    !('display' in outcome)
  ) {
    records.proceeded(registered, event, durationMs);
    return NONE;
  }
  const { lifecycle } = event;
  const { name: handler, mode } = registered;
  const shadow = mode === 'shadow';
  const record = recordOf(registered, event, durationMs, policyVersion);
  records.push(record);
  reported?.push(record);

  let action: InterventionAction;
  if (outcome instanceof Failure) {
    record.error = outcome.error;
    if (shadow || registered.onError === 'throw') record.action = 'error';
    // an action meant to stop or change the call that cannot be carried out fails closed, whatever its onError says
    if (shadow || (registered.onError === 'proceed' && !outcome.failsClosed)) return NONE;
    if (registered.onError === 'throw') throw outcome.error;
    // fail closed: the failure becomes a deny that names the handler
    action = InterventionActions.deny(
      outcome.failsClosed
        ? `The "${handler}" check returned an action that cannot be carried out (${outcome.error.message}), so this was blocked (fail closed).`
        : `The "${handler}" check failed, so this was blocked (fail closed).`,
    );
  } else {
    action = outcome;
  }
  record.action = action.type;
  if (action.type !== 'transform') describe(record, action);
  if (shadow) {
    if (action.type === 'transform') describe(record, action);
    return NONE;
  }
  if (ACTION_EFFECTS[lifecycle][action.type] === 'warn') {
    if (action.type === 'transform') describe(record, action);
    return unenforced(record, `${action.type} has no effect in ${lifecycle}`);
  }
  switch (action.type) {
    case 'proceed':
      return NONE;
    case 'deny':
      return { type: 'deny', reason: action.reason };
    case 'guide':
      if (downgradeGuide !== undefined) return unenforced(record, downgradeGuide);
      // a person approved exactly these arguments (asked with this feedback shown): their answer counts
      if (answered === true) return unenforced(record, 'not enforced: a person approved this call for exactly these arguments');
      return { type: 'guide', feedback: action.feedback, record };
    case 'confirm': {
      const terms = termsOf(action);
      if (answered === true) {
        unenforced(record, 'already answered: a human approved this call');
        return { type: 'answered', terms: terms ?? ANYONE_ONCE };
      }
      return { type: 'confirm', prompt: action.prompt, terms, record };
    }
    case 'transform':
      return frozen === true
        ? unenforced(record, 'transform not applied: the arguments were fixed when the call was approved')
        : { type: 'transform', record };
  }
}

/** A record whose action has no effect, and why. */
function unenforced(record: PendingRecord, warning: string): Effect {
  record.enforced = false;
  record.warning = warning;
  return NONE;
}

/** The words of an action, on its record. */
function describe(record: PendingRecord, action: InterventionAction): void {
  if (action.type === 'deny' || (action.type === 'proceed' && action.reason !== undefined)) record.reason = action.reason;
  else if (action.type === 'guide') record.feedback = action.feedback;
  else if (action.type === 'confirm') {
    record.prompt = action.prompt;
    const terms = termsOf(action);
    if (terms !== undefined) record.approval = confirmInfo(terms);
  }
  if ('display' in action && action.display !== undefined) record.display = action.display;
}

/** What a confirm's record says of its answer: who may answer, how many must approve, when it expires. */
function confirmInfo(terms: ConfirmTerms): NonNullable<DecisionRecord['approval']> {
  const mayAnswer = whoMayAnswer(terms);
  return {
    ...(mayAnswer === undefined ? {} : { mayAnswer, approvers: approversData(terms) }),
    ...(terms.quorum > 1 ? { quorum: terms.quorum } : {}),
    ...(terms.expiresInMs === undefined ? {} : { expiresInMs: terms.expiresInMs }),
  };
}
