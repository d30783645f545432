import type { AssistantModelMessage, ModelMessage } from 'ai';
import type { ToolCallInfo } from '../handlers/intervention-events.ts';
import { userMessage } from '../util/user-message.ts';
import { dropStaleApprovals, type DroppedApproval } from './drop-stale-approvals.ts';

/** A call the input history answers (approves or refuses), with the human's reason. */
export interface ResumedApproval extends ToolCallInfo {
  readonly approvalId: string;
  readonly reason: string | undefined;
}

/** What a run's input resumes. */
export interface Resume {
  /** The input messages, with the approval responses that answer nothing dropped. */
  readonly messages: readonly ModelMessage[];
  readonly dropped: readonly DroppedApproval[];
  /** Calls approved in the last (tool) message, by call id: they are re-checked, not re-asked. */
  readonly approved: ReadonlyMap<string, ResumedApproval>;
  /** Calls refused in the last (tool) message, by call id. */
  readonly refused: ReadonlyMap<string, ResumedApproval>;
}

const NOTHING: ReadonlyMap<string, ResumedApproval> = new Map();

/** Reads what the input of a run resumes. */
export function readResume(input: {
  readonly prompt?: string | ModelMessage[] | undefined;
  readonly messages?: ModelMessage[] | undefined;
}): Resume {
  const given = input.messages ?? (typeof input.prompt === 'string' ? [userMessage(input.prompt)] : (input.prompt ?? []));
  const { messages, dropped } = dropStaleApprovals(given);
  const last = messages.at(-1);
  if (last?.role !== 'tool' || !last.content.some((part) => part.type === 'tool-approval-response')) {
    return { messages, dropped, approved: NOTHING, refused: NOTHING };
  }
  return { messages, dropped, approved: answeredCalls(messages, true), refused: answeredCalls(messages, false) };
}

/**
 * The calls the approval responses of the last (tool) message answer, by
 * call id. Each answer is matched to its request by approval id, and the
 * request to the call it was made for by position (the nearest call with
 * that id at or before the request), so a provider that reuses call ids
 * across turns (`call_0` every turn) resumes the right call.
 */
function answeredCalls(messages: readonly ModelMessage[], approved: boolean): ReadonlyMap<string, ResumedApproval> {
  const calls = new Map<string, ResumedApproval>();
  const last = messages.at(-1);
  if (last?.role !== 'tool') return calls;
  for (const part of last.content) {
    if (part.type !== 'tool-approval-response' || part.approved !== approved) continue;
    const found = findApprovalRequest(messages, part.approvalId);
    if (found === undefined) continue;
    const call = findToolCall(messages, found.toolCallId, found.index);
    if (call === undefined || calls.has(call.toolCallId)) continue;
    calls.set(call.toolCallId, {
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      input: call.input,
      approvalId: part.approvalId,
      reason: part.reason,
    });
  }
  return calls;
}

/** The last request with `approvalId`, and the index of its message. */
export function findApprovalRequest(
  messages: readonly ModelMessage[],
  approvalId: string,
): { readonly index: number; readonly toolCallId: string; readonly isAutomatic: boolean } | undefined {
  for (let index = messages.length - 1; index >= 0; index--) {
    const content = assistantContent(messages[index]);
    const request = content?.findLast((part) => part.type === 'tool-approval-request' && part.approvalId === approvalId);
    if (request?.type === 'tool-approval-request') {
      return { index, toolCallId: request.toolCallId, isAutomatic: request.isAutomatic === true };
    }
  }
  return undefined;
}

/** The nearest call with `toolCallId` at or before message `index`, and the index of its message. */
export function findToolCall(
  messages: readonly ModelMessage[],
  toolCallId: string,
  index: number,
): (ToolCallInfo & { readonly index: number }) | undefined {
  for (let at = Math.min(index, messages.length - 1); at >= 0; at--) {
    const call = assistantContent(messages[at])?.findLast((part) => part.type === 'tool-call' && part.toolCallId === toolCallId);
    if (call?.type === 'tool-call') return { toolCallId, toolName: call.toolName, input: call.input, index: at };
  }
  return undefined;
}

function assistantContent(message: ModelMessage | undefined): Exclude<AssistantModelMessage['content'], string> | undefined {
  return message?.role === 'assistant' && typeof message.content !== 'string' ? message.content : undefined;
}
