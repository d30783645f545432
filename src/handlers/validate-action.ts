import type { InterventionAction } from '../actions/intervention-actions.ts';
import { ACTION_EFFECTS, type Lifecycle } from '../actions/lifecycle.ts';

/** The start of every invalid-action message (built only when something is wrong). */
const returned = (name: string) => `Intervention handler "${name}" returned`;

/**
 * Why what a handler returned is not a valid action at `lifecycle`, or
 * `undefined` when `value` is one (then it is an {@link InterventionAction}).
 */
export function actionProblem(value: unknown, lifecycle: Lifecycle, name: string): string | undefined {
  if (value == null || typeof value !== 'object') {
    return `${returned(name)} ${value === null ? 'null' : typeof value} from ${lifecycle}; expected an action from InterventionActions (proceed, deny, guide, confirm, transform).`;
  }
  const action = value as { type?: unknown } & Record<string, unknown>;
  switch (action.type) {
    case 'proceed':
      if (action.reason !== undefined && typeof action.reason !== 'string')
        return `${returned(name)} proceed with a reason that is not a string from ${lifecycle}.`;
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
