import type { ConfirmTerms } from '../actions/confirm-terms.ts';
import type { Approvers } from '../actions/intervention-actions.ts';
import { userIdOf } from '../actions/user-id-of.ts';
import { getErrorMessage } from '../util/get-error-message.ts';

type RuntimeContext = Readonly<Record<string, unknown>>;

/** Whether a person may answer: admitted, or not (with why the rules admitted nobody, when they can say). */
export type Admission = { readonly admitted: true } | { readonly admitted: false; readonly failure?: string };

/**
 * Whether the person whose request carries the answer (`approver`, its
 * trusted runtime context) may answer a request asked by `asker`: every
 * handler's approvers admit them. An `allow` predicate that throws, or
 * answers with a promise (it must answer at once), admits nobody: fail
 * closed, and `failure` says why.
 */
export function mayAnswer(terms: ConfirmTerms, approver: RuntimeContext, asker: RuntimeContext | undefined): Admission {
  for (const rule of terms.approvers) {
    const admission = admits(rule, approver, asker ?? {});
    if (!admission.admitted) return admission;
  }
  return ADMITTED;
}

const ADMITTED: Admission = { admitted: true };
const REFUSED: Admission = { admitted: false };

function admits(rule: Approvers, approver: RuntimeContext, asker: RuntimeContext): Admission {
  const id = userIdOf(approver);
  if (rule.excludeAsker === true && (id === undefined || id === userIdOf(asker))) return REFUSED;
  const { userIds, roles, allow } = rule;
  if (userIds === undefined && roles === undefined && allow === undefined) return ADMITTED;
  if (id !== undefined && userIds?.includes(id) === true) return ADMITTED;
  if (roles !== undefined && rolesOf(approver).some((role) => roles.includes(role))) return ADMITTED;
  if (allow === undefined) return REFUSED;
  const label = rule.label === undefined ? 'the approvers’ allow predicate' : `the allow predicate of ${rule.label}`;
  let answer: unknown;
  try {
    answer = allow(approver, asker);
  } catch (error) {
    return { admitted: false, failure: `${label} threw (${getErrorMessage(error).split('\n')[0]}), so it admits nobody` };
  }
  if (answer !== null && typeof (answer as { then?: unknown })?.then === 'function') {
    // never left to reject unhandled: its answer comes too late to admit anyone
    (answer as PromiseLike<unknown>).then(undefined, () => undefined);
    return { admitted: false, failure: `${label} answered with a promise (it must answer at once, true or false), so it admits nobody` };
  }
  return answer === true ? ADMITTED : REFUSED;
}

/** A person's roles in a trusted runtime context: `roles` (strings) and `role`. */
function rolesOf(context: RuntimeContext): string[] {
  const { roles, role } = context;
  const all = Array.isArray(roles) ? roles.filter((item): item is string => typeof item === 'string') : [];
  if (typeof role === 'string') all.push(role);
  return all;
}
