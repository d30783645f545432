import type { Approvers, Confirm, ConfirmOptions } from '../actions/intervention-actions.ts';
import { type KnownOptions, knownOptions } from '../util/known-options.ts';

/** The keys of {@link Approvers}. */
export const APPROVERS_OPTIONS = knownOptions<Approvers>({ userIds: true, roles: true, allow: true, excludeAsker: true, label: true });

/** The keys of a confirm's terms (`flowPolicy`'s `approval`): who may answer, how many, how long. */
export const CONFIRM_TERMS_OPTIONS = knownOptions<Omit<ConfirmOptions, 'display'>>({
  approvers: APPROVERS_OPTIONS,
  quorum: true,
  expiresInMs: true,
});

/** The keys of {@link ConfirmOptions}: what `InterventionActions.confirm(prompt, options)` takes. */
export const CONFIRM_OPTIONS: KnownOptions = knownOptions<ConfirmOptions>({
  display: true,
  approvers: APPROVERS_OPTIONS,
  quorum: true,
  expiresInMs: true,
});

/** The keys of a {@link Confirm} action: its `type`, its `prompt` and its options. */
export const CONFIRM_ACTION = knownOptions<Confirm>({
  type: true,
  prompt: true,
  display: true,
  approvers: APPROVERS_OPTIONS,
  quorum: true,
  expiresInMs: true,
});

/** A confirm option whose value cannot be used: which (`quorum`, `approvers.roles`), and what it must be. */
export interface ConfirmOptionProblem {
  readonly option: string;
  readonly message: string;
}

/**
 * What is wrong with the values of a confirm's terms (who may answer,
 * quorum, expiry), as a confirm action, `humanApproval` or `flowPolicy`'s
 * `approval` gives them; `undefined` when they can be used. Unknown keys
 * are {@link CONFIRM_OPTIONS}' to find.
 */
export function confirmOptionsProblem({
  approvers,
  quorum,
  expiresInMs,
}: Readonly<Record<string, unknown>>): ConfirmOptionProblem | undefined {
  if (quorum !== undefined && !(Number.isInteger(quorum) && (quorum as number) >= 1)) {
    return problem('quorum', 'a whole number of at least 1 (how many distinct people must approve)', quorum);
  }
  if (expiresInMs !== undefined && !(typeof expiresInMs === 'number' && expiresInMs > 0 && Number.isFinite(expiresInMs))) {
    return problem('expiresInMs', 'a positive number of milliseconds', expiresInMs);
  }
  if (approvers === undefined) return undefined;
  if (approvers === null || typeof approvers !== 'object' || Array.isArray(approvers)) {
    return problem('approvers', `an object with any of ${APPROVERS_OPTIONS.keys.join(', ')}`, approvers);
  }
  const { userIds, roles, allow, excludeAsker, label } = approvers as Record<string, unknown>;
  const strings = (list: unknown) => list === undefined || (Array.isArray(list) && list.every((item) => typeof item === 'string'));
  if (!strings(userIds)) return problem('approvers.userIds', 'a list of user ids (strings)', userIds);
  if (!strings(roles)) return problem('approvers.roles', 'a list of roles (strings)', roles);
  if (allow !== undefined && typeof allow !== 'function')
    return problem('approvers.allow', 'a function (approver, asker) => boolean', allow);
  if (excludeAsker !== undefined && typeof excludeAsker !== 'boolean')
    return problem('approvers.excludeAsker', 'true or false', excludeAsker);
  if (label !== undefined && typeof label !== 'string') return problem('approvers.label', 'a string', label);
  return undefined;
}

function problem(option: string, expected: string, received: unknown): ConfirmOptionProblem {
  return { option, message: `${option} must be ${expected}, received ${shown(received)}` };
}

function shown(value: unknown): string {
  if (typeof value === 'function') return 'a function';
  if (typeof value !== 'object' && typeof value !== 'string') return String(value);
  try {
    const text = JSON.stringify(value) ?? String(value);
    return text.length > 80 ? `${text.slice(0, 80)}…` : text;
  } catch {
    return String(value);
  }
}
