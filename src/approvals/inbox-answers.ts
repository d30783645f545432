import { userIdOf } from '../actions/user-id-of.ts';
import type { ResumedApproval } from '../answers/read-resume.ts';
import { stableJson } from '../data/stable-json.ts';
import { answerBy, changeInInbox, closedReason } from '../inbox/close-in-inbox.ts';
import type { PendingApproval } from '../inbox/pending-approval.ts';
import type { ApprovalState } from './approval-state.ts';
import { APPROVERS_HANDLER, answererOf, EXPIRY_HANDLER, type SettledAnswer, type SettledRefusal } from './settle-answer.ts';

/**
 * The answers the inbox admitted before this request (see
 * `interventions.inbox`): each is admitted again as the person's who gave
 * it, in time (its expiry was judged when it was given): an approval, for
 * exactly the arguments its giver approved; a refusal. Whatever else the
 * inbox closed a request with (a withdrawal, an expiry) is final exactly
 * where an answer in the chat would be: the ledger keeps it.
 */
export async function takeInboxAnswers(state: ApprovalState): Promise<void> {
  for (const answer of state.resume.answers) {
    const closed = await state.inbox?.answerOf(answer.approvalId);
    if (closed?.context === undefined) continue;
    // other arguments than its giver approved are the sender's own answer
    const approval = closed.status === 'approved' && answer.approved && sameJson(answer.edit?.value, closed.edit?.value);
    // a refusal the inbox admitted is its giver's, not the person's whose request carries it
    // (the refusal `inbox.resume` wrote into the asker's own history: anyone else's refusal in the chat is theirs)
    const refusal =
      closed.status === 'refused' && !answer.approved && answer.reason === closedReason(closed) && (await sentByAsker(state, answer));
    if (approval || refusal) state.fromInbox?.set(answer.approvalId, closed.context);
  }
}

/** Whether the request carrying an answer is the asker's own (their resume), as the inbox kept who asked. */
async function sentByAsker(state: ApprovalState, answer: ResumedApproval): Promise<boolean> {
  const askedBy = (await state.inbox?.get(answer.approvalId))?.askedBy;
  return askedBy !== undefined && askedBy === userIdOf(state.approver);
}

function sameJson(first: unknown, second: unknown): boolean {
  if (first === undefined || second === undefined) return first === second;
  try {
    return stableJson(first) === stableJson(second);
  } catch {
    return false;
  }
}

/** What an answer given in the chat did to its request in the inbox (one the inbox admitted is there already). */
export async function noteInInbox(
  state: ApprovalState,
  approval: ResumedApproval,
  settled: SettledAnswer | SettledRefusal,
): Promise<PendingApproval | undefined> {
  if (state.inbox === undefined || state.fromInbox?.has(approval.approvalId) === true) return undefined;
  const person = answererOf(state, approval);
  const at = Date.now();
  const edit = approval.edit === undefined ? undefined : { value: approval.input };
  const reason = approval.reason;
  if (settled.type === 'approved') {
    return changeInInbox(state, approval.approvalId, { type: 'close', answer: answerBy('approved', person, at, { reason, edit }) });
  }
  if (settled.type === 'held' && settled.approvedBy !== undefined) {
    return changeInInbox(state, approval.approvalId, { type: 'count', approvedBy: settled.approvedBy });
  }
  if (settled.type !== 'refused') return undefined;
  const status = 'status' in settled ? settled.status : settled.handler === EXPIRY_HANDLER ? 'expired' : undefined;
  if (status === undefined) return undefined;
  return changeInInbox(state, approval.approvalId, { type: 'close', answer: answerBy(status, person, at, { reason }) });
}

/** An approval the inbox's first answer outran, recorded: what the model reads of it (who closed the request). */
export async function closedFirst(state: ApprovalState, approval: ResumedApproval, standing: PendingApproval): Promise<string> {
  const how = `was ${standing.status} first${standing.answeredBy === undefined ? '' : ` by ${standing.answeredBy}`}`;
  await state.record(
    {
      handler: APPROVERS_HANDLER,
      lifecycle: 'beforeToolCall',
      action: 'deny',
      reason: `the request ${how}, which stands: this approval counts for nothing, and nothing was run`,
      display: `This request ${how}. Nothing was run.`,
      enforced: true,
      mode: 'enforce',
      durationMs: 0,
      toolCallId: approval.toolCallId,
      toolName: approval.toolName,
      approval: {
        status: standing.status === 'expired' ? 'expired' : 'refused',
        ...(standing.answeredBy === undefined ? {} : { answeredBy: standing.answeredBy }),
      },
    },
    approval.input,
  );
  return `The call to "${approval.toolName}" was not executed: the request ${how}. Do not call it again unless the user asks.`;
}
