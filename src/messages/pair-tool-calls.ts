import type { ModelMessage, ToolResultPart } from 'ai';

/** A tool call of a history, with what answered it. */
export interface PairedCall {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly input: unknown;
  /** Its result, if the history has one. */
  readonly result: ToolResultPart | undefined;
  /** Whether an approval response refused it (a human, or a handler through an automatic request). */
  readonly refused: boolean;
  /** The reason of the response that refused it, if it gave one. */
  readonly refusal: string | undefined;
}

type Entry = { -readonly [K in keyof PairedCall]: PairedCall[K] };

/**
 * The tool calls of `messages`, in order, each with its result and whether
 * its approval was refused, matched by position rather than by id alone: a
 * result answers the nearest earlier unanswered call with its id, an
 * approval request belongs to the nearest earlier call with its id, and a
 * response to its request. So a provider that reuses call ids (`call_0`
 * every turn) pairs every call with its own answer.
 */
export function pairToolCalls(messages: readonly ModelMessage[]): PairedCall[] {
  const calls: Entry[] = [];
  const latest = new Map<string, Entry>();
  const open = new Map<string, Entry[]>();
  const requests = new Map<string, Entry>();
  const answer = (part: ToolResultPart) => {
    const entry = open.get(part.toolCallId)?.pop();
    if (entry !== undefined) entry.result = part;
  };
  for (const message of messages) {
    if (typeof message.content === 'string') continue;
    for (const part of message.content) {
      switch (part.type) {
        case 'tool-call': {
          const entry: Entry = {
            toolCallId: part.toolCallId,
            toolName: part.toolName,
            input: part.input,
            result: undefined,
            refused: false,
            refusal: undefined,
          };
          calls.push(entry);
          latest.set(part.toolCallId, entry);
          const waiting = open.get(part.toolCallId);
          if (waiting === undefined) open.set(part.toolCallId, [entry]);
          else waiting.push(entry);
          break;
        }
        case 'tool-approval-request': {
          const entry = latest.get(part.toolCallId);
          if (entry !== undefined) requests.set(part.approvalId, entry);
          break;
        }
        case 'tool-approval-response': {
          const entry = requests.get(part.approvalId);
          if (entry !== undefined && !part.approved) {
            entry.refused = true;
            entry.refusal = part.reason;
          }
          break;
        }
        case 'tool-result':
          answer(part);
          break;
        default:
          break;
      }
    }
  }
  return calls;
}
