import type { ModelMessage } from 'ai';

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
 * runtime took itself), or a call that already has its result. Left in, the
 * SDK would append a second result for that call and the next provider
 * request would be invalid. Responses to unknown approval ids are kept: the
 * SDK rejects those itself.
 */
export function dropStaleApprovals(messages: readonly ModelMessage[]): {
  readonly messages: readonly ModelMessage[];
  readonly dropped: readonly DroppedApproval[];
} {
  const last = messages.at(-1);
  if (last?.role !== 'tool' || !last.content.some((part) => part.type === 'tool-approval-response')) {
    return { messages, dropped: [] };
  }
  const requests = new Map<string, { readonly toolCallId: string; readonly automatic: boolean }>();
  const toolNames = new Map<string, string>();
  const answered = new Set<string>();
  for (const message of messages.slice(0, -1)) {
    if (typeof message.content === 'string') continue;
    for (const part of message.content) {
      if (part.type === 'tool-approval-request') {
        requests.set(part.approvalId, { toolCallId: part.toolCallId, automatic: part.isAutomatic === true });
      } else if (part.type === 'tool-call') {
        toolNames.set(part.toolCallId, part.toolName);
      } else if (part.type === 'tool-result') {
        answered.add(part.toolCallId);
      }
    }
  }
  const dropped: DroppedApproval[] = [];
  const content = last.content.filter((part) => {
    if (part.type !== 'tool-approval-response') return true;
    const request = requests.get(part.approvalId);
    if (request === undefined) return true;
    const reason = request.automatic
      ? 'the approval request was an automatic decision, not a question to a human'
      : answered.has(request.toolCallId)
        ? 'the call already has its result'
        : undefined;
    if (reason === undefined) return true;
    dropped.push({
      approvalId: part.approvalId,
      toolCallId: request.toolCallId,
      toolName: toolNames.get(request.toolCallId) ?? 'unknown',
      reason,
    });
    return false;
  });
  if (dropped.length === 0) return { messages, dropped };
  const rest = messages.slice(0, -1);
  return { messages: content.length > 0 ? [...rest, { ...last, content }] : rest, dropped };
}
