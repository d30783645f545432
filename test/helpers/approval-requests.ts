import type { ModelMessage } from 'ai';

/** A tool approval request as a result's content carries it. */
export interface ApprovalRequestPart {
  readonly type: 'tool-approval-request';
  readonly approvalId: string;
  readonly reason?: string;
  readonly isAutomatic?: boolean;
  readonly toolCall: { readonly toolCallId: string; readonly toolName: string; readonly input: unknown };
}

/** The approval requests asked of a human (not the SDK's automatic ones) in a result's content. */
export function approvalRequests(content: ReadonlyArray<{ readonly type: string }>): ApprovalRequestPart[] {
  return content.filter(
    (part): part is ApprovalRequestPart =>
      part.type === 'tool-approval-request' && (part as { readonly isAutomatic?: boolean }).isAutomatic !== true,
  );
}

/** The history resuming a paused turn: the input, the turn's response messages, and the tool message answering `response`. */
export function answeredHistory(
  history: readonly ModelMessage[],
  responseMessages: readonly ModelMessage[],
  response: { readonly id: string; readonly approved: boolean; readonly reason?: string | undefined },
): ModelMessage[] {
  const { id, approved, reason } = response;
  return [
    ...history,
    ...responseMessages,
    { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: id, approved, ...(reason === undefined ? {} : { reason }) }] },
  ];
}
