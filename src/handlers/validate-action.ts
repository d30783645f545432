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
    case 'confirm': {
      if (typeof action.prompt !== 'string') return `${returned(name)} confirm without a string prompt from ${lifecycle}.`;
      const problem = confirmProblem(action);
      if (problem !== undefined) return `${returned(name)} confirm with ${problem} from ${lifecycle}.`;
      break;
    }
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

/** What is wrong with a confirm's options (who may answer, quorum, expiry), or `undefined`. */
function confirmProblem({ approvers, quorum, expiresInMs }: Record<string, unknown>): string | undefined {
  if (quorum !== undefined && !(Number.isInteger(quorum) && (quorum as number) >= 1)) {
    return `a quorum that is not a whole number of at least 1 (${String(quorum)})`;
  }
  if (expiresInMs !== undefined && !(typeof expiresInMs === 'number' && expiresInMs > 0 && Number.isFinite(expiresInMs))) {
    return `an expiresInMs that is not a positive number of milliseconds (${String(expiresInMs)})`;
  }
  if (approvers === undefined) return undefined;
  if (approvers === null || typeof approvers !== 'object') return 'approvers that are not an object';
  const { userIds, roles, allow, excludeAsker, label } = approvers as Record<string, unknown>;
  const strings = (list: unknown) => list === undefined || (Array.isArray(list) && list.every((item) => typeof item === 'string'));
  if (!strings(userIds)) return 'approvers.userIds that are not a list of strings';
  if (!strings(roles)) return 'approvers.roles that are not a list of strings';
  if (allow !== undefined && typeof allow !== 'function') return 'an approvers.allow that is not a function';
  if (excludeAsker !== undefined && typeof excludeAsker !== 'boolean') return 'an approvers.excludeAsker that is not a boolean';
  if (label !== undefined && typeof label !== 'string') return 'an approvers.label that is not a string';
  return undefined;
}
