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
 * by precedence: deny > confirm > guide > transform > proceed.
 */
export type Verdict<EVENT extends InterventionEvent> =
  | {
      readonly type: 'deny';
      readonly reason: string;
      readonly handler: string;
    }
  | {
      readonly type: 'confirm' | 'guide' | 'transform' | 'proceed';
      /** The committed draft (or the original event when nothing transformed it). */
      readonly event: EVENT;
      readonly transformed: boolean;
      /** Every enforced guide, in registration order. */
      readonly guidance: readonly GuideFeedback[];
      /** The confirm prompts, joined; `undefined` unless `type` is `'confirm'`. */
      readonly prompt: string | undefined;
    };

/** What a record is about, besides the handler. */
export interface RecordSubject {
  readonly toolCallId?: string;
  readonly toolName?: string;
  readonly stepNumber?: number;
}

type Outcome =
  | { readonly ok: true; readonly action: InterventionAction }
  | { readonly ok: false; readonly error: InterventionsError };

type PendingRecord = { -readonly [K in keyof DecisionRecord]: DecisionRecord[K] };

const now = () => performance.now();

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
 * Every evaluation yields one {@link DecisionRecord}, passed to `onRecord`
 * once the verdict is known (so `enforced` is final).
 */
export async function evaluateInterventions<EVENT extends InterventionEvent>({
  handlers,
  event,
  makeDraft,
  onRecord,
  subject,
  frozen = false,
  downgradeGuide,
  onPending,
}: {
  handlers: readonly RegisteredHandler[];
  event: EVENT;
  makeDraft: (event: EVENT) => EVENT;
  onRecord: (record: DecisionRecord) => void;
  subject?: RecordSubject;
  /**
   * The call was approved by a human: transforms are recorded but not
   * applied (the approved arguments are final) and confirms count as answered.
   */
  frozen?: boolean;
  /** Record guides without enforcing them, with this warning (retries exhausted). */
  downgradeGuide?: string;
  /** Told when a handler returns a promise, before it is awaited. */
  onPending?: (handler: RegisteredHandler) => Promise<void> | void;
}): Promise<Verdict<EVENT>> {
  const lifecycle = event.lifecycle;
  const effects = ACTION_EFFECTS[lifecycle];
  const records: PendingRecord[] = [];
  const guidance: GuideFeedback[] = [];
  const guideRecords: PendingRecord[] = [];
  const prompts: string[] = [];
  const confirmRecords: PendingRecord[] = [];
  const transformRecords: PendingRecord[] = [];
  let current = event;
  let drafted = false;

  const flush = () => {
    for (const record of records) onRecord(record);
  };

  for (const registered of handlers) {
    const method = registered.handler[lifecycle] as
      | ((event: EVENT) => unknown)
      | undefined;
    if (method === undefined) continue;

    const shadow = registered.mode === 'shadow';
    const startedAt = now();
    let outcome = await invoke(registered, method, current, event.abortSignal, onPending);
    const record: PendingRecord = {
      handler: registered.name,
      lifecycle,
      action: 'proceed',
      enforced: !shadow,
      mode: registered.mode,
      durationMs: 0,
      ...subject,
    };
    records.push(record);

    // transforms run their `apply` on the draft now, so a throwing apply is a
    // failure of this handler like any other:
    if (
      outcome.ok &&
      outcome.action.type === 'transform' &&
      !shadow &&
      !frozen
    ) {
      if (effects.transform === 'apply') {
        try {
          if (!drafted) {
            current = makeDraft(current);
            drafted = true;
          }
          current = await applyTransform(
            registered,
            outcome.action,
            current,
          );
        } catch (error) {
          outcome = {
            ok: false,
            error: asHandlerError(registered, error, lifecycle),
          };
        }
      }
    }
    record.durationMs = now() - startedAt;

    if (!outcome.ok) {
      record.error = outcome.error;
      if (shadow) {
        record.action = 'error';
        continue;
      }
      if (registered.onError === 'proceed') continue;
      if (registered.onError === 'throw') {
        record.action = 'error';
        flush();
        throw outcome.error;
      }
      // fail closed: the failure becomes a deny that names the handler
      outcome = {
        ok: true,
        action: InterventionActions.deny(
          `The "${registered.name}" check failed, so this was blocked (fail closed).`,
        ),
      };
    }

    const action = outcome.action;
    record.action = action.type;
    if (shadow) {
      describe(record, action);
      continue;
    }

    if (effects[action.type] === 'warn') {
      describe(record, action);
      record.enforced = false;
      record.warning = `${action.type} has no effect in ${lifecycle}`;
      continue;
    }
    if (frozen && action.type === 'transform') {
      record.enforced = false;
      record.warning =
        'transform not applied: the arguments were fixed when the call was approved';
      continue;
    }
    if (frozen && action.type === 'confirm') {
      describe(record, action);
      record.enforced = false;
      record.warning = 'already answered: a human approved this call';
      continue;
    }

    switch (action.type) {
      case 'proceed':
        break;
      case 'deny': {
        record.reason = action.reason;
        for (const pending of [
          ...guideRecords,
          ...confirmRecords,
          ...transformRecords,
        ]) {
          pending.enforced = false;
        }
        flush();
        return { type: 'deny', reason: action.reason, handler: registered.name };
      }
      case 'guide':
        record.feedback = action.feedback;
        if (downgradeGuide !== undefined) {
          record.enforced = false;
          record.warning = downgradeGuide;
          break;
        }
        guidance.push({ handler: registered.name, feedback: action.feedback });
        guideRecords.push(record);
        break;
      case 'confirm':
        record.prompt = action.prompt;
        prompts.push(action.prompt);
        confirmRecords.push(record);
        break;
      case 'transform':
        transformRecords.push(record);
        break;
    }
  }

  const type =
    prompts.length > 0
      ? 'confirm'
      : guidance.length > 0
        ? 'guide'
        : transformRecords.length > 0
          ? 'transform'
          : 'proceed';

  // a confirm outranks guide at the same point: the human decides instead
  if (type === 'confirm') {
    for (const pending of guideRecords) pending.enforced = false;
  }

  flush();
  return {
    type,
    event: current,
    transformed: drafted,
    guidance: type === 'confirm' ? [] : guidance,
    prompt: type === 'confirm' ? prompts.join('\n') : undefined,
  };
}

