import { userIdOf } from '../actions/user-id-of.ts';
import type { ApprovalLedger } from '../ledger/approval-ledger.ts';
import type { ApprovalInbox, InboxAnswer, InboxRequest } from './approval-inbox.ts';
import { summaryOf } from './list-requests.ts';
import { notifyInbox } from './notify-inbox.ts';
import type { PendingApproval } from './pending-approval.ts';
import { pendingApprovalOf } from './pending-approval-of.ts';

/** What an admitted answer did to its request: closed it (approved, refused, withdrawn, expired), or counted an approval. */
export type InboxChange =
  | { readonly type: 'close'; readonly answer: InboxAnswer }
  | { readonly type: 'count'; readonly approvedBy: readonly string[] };

/**
 * Writes into the inbox what an admitted answer did to its request, wherever
 * it was given (the inbox, or the chat: a request answered in the chat
 * leaves the approvers' inboxes), and tells the app. Returns the request as
 * it stands after; `undefined`: the inbox does not hold it.
 */
export async function changeInInbox(
  {
    inbox,
    ledger,
    forPeople,
  }: {
    readonly inbox?: ApprovalInbox | undefined;
    readonly ledger: ApprovalLedger | undefined;
    readonly forPeople?: ((text: string) => string) | undefined;
  },
  id: string,
  change: InboxChange,
): Promise<PendingApproval | undefined> {
  if (inbox === undefined) return undefined;
  const request = await inbox.get(id);
  if (request === undefined) return undefined;
  if (change.type === 'count') await inbox.noteApprovals(id, change.approvedBy);
  const standing = change.type === 'close' ? await inbox.close(id, change.answer) : await inbox.answerOf(id);
  const shown = await viewOf({ inbox, ledger, forPeople }, request, standing);
  // told once: by whoever closed it (or counted an approval)
  if (change.type === 'count' || standing === change.answer) {
    const type = shown.status === 'expired' || shown.status === 'withdrawn' ? shown.status : 'answered';
    await notifyInbox(inbox, { type, request: shown, summary: summaryOf(shown) });
  }
  return shown;
}

/** The answer of a person: who (their user id), their context (kept for an approval, which the resume admits as theirs), when. */
export function answerBy(
  status: InboxAnswer['status'],
  person: Readonly<Record<string, unknown>>,
  at: number,
  { reason, edit }: { readonly reason?: string | undefined; readonly edit?: { readonly value: unknown } | undefined } = {},
): InboxAnswer {
  const by = userIdOf(person);
  return {
    status,
    ...(by === undefined ? {} : { by }),
    ...(status === 'approved' || status === 'refused' ? { context: { ...person } } : {}),
    at,
    ...(reason === undefined ? {} : { reason }),
    ...(edit === undefined ? {} : { edit }),
  };
}

/** What `inbox.resume` writes into a history as the reason of an answer the inbox closed a request with otherwise than approved. */
export function closedReason(closed: InboxAnswer): string {
  return closed.reason ?? (closed.status === 'expired' ? 'The request expired unanswered.' : `The request was ${closed.status}.`);
}

/** A kept request as people are shown it now. */
export async function viewOf(
  {
    inbox,
    ledger,
    forPeople,
  }: {
    readonly inbox: ApprovalInbox;
    readonly ledger: ApprovalLedger | undefined;
    readonly forPeople: ((text: string) => string) | undefined;
  },
  request: InboxRequest,
  answer?: InboxAnswer,
): Promise<PendingApproval> {
  const standing = answer ?? (await inbox.answerOf(request.id));
  const approved = standing?.status === 'approved';
  const [approvedBy, executed, refusedBy, now] = await Promise.all([
    inbox.approvalsOf(request.id),
    standing === undefined || standing.status === 'withdrawn'
      ? false
      : ledger?.outcomeOf?.(request.id).then((outcome) => outcome !== undefined),
    // an approval the resume refused for good (an edit the tool's schema rejects), as the ledger keeps it
    approved ? ledger?.refusedBy?.(request.id) : undefined,
    ledger?.now?.() ?? Date.now(),
  ]);
  return pendingApprovalOf(request, { answer: standing, approvedBy, executed: executed === true, refusedBy, now, forPeople });
}
