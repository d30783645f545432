import type { ModelMessage } from 'ai';

/**
 * Drops tool results (and approval responses) whose tool call is no longer
 * in the history, e.g. after a sliding window cut the assistant message that
 * made the call: providers reject such a history. Returns `messages` itself
 * when nothing had to go.
 */
export function keepToolPairs(messages: ModelMessage[]): ModelMessage[] {
  const calls = new Set<string>();
  const approvals = new Set<string>();
  let changed = false;
  const kept: ModelMessage[] = [];
  for (const message of messages) {
    if (message.role === 'assistant' && typeof message.content !== 'string') {
      for (const part of message.content) {
        if (part.type === 'tool-call') calls.add(part.toolCallId);
        if (part.type === 'tool-approval-request') approvals.add(part.approvalId);
      }
    }
    if (message.role !== 'tool') {
      kept.push(message);
      continue;
    }
    const content = message.content.filter((part) =>
      part.type === 'tool-result' ? calls.has(part.toolCallId) : approvals.has(part.approvalId),
    );
    if (content.length !== message.content.length) changed = true;
    if (content.length > 0) kept.push(content.length === message.content.length ? message : { ...message, content });
  }
  return changed ? kept : messages;
}
