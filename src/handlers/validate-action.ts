import type { ActionType, InterventionAction } from '../actions/intervention-actions.ts';
import { ACTION_EFFECTS, type Lifecycle } from '../actions/lifecycle.ts';
import { closestNames } from '../util/closest-name.ts';
import { CONFIRM_ACTION, CONFIRM_OPTIONS, confirmOptionsProblem } from './confirm-options-problem.ts';

/** The start of every invalid-action message (built only when something is wrong). */
const returned = (name: string) => `Intervention handler "${name}" returned`;

const ACTION_TYPES: readonly ActionType[] = ['proceed', 'deny', 'guide', 'confirm', 'transform'];

/**
 * Why what a handler returned is not a valid action at `lifecycle`, or
 * `undefined` when `value` is one (then it is an {@link InterventionAction}).
 * Every message says what would be valid.
 */
export function actionProblem(value: unknown, lifecycle: Lifecycle, name: string): string | undefined {
  if (value == null || typeof value !== 'object') {
    return `${returned(name)} ${value === null ? 'null' : typeof value} from ${lifecycle}; expected ${supported(lifecycle)}.`;
  }
  const action = value as { type?: unknown } & Record<string, unknown>;
  const { type } = action;
  if (typeof type !== 'string' || !Object.hasOwn(ACTION_EFFECTS[lifecycle], type)) {
    if (typeof type === 'string' && (ACTION_TYPES as readonly string[]).includes(type)) {
      return `${returned(name)} ${type} from ${lifecycle}, which does not support it; expected ${supported(lifecycle)}.`;
    }
    const near = typeof type === 'string' ? closestNames(type, ACTION_TYPES, { max: 1 })[0] : undefined;
    return (
      `${returned(name)} an object that is not an action from ${lifecycle} (type ${JSON.stringify(type)}` +
      `${near === undefined ? '' : `; did you mean ${near}?`}); expected ${supported(lifecycle)}.`
    );
  }
  switch (type as ActionType) {
    case 'proceed':
      if (action.reason !== undefined && typeof action.reason !== 'string')
        return `${returned(name)} proceed with a reason that is not a string from ${lifecycle}; give InterventionActions.proceed(reason) a string, or no reason.`;
      break;
    case 'deny':
      if (typeof action.reason !== 'string')
        return `${returned(name)} deny without a string reason from ${lifecycle}; make it with InterventionActions.deny(reason).`;
      break;
    case 'guide':
      if (typeof action.feedback !== 'string')
        return `${returned(name)} guide without string feedback from ${lifecycle}; make it with InterventionActions.guide(feedback).`;
      break;
    case 'confirm': {
      if (typeof action.prompt !== 'string')
        return `${returned(name)} confirm without a string prompt from ${lifecycle}; make it with InterventionActions.confirm(prompt, options).`;
      const problem = confirmProblem(action);
      if (problem !== undefined) return `${returned(name)} confirm from ${lifecycle} ${problem}.`;
      break;
    }
    case 'transform':
      if (typeof action.apply !== 'function')
        return `${returned(name)} transform without an apply function from ${lifecycle}; make it with InterventionActions.transform(apply).`;
      break;
  }
  if (action.display !== undefined && typeof action.display !== 'string') {
    return `${returned(name)} ${type} with a display that is not a string from ${lifecycle}; a display is a short reason for people (a string), or left out.`;
  }
  return undefined;
}

/**
 * Why a valid `beforeToolCall` action is not one its handler declared in
 * `toolCallActions`, or `undefined` when it is (or nothing is declared).
 * Such an action fails closed whatever the handler's `onError` says: the
 * run may have let the call's arguments stream before deciding it, because
 * the handler said it would never transform it.
 */
export function undeclaredAction(
  action: InterventionAction,
  lifecycle: Lifecycle,
  name: string,
  toolCallActions: ReadonlySet<string> | undefined,
): string | undefined {
  if (lifecycle !== 'beforeToolCall' || toolCallActions === undefined || action.type === 'proceed' || toolCallActions.has(action.type)) {
    return undefined;
  }
  const declared = toolCallActions.size === 0 ? 'none' : [...toolCallActions].join(', ');
  return `${returned(name)} ${action.type} from beforeToolCall, which its toolCallActions (${declared}) do not include: add '${action.type}' to toolCallActions, or return one of them.`;
}

/**
 * What is wrong with a confirm's options: a key it does not take (a
 * misspelt `approvers` would let anyone answer), or a value it cannot use.
 */
function confirmProblem(action: Record<string, unknown>): string | undefined {
  const unknown = CONFIRM_ACTION.find(action);
  if (unknown !== undefined) {
    const { path, option, suggestion, known } = unknown;
    return (
      `with an unknown option ${JSON.stringify(path === '' ? option : `${path}.${option}`)}` +
      `${suggestion === undefined ? '' : ` (did you mean ${path === '' ? suggestion : `${path}.${suggestion}`}?)`}, which would be ignored: ` +
      (path === '' ? `its options are ${CONFIRM_OPTIONS.keys.join(', ')}` : `${path} takes ${known.join(', ')}`)
    );
  }
  const problem = confirmOptionsProblem(action);
  return problem === undefined ? undefined : `with an invalid option: ${problem.message}`;
}

/** `an action afterToolCall supports: proceed, deny (recorded with a warning, no effect) or transform, made by InterventionActions`. */
function supported(lifecycle: Lifecycle): string {
  const types = Object.entries(ACTION_EFFECTS[lifecycle]).map(([type, effect]) =>
    effect === 'warn' ? `${type} (recorded with a warning, no effect)` : type,
  );
  return `an action ${lifecycle} supports: ${types.slice(0, -1).join(', ')} or ${types.at(-1)}, made by InterventionActions`;
}
