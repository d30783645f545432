import type { ApproversData } from '../client/intervention-data.ts';
import type { Approvers, Confirm } from './intervention-actions.ts';

/**
 * What the confirms of one call ask of its answer, merged: every handler's
 * `approvers` (each must admit the person), the largest `quorum`, the
 * shortest expiry.
 */
export interface ConfirmTerms {
  readonly approvers: readonly Approvers[];
  readonly quorum: number;
  readonly expiresInMs: number | undefined;
}

/** What a confirm that sets no terms asks of its answer: anyone, once, no expiry. */
export const ANYONE_ONCE: ConfirmTerms = Object.freeze({ approvers: [], quorum: 1, expiresInMs: undefined });

/** The terms one confirm sets; `undefined` when it sets none (anyone, once, no expiry). */
export function termsOf({ approvers, quorum, expiresInMs }: Confirm): ConfirmTerms | undefined {
  if (approvers === undefined && quorum === undefined && expiresInMs === undefined) return undefined;
  return { approvers: approvers === undefined ? [] : [approvers], quorum: quorum ?? 1, expiresInMs };
}

/** Whether terms admit people by a predicate (which only the handler that asked can apply: a request keeps only that there was one). */
export function hasPredicate(terms: ConfirmTerms | undefined): boolean {
  return terms?.approvers.some((rule) => rule.allow !== undefined) === true;
}

/** Two confirms' terms as one: both approvers, the larger quorum, the sooner expiry. */
export function mergeTerms(first: ConfirmTerms | undefined, second: ConfirmTerms | undefined): ConfirmTerms | undefined {
  if (first === undefined || second === undefined) return first ?? second;
  const expiries = [first.expiresInMs, second.expiresInMs].filter((value): value is number => value !== undefined);
  return {
    approvers: [...first.approvers, ...second.approvers],
    quorum: Math.max(first.quorum, second.quorum),
    expiresInMs: expiries.length === 0 ? undefined : Math.min(...expiries),
  };
}

/** Who may answer, as people are told: each rule's label, or its user ids and roles. `undefined`: anyone. */
export function whoMayAnswer(terms: ConfirmTerms): string | undefined {
  const each = terms.approvers.map((rule) => {
    if (rule.label !== undefined) return rule.label;
    const named = [
      ...(rule.userIds ?? []).map((id) => `user ${id}`),
      ...(rule.roles ?? []).map((role) => `a ${role}`),
      ...(rule.allow === undefined ? [] : ['someone the app allows']),
    ];
    const who = named.length === 0 ? 'anyone' : named.join(' or ');
    return rule.excludeAsker === true ? `${who} other than the person who asked` : who;
  });
  return each.length === 0 ? undefined : each.join(', and ');
}

/** Who may answer, as data a browser can compare with a person: each rule without its predicate (`allow: true` says it has one). */
export function approversData(terms: ConfirmTerms): readonly ApproversData[] {
  return terms.approvers.map(({ allow, ...rule }) => (allow === undefined ? { ...rule } : { ...rule, allow: true }));
}
