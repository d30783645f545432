import type {
  AssistantModelMessage,
  ModelMessage,
  ToolApprovalRequest,
  ToolApprovalResponse,
  ToolCallPart,
  ToolModelMessage,
  ToolResultPart,
} from 'ai';
import type { ToolCallInfo } from '../actions/intervention-events.ts';
import { type ApprovalRemember, isTypedAnswer, readApprovalAnswer } from '../client/approval-answer.ts';
import type { Wording } from '../handlers/wording.ts';
import { findApprovalRequest, findToolCall, type PartAt } from './find-in-history.ts';

/** A typed answer of the input's last message, as the person gave it. */
export interface TypedAnswer {
  readonly approved: boolean;
  readonly reason: string | undefined;
  readonly remember: ApprovalRemember;
  /** The arguments the person approved, and the model's they replace. */
  readonly edit: AnswerEdit | undefined;
  /** Why the answer could not be read (it then counts as a refusal). */
  readonly problem: string | undefined;
}

/** A person's edit of a call's arguments. */
export interface AnswerEdit {
  readonly value: unknown;
  /** The model's arguments. */
  readonly original: unknown;
}

/**
 * Where a person's edit is checked, written and signed: the tool call, the
 * approval request and the response, as fresh objects of the decoded
 * history (the caller's messages are never changed). Until it is checked,
 * the call holds the edited arguments with the original signature and no
 * schema input, so an unchecked edit never passes the SDK's signature check
 * (and is validated by the SDK against the tool's schema).
 */
export interface EditTarget {
  readonly approvalId: string;
  readonly edit: AnswerEdit;
  readonly call: ToolCallPart;
  readonly request: ToolApprovalRequest;
  readonly response: ToolApprovalResponse;
}

/** The input history with typed answers decoded. */
export interface DecodedAnswers {
  readonly messages: readonly ModelMessage[];
  /** The typed answers of the last message, by approval id. */
  readonly answers: ReadonlyMap<string, TypedAnswer>;
  /** The edits of the last message's approvals, to check, write and sign before the SDK reads the history. */
  readonly edits: readonly EditTarget[];
}

type Content = ToolModelMessage['content'];
type AssistantParts = Exclude<AssistantModelMessage['content'], string>;

/** Whether any approval response or denied result of the history holds a typed answer (plain loops: every request is read). */
export function hasTypedAnswers(messages: readonly ModelMessage[]): boolean {
  for (const message of messages) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) if (isTypedAnswer(encodedText(part))) return true;
  }
  return false;
}

/**
 * Decodes the typed answers (`approvalAnswer`) of a history, so neither the
 * SDK, nor a tool, nor the model reads the encoding:
 *
 * - a refusal's reason becomes `wording.rejectedCall` with the person's
 *   reason (the SDK sends it to the model as the call's `execution-denied`
 *   reason); an approval's becomes the person's plain reason;
 * - a denied result that carries an answer (a UI message's `output-denied`
 *   part, converted back) reads the same way;
 * - an answer that cannot be read counts as a refusal: an approval the
 *   runtime cannot read never runs anything (the model reads that it was
 *   blocked, and why);
 * - an edit of an earlier turn whose call ran is written into that call, so
 *   the history shows the arguments that ran; the last message's edits are
 *   returned as {@link EditTarget}s, to be checked first.
 *
 * A plain response (no prefix) is left exactly as it is.
 */
