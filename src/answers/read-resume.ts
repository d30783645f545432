import type { ModelMessage } from 'ai';
import type { ApprovalAnswerInfo, ToolCallInfo } from '../actions/intervention-events.ts';
import type { ApprovalRemember } from '../client/approval-answer.ts';
import type { Wording } from '../handlers/wording.ts';
import { type AnswerEdit, decodeAnswers, type EditTarget, type TypedAnswer } from './decode-answers.ts';
import { type DroppedApproval, dropStaleApprovals } from './drop-stale-approvals.ts';
import { countToolCalls, findApprovalRequest, findToolCall } from './find-in-history.ts';

/**
 * A call the input history answers (approves or refuses), with the person's
 * answer: a plain `tool-approval-response`, or a typed one
 * (`approvalAnswer`), decoded. `input` is the call's arguments in the
 * history: the person's edit once it has been checked and written there.
 */
export interface ResumedApproval extends ToolCallInfo {
  readonly approvalId: string;
  /** What the person answered (an answer the runtime could not read is a refusal). */
  readonly approved: boolean;
  /** Their reason, in their words (decoded from a typed answer). */
  readonly reason: string | undefined;
  /** What they asked to remember: `'once'` for a plain response. */
  readonly remember: ApprovalRemember;
  /** Whether the answer was typed (`approvalAnswer`) rather than a plain response. */
  readonly typed: boolean;
  /** The arguments they approved instead of the model's (a typed approval). */
  readonly edit: AnswerEdit | undefined;
  /** Why the typed answer could not be read, if it could not. */
  readonly problem: string | undefined;
  /**
   * Whether the call's message holds another tool call with its id (a
   * provider repeated it, and the SDK's history keeps both): an answer that
   * cannot be told to be this call's approves no call.
   */
  readonly shared: boolean;
}

/** What a run's input resumes. */
export interface Resume {
  /** The input messages, with the approval responses that answer nothing dropped and typed answers decoded. */
  readonly messages: readonly ModelMessage[];
  /** Whether `messages` differ from the input (the SDK must be given them instead). */
  readonly rewritten: boolean;
  readonly dropped: readonly DroppedApproval[];
  /** Calls approved in the last (tool) message, by call id: they are re-checked, not re-asked. */
  readonly approved: Map<string, ResumedApproval>;
  /** Calls refused in the last (tool) message (or refused by the runtime for the person: an edit that is not valid), by call id. */
  readonly refused: Map<string, ResumedApproval>;
  /** Every answer of the last (tool) message, as the person gave it, in order. */
  readonly answers: readonly ResumedApproval[];
  /** The edits of approved calls, to check, write and sign before the SDK reads the history. */
  readonly edits: readonly EditTarget[];
  /**
   * The approvals (by id) whose request the runtime's secret does not
   * verify: the app's own approvals (never signed), or a confirm's answer
   * that was changed, forged or made before a restart. They answer no
   * handler's `confirm` (see `checkApprovals`).
   */
  readonly unverified: Set<string>;
}

/** Reads what a request's history resumes. */
export function readResume(given: readonly ModelMessage[], wording: Wording): Resume {
  const stale = dropStaleApprovals(given);
  const { messages, answers: typed, edits } = decodeAnswers(stale.messages, wording);
  const rewritten = messages !== given;
  const last = messages.at(-1);
  if (last?.role !== 'tool' || !last.content.some((part) => part.type === 'tool-approval-response')) {
    return {
      messages,
      rewritten,
      dropped: stale.dropped,
      approved: new Map(),
      refused: new Map(),
      answers: [],
      edits,
      unverified: new Set(),
    };
  }
  const answers = answeredCalls(messages, typed);
  const byDecision = (approved: boolean) =>
    new Map(answers.filter((answer) => answer.decided === approved).map(({ approval }) => [approval.toolCallId, approval]));
  return {
    messages,
    rewritten,
    dropped: stale.dropped,
    approved: byDecision(true),
    refused: byDecision(false),
    answers: answers.map(({ approval }) => approval),
    edits,
    unverified: new Set(),
  };
}

/**
 * The calls the approval responses of the last (tool) message answer, in
 * order, one per call, with what the response decides now (`decided`: an
 * approval the runtime cannot read is a refusal). Each answer is matched to
 * its request by approval id, and the request to the call it was made for
 * by position (the nearest call with that id at or before the request), so
 * a provider that reuses call ids across turns (`call_0` every turn)
 * resumes the right call.
 */
function answeredCalls(
  messages: readonly ModelMessage[],
  typed: ReadonlyMap<string, TypedAnswer>,
): Array<{ readonly approval: ResumedApproval; readonly decided: boolean }> {
  const answers: Array<{ approval: ResumedApproval; decided: boolean }> = [];
  const seen = new Set<string>();
  const last = messages.at(-1);
  if (last?.role !== 'tool') return answers;
  for (const part of last.content) {
    if (part.type !== 'tool-approval-response') continue;
    const found = findApprovalRequest(messages, part.approvalId);
    if (found === undefined) continue;
    const located = findToolCall(messages, found.request.toolCallId, found.at.message + 1);
    const call = located?.call;
    if (located === undefined || call === undefined || seen.has(call.toolCallId)) continue;
    seen.add(call.toolCallId);
    const answer = typed.get(part.approvalId);
    answers.push({
      decided: part.approved,
      approval: {
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        input: call.input,
        approvalId: part.approvalId,
        approved: answer?.approved ?? part.approved,
        reason: answer === undefined ? part.reason : answer.reason,
        remember: answer?.remember ?? 'once',
        typed: answer !== undefined,
        edit: answer?.edit,
        problem: answer?.problem,
        shared: countToolCalls(messages[located.at.message], call.toolCallId) > 1,
      },
    });
  }
  return answers;
}

/** A resumed answer, as handlers read it. */
export function answerInfo(approval: ResumedApproval): ApprovalAnswerInfo {
  const { approvalId, reason, remember, typed, edit } = approval;
  return { approvalId, reason, remember, typed, edited: edit === undefined ? undefined : { input: edit.value, original: edit.original } };
}
