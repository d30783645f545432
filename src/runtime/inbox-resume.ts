import type { ModelMessage, ToolApprovalResponse } from 'ai';
import { openPinWithKeys } from '../approvals/take-answers.ts';
import { approvalAnswer } from '../client/approval-answer.ts';
import type { InboxDeps } from './inbox-deps.ts';
import { observe, stateFor, withdrawAs } from './inbox-work.ts';

/**
 * A conversation's history with the answers the inbox holds for its
 * unanswered requests written in (see `InterventionsInbox.resume`).
 */
export async function resume(deps: InboxDeps, messages: readonly ModelMessage[]): Promise<ModelMessage[]> {
  const unanswered = unansweredRequests(messages);
  const copy = [...messages];
  if (unanswered.length === 0) return copy;
  const last = messages.at(-1);
  const snapshot = deps.snapshot();
  if (last?.role === 'user') {
    // the conversation moved on: its unanswered requests are withdrawn
    for (const id of unanswered) {
      const request = await deps.inbox.get(id);
      if (request === undefined || (await observe(deps, request)).status !== 'pending') continue;
      // as the person who asked withdraws it (admitted as in the chat: final where the rules bind people)
      const state = stateFor(deps, snapshot, {});
      const call = { toolCallId: request.toolCallId, toolName: request.toolName, input: request.callInput };
      const pin = await openPinWithKeys(state, request.pin, call);
      if (pin !== undefined) await withdrawAs(deps, request, pin.asker, 'a new message in the conversation');
    }
    return copy;
  }
  const responses: ToolApprovalResponse[] = [];
  for (const id of unanswered) {
    const request = await deps.inbox.get(id);
    if (request === undefined) continue;
    const shown = await observe(deps, request);
    const closed = await deps.inbox.answerOf(id);
    if (closed === undefined || shown.status === 'pending') continue;
    if (closed.status === 'approved') {
      const typed = approvalAnswer({ id, approved: true, ...(closed.edit === undefined ? {} : { input: closed.edit.value }) });
      responses.push({ type: 'tool-approval-response', approvalId: id, approved: true, reason: typed.reason });
    } else {
      const reason =
        closed.reason ?? (closed.status === 'expired' ? 'The request expired unanswered.' : `The request was ${closed.status}.`);
      const typed = approvalAnswer({ id, approved: false, reason });
      responses.push({ type: 'tool-approval-response', approvalId: id, approved: false, reason: typed.reason });
    }
  }
  if (responses.length === 0) return copy;
  if (last?.role === 'tool') copy[copy.length - 1] = { ...last, content: [...last.content, ...responses] };
  else copy.push({ role: 'tool', content: responses });
  return copy;
}

/** The approval ids of the requests of a history that have no answer and no result yet. */
function unansweredRequests(messages: readonly ModelMessage[]): string[] {
  const requests = new Map<string, string>();
  const done = new Set<string>();
  for (const message of messages) {
    if (typeof message.content === 'string') continue;
    for (const part of message.content) {
      if (part.type === 'tool-approval-request') requests.set(part.approvalId, part.toolCallId);
      else if (part.type === 'tool-approval-response') done.add(part.approvalId);
      else if (part.type === 'tool-result') done.add(`call:${part.toolCallId}`);
    }
  }
  return [...requests].filter(([id, call]) => !done.has(id) && !done.has(`call:${call}`)).map(([id]) => id);
}