export function decodeAnswers(messages: readonly ModelMessage[], wording: Wording): DecodedAnswers {
  const answers = new Map<string, TypedAnswer>();
  const edits: EditTarget[] = [];
  if (!hasTypedAnswers(messages)) return { messages, answers, edits };

  const history = [...messages];
  const last = history.length - 1;
  const copied = new Set<number>();
  /** A message the decoding changes, copied once (with its content array). */
  const editable: Editable = <M extends ModelMessage>(index: number) => {
    const message = history[index] as M & { content: unknown[] };
    if (copied.has(index)) return message;
    copied.add(index);
    const copy = { ...message, content: [...message.content] };
    history[index] = copy;
    return copy;
  };

  history.forEach((message, index) => {
    if (message.role !== 'tool') return;
    message.content.forEach((part, position) => {
      if (part.type === 'tool-approval-response' && isTypedAnswer(part.reason)) {
        const located = locate(history, part.approvalId, index);
        const toolCall = located?.call ?? { toolCallId: located?.request.toolCallId ?? 'unknown', toolName: 'unknown', input: undefined };
        const read = readApprovalAnswer(part.reason, part.approved);
        const answer: TypedAnswer =
          read.type === 'answer'
            ? {
                ...read.answer,
                edit: read.answer.input === undefined ? undefined : { value: read.answer.input.value, original: located?.callPart.input },
                problem: undefined,
              }
            : {
                approved: part.approved,
                reason: undefined,
                remember: 'once',
                edit: undefined,
                problem: read.type === 'malformed' ? read.problem : 'not a typed answer',
              };
        const response: ToolApprovalResponse = { ...part };
        delete response.reason;
        if (answer.problem !== undefined && answer.approved) {
          // an approval nobody can read runs nothing
          response.approved = false;
          response.reason = wording.deniedToolCall({ toolCall, reason: unreadable(answer.problem), handler: ANSWER_HANDLER });
        } else if (!answer.approved) {
          response.reason = wording.rejectedCall({ toolCall, reason: answer.reason });
        } else if (answer.reason !== undefined) {
          response.reason = answer.reason;
        }
        (editable<ToolModelMessage>(index).content as Content)[position] = response;
        if (index === last) {
          answers.set(part.approvalId, answer);
          if (answer.edit !== undefined && located !== undefined && response.approved) {
            edits.push(editTarget(editable, located, part.approvalId, answer.edit, response));
          }
        } else if (answer.edit !== undefined && located !== undefined && ran(history, located)) {
          // the call ran with the edited arguments: the history shows them
          const assistant = editable<AssistantModelMessage>(located.callAt.message);
          (assistant.content as AssistantParts)[located.callAt.part] = { ...located.callPart, input: answer.edit.value };
        }
      } else if (part.type === 'tool-result' && isTypedAnswer(encodedText(part))) {
        const call = findToolCall(history, part.toolCallId, index);
        const toolCall = { toolCallId: part.toolCallId, toolName: part.toolName, input: call?.call.input };
        const text = deniedText(encodedText(part) ?? '', toolCall, wording);
        const output: ToolResultPart['output'] =
          part.output.type === 'execution-denied'
            ? { ...part.output, reason: text }
            : ({ ...part.output, value: text } as ToolResultPart['output']);
        (editable<ToolModelMessage>(index).content as Content)[position] = { ...part, output };
      }
    });
  });
  return { messages: history, answers, edits };
}

/** The handler name records give a typed answer the runtime could not read. */
export const ANSWER_HANDLER = 'approval-answer';

/** The deny reason of an approval the runtime could not read. */
export function unreadable(problem: string): string {
  return `The approval answer could not be read (${problem}), so the call was not executed.`;
}

/** The text the model reads for a denied result that carries an answer. */
export function deniedText(encoded: string, toolCall: ToolCallInfo, wording: Wording): string {
  const read = readApprovalAnswer(encoded);
  if (read.type === 'answer' && read.answer.approved) return read.answer.reason ?? 'Tool call execution denied.';
  return wording.rejectedCall({ toolCall, reason: read.type === 'answer' ? read.answer.reason : undefined });
}

/** The text of an approval response or a denied tool result, where a typed answer may travel. */
function encodedText(part: Content[number]): string | undefined {
  if (part.type === 'tool-approval-response') return part.reason;
  if (part.output.type === 'execution-denied') return part.output.reason;
  if (part.output.type === 'error-text') return part.output.value;
  return undefined;
}

interface Located {
  readonly request: ToolApprovalRequest;
  readonly requestAt: PartAt;
  readonly call: ToolCallInfo | undefined;
  readonly callPart: ToolCallPart;
  readonly callAt: PartAt;
}

/** The request an answer answers (the last one with its id before `before`) and the call it was made for (by position). */
function locate(history: readonly ModelMessage[], approvalId: string, before: number): Located | undefined {
  const found = findApprovalRequest(history, approvalId, before);
  if (found === undefined) return undefined;
  const call = findToolCall(history, found.request.toolCallId, found.at.message + 1);
  if (call === undefined) return undefined;
  return {
    request: found.request,
    requestAt: found.at,
    call: { toolCallId: call.call.toolCallId, toolName: call.call.toolName, input: call.call.input },
    callPart: call.call,
    callAt: call.at,
  };
}

/** Whether the call has a result after it that is not a denial (it ran). */
function ran(history: readonly ModelMessage[], located: Located): boolean {
  return history
    .slice(located.callAt.message + 1)
    .some(
      (message) =>
        message.role === 'tool' &&
        message.content.some(
          (part) =>
            part.type === 'tool-result' &&
            part.toolCallId === located.callPart.toolCallId &&
            part.output.type !== 'execution-denied' &&
            !isTypedAnswer(encodedText(part)),
        ),
    );
}

type Editable = <M extends ModelMessage>(index: number) => M & { content: unknown[] };

function editTarget(
  editable: Editable,
  located: Located,
  approvalId: string,
  edit: AnswerEdit,
  response: ToolApprovalResponse,
): EditTarget {
  const callMessage = editable<AssistantModelMessage>(located.callAt.message).content as AssistantParts;
  const call = { ...located.callPart, input: edit.value };
  callMessage[located.callAt.part] = call;
  const requestMessage = editable<AssistantModelMessage>(located.requestAt.message).content as AssistantParts;
  const request = { ...located.request };
  delete request.inputSchemaInput;
  requestMessage[located.requestAt.part] = request;
  return { approvalId, edit, call, request, response };
}
