import { redactData } from '../redaction/redact-data.ts';
import type { InboxAnswer, InboxRequest } from './approval-inbox.ts';
import type { PendingApproval, PendingApprovalStatus } from './pending-approval.ts';

/**
 * A kept request as people are shown it, where it stands at `now`: closed by
 * its answer (an approved call that ran is `'executed'`; one the ledger
 * holds refused since, `refusedBy`, is `'refused'`), past its expiry
 * unanswered (`'expired'`), or pending.
 */
export function pendingApprovalOf(
  request: InboxRequest,
  {
    answer,
    approvedBy,
    executed,
    refusedBy,
    now,
    forPeople,
  }: {
    readonly answer: InboxAnswer | undefined;
    readonly approvedBy: readonly string[];
    readonly executed: boolean;
    readonly refusedBy?: string | undefined;
    readonly now: number;
    readonly forPeople: ((text: string) => string) | undefined;
  },
): PendingApproval {
  const { callInput: _call, pin: _pin, audience: _audience, ...shown } = request;
  // a call that ran was executed, whatever answer the inbox saw first (a refusal that binds nobody is not final); an
  // approval the resume refused for good (an edit the tool's schema rejected) is refused
  const refused = answer?.status === 'approved' && !executed && refusedBy !== undefined;
  const status: PendingApprovalStatus = executed
    ? 'executed'
    : answer !== undefined
      ? refused
        ? 'refused'
        : answer.status
      : request.expiresAt !== undefined && request.expiresAt <= now
        ? 'expired'
        : 'pending';
  const edit = answer?.edit?.value;
  const by = refused ? refusedBy : answer?.by;
  // an approval's reason does not say why it was refused
  const reason = refused ? undefined : answer?.reason;
  return {
    ...shown,
    approvedBy,
    status,
    ...(by === undefined ? {} : { answeredBy: by }),
    ...(answer === undefined ? {} : { answeredAt: answer.at }),
    ...(reason === undefined ? {} : { reason: forPeople === undefined ? reason : forPeople(reason) }),
    ...(edit === undefined ? {} : { editedInput: forPeople === undefined ? edit : redactData(edit, forPeople) }),
  };
}
