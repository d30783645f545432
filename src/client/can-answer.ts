import type { ApproversData, InterventionApprovalData } from './intervention-data.ts';

/**
 * A person as the server's trusted `runtimeContext` describes them: their
 * user id, and their role (`role`) or roles (`roles`).
 *
 * @example
 * ```ts
 * const morgan: ApprovalPerson = { userId: 'morgan', role: 'manager' };
 * ```
 */
export interface ApprovalPerson {
  readonly userId?: string | undefined;
  readonly role?: string | undefined;
  readonly roles?: readonly string[] | undefined;
}

/**
 * Whether `person` may answer a pending approval, read the way the server
 * reads it (every rule of `approval.approvers` must admit them): `true`,
 * `false`, or `undefined` when only the server can tell (a rule with the
 * app's own test, `allow`; or a request that says who may answer only in
 * words). A person whose approval a quorum already counted may not answer
 * again. The server decides either way: this only spares a person buttons
 * that would do nothing.
 *
 * @example
 * ```tsx
 * // the decisions of one tool call, in order, and the signed-in person
 * function Card({ decisions, signedIn }: { decisions: InterventionData[]; signedIn: ApprovalPerson }) {
 *   const approval = approvalOf(decisions);
 *   // false: they may not; undefined: only the server can tell, so let them try
 *   if (canAnswer(approval, signedIn) === false) return <p>Waiting for {approval?.mayAnswer ?? 'someone else'}</p>;
 *   return <button type="button">Approve</button>;
 * }
 * ```
 */
export function canAnswer(approval: InterventionApprovalData | undefined, person: ApprovalPerson): boolean | undefined {
  if (approval === undefined) return true;
  const { approvers, mayAnswer, askedBy, approvedBy, status } = approval;
  // a refusal by someone who may answer is final: nobody answers the request again
  if (status === 'refused') return false;
  if (status === 'awaiting-quorum' && person.userId !== undefined && approvedBy?.includes(person.userId) === true) return false;
  // the words alone cannot be compared with anyone
  if (approvers === undefined) return mayAnswer === undefined ? true : undefined;
  let known = true;
  for (const rule of approvers) {
    const admitted = admits(rule, person, askedBy);
    if (admitted === false) return false;
    if (admitted === undefined) known = false;
  }
  return known ? true : undefined;
}

function admits(rule: ApproversData, { userId, role, roles }: ApprovalPerson, askedBy: string | undefined): boolean | undefined {
  if (rule.excludeAsker === true && (userId === undefined || userId === askedBy)) return false;
  const { userIds, roles: admitted, allow } = rule;
  if (userIds === undefined && admitted === undefined && allow !== true) return true;
  if (userId !== undefined && userIds?.includes(userId) === true) return true;
  const theirs = [...(roles ?? []), ...(role === undefined ? [] : [role])];
  if (admitted?.some((item) => theirs.includes(item)) === true) return true;
  return allow === true ? undefined : false;
}
