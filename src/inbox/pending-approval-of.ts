import { redactData } from '../redaction/redact-data.ts';
import type { InboxAnswer, InboxRequest } from './approval-inbox.ts';
import type { PendingApproval, PendingApprovalStatus } from './pending-approval.ts';

/**
 * A kept request as people are shown it, where it stands at `now`: closed by
 * its answer (an approved call that ran is `'executed'`), past its expiry
 * unanswered (`'expired'`), or pending.
 */
export function pendingApprovalOf(
  request: InboxRequest,
  {
    answer,
    approvedBy,
    executed,
    now,
    forPeople,
  }: {
    readonly answer: InboxAnswer | undefined;
    readonly approvedBy: readonly string[];
    readonly executed: boolean;
    readonly now: number;
    readonly forPeople: ((text: string) => string) | undefined;
  },
): PendingApproval {
  const { callInput: _call, pin: _pin, audience: _audience, ...shown } = request;
  const status: PendingApprovalStatus =
    answer !== undefined
      ? answer.status === 'approved' && executed
        ? 'executed'
        : answer.status
      : request.expiresAt !== undefined && request.expiresAt <= now
        ? 'expired'
        : 'pending';
  const edit = answer?.edit?.value;
  return {
    ...shown,
    approvedBy,
    status,
    ...(answer?.by === undefined ? {} : { answeredBy: answer.by }),
    ...(answer === undefined ? {} : { answeredAt: answer.at }),
    ...(answer?.reason === undefined ? {} : { reason: forPeople === undefined ? answer.reason : forPeople(answer.reason) }),
    ...(edit === undefined ? {} : { editedInput: forPeople === undefined ? edit : redactData(edit, forPeople) }),
  };
}
