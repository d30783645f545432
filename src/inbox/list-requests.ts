import { signAnswerToken } from './answer-token.ts';
import type { ApprovalInbox } from './approval-inbox.ts';
import { type AskedRequest, inboxRequestOf } from './inbox-request-of.ts';
import { notifyInbox } from './notify-inbox.ts';
import type { PendingApproval } from './pending-approval.ts';
import { pendingApprovalOf } from './pending-approval-of.ts';

/** How long an answer token of a request without an expiry is good for: as long as the default inbox keeps it. */
const TOKEN_MS = 7 * 24 * 60 * 60_000;

/**
 * Puts the requests a run made in its inbox, each under its approval id,
 * before the request reaches anyone (the stream part, the step's readers
 * wait for it), and tells the app (`notify`, `'created'`) with a token for
 * each person it asks to answer.
 */
export async function listRequests(
  {
    inbox,
    forPeople,
    runtimeSecret,
  }: {
    readonly inbox?: ApprovalInbox | undefined;
    readonly forPeople?: ((text: string) => string) | undefined;
    readonly runtimeSecret: string | Uint8Array;
  },
  made: readonly AskedRequest[],
): Promise<void> {
  if (inbox === undefined) return;
  for (const asked of made) {
    const request = inboxRequestOf(asked, forPeople);
    await inbox.put(request);
    if (inbox.notify === undefined) continue;
    const shown = pendingApprovalOf(request, { answer: undefined, approvedBy: [], executed: false, now: request.askedAt, forPeople });
    const expiresAt = request.expiresAt ?? request.askedAt + TOKEN_MS;
    await notifyInbox(inbox, {
      type: 'created',
      request: shown,
      summary: summaryOf(shown),
      answerToken: (person) => signAnswerToken(runtimeSecret, { id: request.id, person: { ...person }, expiresAt }),
    });
  }
}

/** A request in one sentence: who asks to run what and who may answer, or who answered it (under a quorum: the approvals so far). */
export function summaryOf(request: PendingApproval): string {
  const who = request.askedBy ?? 'Someone';
  const prompt = request.prompt === undefined ? '' : ` (${request.prompt})`;
  const answer =
    request.mayAnswer === undefined ? '' : ` It needs ${request.mayAnswer}${request.quorum > 1 ? `, ${request.quorum} approvals` : ''}.`;
  const { approvedBy, quorum } = request;
  switch (request.status) {
    case 'pending':
      // an approval counted under a quorum: the request waits for more
      if (approvedBy.length > 0) {
        const count = `${approvedBy.length} of ${quorum} approvals, ${quorum - approvedBy.length} more needed`;
        return `${names(approvedBy)} approved ${who}'s call to ${request.toolName}: ${count}.`;
      }
      return `${who} asks to run ${request.toolName}${prompt}.${answer}`;
    case 'approved':
    case 'executed':
      return `${approvedBy.length > 1 ? names(approvedBy) : (request.answeredBy ?? 'Someone')} approved ${who}'s call to ${request.toolName}.`;
    case 'refused':
      return `${request.answeredBy ?? 'Someone'} refused ${who}'s call to ${request.toolName}${request.reason === undefined ? '' : `: ${request.reason}`}.`;
    case 'expired':
      return `${who}'s request to run ${request.toolName} expired unanswered.`;
    case 'withdrawn':
      return `${who}'s request to run ${request.toolName} was withdrawn.`;
    default:
      return assertNever(request.status);
  }
}

/** People named in a sentence: "bob", "bob and carol", "bob, carol and dan". */
function names(people: readonly string[]): string {
  return people.length <= 1 ? people.join('') : `${people.slice(0, -1).join(', ')} and ${people.at(-1)}`;
}

function assertNever(value: never): never {
  throw new TypeError(`Unknown status ${String(value)}.`);
}
