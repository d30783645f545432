import type { ModelMessage, ToolApprovalResponse, ToolResultPart } from 'ai';
import { openPinWithKeys } from '../approvals/take-answers.ts';
import { approvalAnswer } from '../client/approval-answer.ts';
import { closedReason } from '../inbox/close-in-inbox.ts';
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
    // the conversation moved on: its unanswered requests are withdrawn, and each call gets the result the SDK needs
    // before the new message (a denial saying so), or the next model call would have a call without a result
    for (const { approvalId } of unanswered) {
      const request = await deps.inbox.get(approvalId);
      if (request === undefined || (await observe(deps, request)).status !== 'pending') continue;
      // as the person who asked withdraws it (admitted as in the chat: final where the rules bind people)
      const state = stateFor(deps, snapshot, {});
      const call = { toolCallId: request.toolCallId, toolName: request.toolName, input: request.callInput };
      const pin = await openPinWithKeys(state, request.pin, call);
      if (pin !== undefined) await withdrawAs(deps, request, pin.asker, 'a new message in the conversation');
    }
    return withDenials(copy, unanswered);
  }
  const responses: ToolApprovalResponse[] = [];
  for (const { approvalId: id } of unanswered) {
    const request = await deps.inbox.get(id);
    if (request === undefined) continue;
    const shown = await observe(deps, request);
    const closed = await deps.inbox.answerOf(id);
    if (closed === undefined || shown.status === 'pending') continue;
    if (closed.status === 'approved') {
      const typed = approvalAnswer({ id, approved: true, ...(closed.edit === undefined ? {} : { input: closed.edit.value }) });
      responses.push({ type: 'tool-approval-response', approvalId: id, approved: true, reason: typed.reason });
    } else {
      const reason = closedReason(closed);
      const typed = approvalAnswer({ id, approved: false, reason });
      responses.push({ type: 'tool-approval-response', approvalId: id, approved: false, reason: typed.reason });
    }
  }
  if (responses.length === 0) return copy;
  if (last?.role === 'tool') copy[copy.length - 1] = { ...last, content: [...last.content, ...responses] };
  else copy.push({ role: 'tool', content: responses });
  return copy;
}

/** A request of a history that has no answer and no result yet: its approval id, its call, and the message that holds it. */
interface Unanswered {
  readonly approvalId: string;
  readonly toolCallId: string;
  readonly toolName: string;
  readonly at: number;
}

/** The requests of a history that have no answer and no result yet. */
function unansweredRequests(messages: readonly ModelMessage[]): Unanswered[] {
  const requests: Unanswered[] = [];
  const tools = new Map<string, string>();
  const done = new Set<string>();
  for (const [at, message] of messages.entries()) {
    if (typeof message.content === 'string') continue;
    for (const part of message.content) {
      if (part.type === 'tool-call') tools.set(part.toolCallId, part.toolName);
      else if (part.type === 'tool-approval-request') {
        requests.push({ approvalId: part.approvalId, toolCallId: part.toolCallId, toolName: tools.get(part.toolCallId) ?? '', at });
      } else if (part.type === 'tool-approval-response') done.add(part.approvalId);
      else if (part.type === 'tool-result') done.add(`call:${part.toolCallId}`);
    }
  }
  return requests.filter(({ approvalId, toolCallId }) => !done.has(approvalId) && !done.has(`call:${toolCallId}`));
}

/** The history with a denial as the result of each unanswered call, right after the message that asked it. */
function withDenials(messages: ModelMessage[], unanswered: readonly Unanswered[]): ModelMessage[] {
  const reason = 'The user sent a new message instead of answering the approval request, so the call was not run.';
  for (const { toolCallId, toolName, at } of [...unanswered].sort((first, second) => second.at - first.at)) {
    const result: ToolResultPart = { type: 'tool-result', toolCallId, toolName, output: { type: 'execution-denied', reason } };
    const next = messages[at + 1];
    if (next?.role === 'tool') messages[at + 1] = { ...next, content: [...next.content, result] };
    else messages.splice(at + 1, 0, { role: 'tool', content: [result] });
  }
  return messages;
}
