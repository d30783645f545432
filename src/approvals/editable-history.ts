import type { ModelMessage } from 'ai';
import type { ApprovalState } from './approval-state.ts';

/**
 * The history the SDK is given for a run that looks its answers up: the
 * input, with every message that has parts copied (message and content
 * array), so the answers of used approvals can be rewritten in it before the
 * SDK reads them, and the caller's messages are never changed.
 */
export function editableHistory(state: ApprovalState): ModelMessage[] {
  state.history ??= state.resume.messages.map((message) =>
    Array.isArray(message.content) ? ({ ...message, content: [...message.content] } as ModelMessage) : message,
  );
  return state.history;
}