async function invoke<EVENT extends InterventionEvent>(
  registered: RegisteredHandler,
  method: (event: EVENT) => unknown,
  event: EVENT,
  abortSignal: AbortSignal | undefined,
  onPending: ((handler: RegisteredHandler) => Promise<void> | void) | undefined,
): Promise<Outcome> {
  const failed = (error: unknown): Outcome => {
    // an abort is not the handler's failure: let it end the run as an abort
    if (abortSignal?.aborted && error === abortSignal.reason) throw error;
    return { ok: false, error: asHandlerError(registered, error, event.lifecycle) };
  };
  let value: unknown;
  try {
    value = method.call(registered.handler, event);
  } catch (error) {
    return failed(error);
  }
  if (isThenable(value)) {
    // outside the try: a status observer that throws ends the call, it is not this handler's failure
    await onPending?.(registered);
    try {
      value = await settle(value, {
        timeoutMs: registered.timeoutMs,
        abortSignal,
        onTimeout: () =>
          new HandlerTimeoutError({
            handlerName: registered.name,
            lifecycle: event.lifecycle,
            timeoutMs: registered.timeoutMs ?? 0,
          }),
      });
    } catch (error) {
      return failed(error);
    }
  }
  return validateAction(registered, event, value);
}

function validateAction(
  registered: RegisteredHandler,
  event: InterventionEvent,
  value: unknown,
): Outcome {
  const lifecycle = event.lifecycle;
  const invalid = (message: string): Outcome => ({
    ok: false,
    error: new InvalidActionError({
      handlerName: registered.name,
      lifecycle,
      received: value,
      message,
    }),
  });

  if (value == null || typeof value !== 'object') {
    return invalid(
      `Intervention handler "${registered.name}" returned ${value === null ? 'null' : typeof value} from ${lifecycle}; expected an action from InterventionActions (proceed, deny, guide, confirm, transform).`,
    );
  }
  const action = value as { type?: unknown } & Record<string, unknown>;
  switch (action.type) {
    case 'proceed':
      break;
    case 'deny':
      if (typeof action.reason !== 'string') {
        return invalid(
          `Intervention handler "${registered.name}" returned deny without a string reason from ${lifecycle}.`,
        );
      }
      break;
    case 'guide':
      if (typeof action.feedback !== 'string') {
        return invalid(
          `Intervention handler "${registered.name}" returned guide without string feedback from ${lifecycle}.`,
        );
      }
      break;
    case 'confirm':
      if (typeof action.prompt !== 'string') {
        return invalid(
          `Intervention handler "${registered.name}" returned confirm without a string prompt from ${lifecycle}.`,
        );
      }
      break;
    case 'transform':
      if (typeof action.apply !== 'function') {
        return invalid(
          `Intervention handler "${registered.name}" returned transform without an apply function from ${lifecycle}.`,
        );
      }
      break;
    default:
      return invalid(
        `Intervention handler "${registered.name}" returned an object that is not an action from ${lifecycle} (type ${JSON.stringify(action.type)}); use InterventionActions.`,
      );
  }
  const type = action.type;
  if (ACTION_EFFECTS[lifecycle][type] === undefined) {
    return invalid(
      `Intervention handler "${registered.name}" returned ${type} from ${lifecycle}, which does not support it.`,
    );
  }
  return { ok: true, action: action as unknown as InterventionAction };
}

async function applyTransform<EVENT extends InterventionEvent>(
  registered: RegisteredHandler,
  action: InterventionAction & { type: 'transform' },
  draft: EVENT,
): Promise<EVENT> {
  const returned: unknown = await action.apply(draft);
  if (returned === undefined) return draft;
  if (
    returned == null ||
    typeof returned !== 'object' ||
    (returned as { lifecycle?: unknown }).lifecycle !== draft.lifecycle
  ) {
    throw new InvalidActionError({
      handlerName: registered.name,
      lifecycle: draft.lifecycle,
      received: returned,
      message: `The transform of intervention handler "${registered.name}" returned a value that is not a ${draft.lifecycle} event; mutate the draft or return it.`,
    });
  }
  return returned as EVENT;
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
  if (action.type === 'deny') record.reason = action.reason;
  else if (action.type === 'guide') record.feedback = action.feedback;
  else if (action.type === 'confirm') record.prompt = action.prompt;
}
