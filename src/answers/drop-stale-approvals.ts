import type { ModelMessage } from 'ai';
import { findApprovalRequest, findToolCall } from './find-in-history.ts';

/** An approval response that was dropped, and why. */
export interface DroppedApproval {
  readonly approvalId: string;
  readonly toolCallId: string;
  readonly toolName: string;
  readonly reason: string;
}

/**
 * Drops the approval responses of the last (tool) message that answer
 * nothing a human may answer: an automatic approval request (a decision the
 * runtime took itself), or a call that already has its result (a result
 * after the call's own message: providers may reuse call ids across turns).
 * Left in, the SDK would append a second result for that call and the next
 * provider request would be invalid. Responses to unknown approval ids are
 * kept: the SDK rejects those itself.
 */
export function dropStaleApprovals(messages: readonly ModelMessage[]): {
  readonly messages: readonly ModelMessage[];
  readonly dropped: readonly DroppedApproval[];
} {
  const last = messages.at(-1);
  if (last?.role !== 'tool' || !last.content.some((part) => part.type === 'tool-approval-response')) {
    return { messages, dropped: [] };
  }
  const history = messages.slice(0, -1);
  const dropped: DroppedApproval[] = [];
  const content = last.content.filter((part) => {
    if (part.type !== 'tool-approval-response') return true;
    const found = findApprovalRequest(history, part.approvalId);
    if (found === undefined) return true;
    const { request } = found;
    const call = findToolCall(history, request.toolCallId, found.at.message + 1);
    const reason =
      request.isAutomatic === true
        ? 'the approval request was an automatic decision, not a question to a human'
        : call !== undefined && hasResultAfter(history, call.call.toolCallId, call.at.message)
          ? 'the call already has its result'
          : undefined;
    if (reason === undefined) return true;
    dropped.push({
      approvalId: part.approvalId,
      toolCallId: request.toolCallId,
      toolName: call?.call.toolName ?? 'unknown',
      reason,
    });
    return false;
  });
  if (dropped.length === 0) return { messages, dropped };
  return { messages: content.length > 0 ? [...history, { ...last, content }] : history, dropped };
}

function hasResultAfter(messages: readonly ModelMessage[], toolCallId: string, index: number): boolean {
  return messages
    .slice(index + 1)
    .some(
      (message) => message.role === 'tool' && message.content.some((part) => part.type === 'tool-result' && part.toolCallId === toolCallId),
    );
}
