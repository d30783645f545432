import type { ConfirmTerms } from '../actions/confirm-terms.ts';
import type { Approvers } from '../actions/intervention-actions.ts';
import { userIdOf } from '../actions/user-id-of.ts';

type RuntimeContext = Readonly<Record<string, unknown>>;

/**
 * Whether the person whose request carries the answer (`approver`, its
 * trusted runtime context) may answer a request asked by `asker`: every
 * handler's approvers admit them.
 */
export function mayAnswer(terms: ConfirmTerms, approver: RuntimeContext, asker: RuntimeContext | undefined): boolean {
  return terms.approvers.every((rule) => admits(rule, approver, asker ?? {}));
}

function admits(rule: Approvers, approver: RuntimeContext, asker: RuntimeContext): boolean {
  const id = userIdOf(approver);
  if (rule.excludeAsker === true && (id === undefined || id === userIdOf(asker))) return false;
  const { userIds, roles, allow } = rule;
  if (userIds === undefined && roles === undefined && allow === undefined) return true;
  if (id !== undefined && userIds?.includes(id) === true) return true;
  if (roles !== undefined && rolesOf(approver).some((role) => roles.includes(role))) return true;
  return allow?.(approver, asker) === true;
}

/** A person's roles in a trusted runtime context: `roles` (strings) and `role`. */
function rolesOf(context: RuntimeContext): string[] {
  const { roles, role } = context;
  const all = Array.isArray(roles) ? roles.filter((item): item is string => typeof item === 'string') : [];
  if (typeof role === 'string') all.push(role);
  return all;
}
