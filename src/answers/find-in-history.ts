import type { AssistantModelMessage, ModelMessage, ToolApprovalRequest } from 'ai';

type AssistantParts = Exclude<AssistantModelMessage['content'], string>;
type ToolCallPart = Extract<AssistantParts[number], { type: 'tool-call' }>;

/** Where a part sits in a history: its message and its place in that message. */
export interface PartAt {
  readonly message: number;
  readonly part: number;
}

/**
 * The last approval request with `approvalId` in a message before `before`
 * (default: anywhere), and where it sits.
 */
export function findApprovalRequest(
  history: readonly ModelMessage[],
  approvalId: string,
  before = history.length,
): { readonly request: ToolApprovalRequest; readonly at: PartAt } | undefined {
  const found = findLastPart(history, before, (item) => item.type === 'tool-approval-request' && item.approvalId === approvalId);
  return found && { request: found.item as ToolApprovalRequest, at: found.at };
}

/**
 * The nearest call with `toolCallId` in a message before `before` (the call a
 * request was made for, found by position: providers may reuse call ids
 * across turns), and where it sits.
 */
export function findToolCall(
  history: readonly ModelMessage[],
  toolCallId: string,
  before: number,
): { readonly call: ToolCallPart; readonly at: PartAt } | undefined {
  const found = findLastPart(history, before, (item) => item.type === 'tool-call' && item.toolCallId === toolCallId);
  return found && { call: found.item as ToolCallPart, at: found.at };
}

/** How many tool calls with `toolCallId` a message holds. */
export function countToolCalls(message: ModelMessage | undefined, toolCallId: string): number {
  let count = 0;
  for (const part of assistantParts(message) ?? []) if (part.type === 'tool-call' && part.toolCallId === toolCallId) count++;
  return count;
}

/** The parts of an assistant message (`undefined` for any other message, or text content). */
export function assistantParts(message: ModelMessage | undefined): AssistantParts | undefined {
  return message?.role === 'assistant' && typeof message.content !== 'string' ? message.content : undefined;
}

/** The last assistant part matching `matches` in a message before `before`, and where it sits. */
function findLastPart(
  history: readonly ModelMessage[],
  before: number,
  matches: (item: AssistantParts[number]) => boolean,
): { readonly item: AssistantParts[number]; readonly at: PartAt } | undefined {
  for (let message = Math.min(before, history.length) - 1; message >= 0; message--) {
    const content = assistantParts(history[message]);
    const part = content?.findLastIndex(matches) ?? -1;
    const item = content?.[part];
    if (item !== undefined) return { item, at: { message, part } };
  }
  return undefined;
}
