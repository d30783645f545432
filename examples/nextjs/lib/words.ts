/**
 * What the page says, in plain words, for the person signed in: read from the
 * decisions the server streamed (`data-intervention` parts), never guessed.
 * Who asked, who may answer, who answered are people (by name, or "you");
 * a handler is a rule, named as one, never as a person.
 */
import { APICallError } from 'ai';
import type { InboxAnswerResult, PendingApproval } from 'ai-interventions';
import { approvalOf, canAnswer, type InterventionApprovalData, type InterventionData } from 'ai-interventions/client';
import { type DemoUser, nameOf } from './users';

/** "you", a person's name, or `fallback` when nobody is named. */
export function who(userId: string | undefined, me: DemoUser, fallback = 'someone'): string {
  if (userId === undefined) return fallback;
  return userId === me.userId ? 'you' : nameOf(userId);
}

/** The same, capitalised to start a sentence. */
export function Who(userId: string | undefined, me: DemoUser, fallback = 'someone'): string {
  const name = who(userId, me, fallback);
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** "the rule tool-guard": a handler, never a person. */
export const rule = (handler: string) => `the rule ${handler}`;

/** A request's owner, possessive: "your", "Sam's". */
const whose = (userId: string | undefined, me: DemoUser) => (userId === me.userId ? 'your' : `${who(userId, me)}'s`);

/** Who may answer a pending request, and whether the signed-in person may. */
export interface Answering {
  readonly approval: InterventionApprovalData | undefined;
  /** `false`: not this person; `undefined`: only the server can tell. */
  readonly mayI: boolean | undefined;
  /** "a manager", or "anyone in this chat". */
  readonly whoMay: string;
}

export function answering(decisions: readonly InterventionData[], me: DemoUser): Answering {
  const approval = approvalOf(decisions);
  return { approval, mayI: canAnswer(approval, me), whoMay: approval?.mayAnswer ?? 'anyone in this chat' };
}

/**
 * The remembered approval a call ran under, when it ran without asking: the
 * handler that let it through said why (a `proceed` with a reason), and an
 * earlier answer in this chat, approved "for this chat" or "always", went
 * through the same handler for the same tool.
 */
export function rememberedApproval(
  decision: InterventionData | undefined,
  earlier: readonly InterventionData[],
): { readonly handler: string; readonly by: string | undefined; readonly remember: 'session' | 'always' } | undefined {
  if (decision?.action !== 'proceed' || decision.answer !== undefined) return undefined;
  const said = decision.records.filter((record) => record.action === 'proceed' && record.enforced && record.reason !== undefined);
  for (const record of said) {
    const grant = earlier.findLast(
      (item) =>
        item.toolName === decision.toolName &&
        item.answer?.approved === true &&
        item.answer.remember !== 'once' &&
        item.records.some((other) => other.handler === record.handler),
    );
    if (grant?.answer !== undefined && grant.answer.remember !== 'once') {
      return { handler: record.handler, by: grant.approval?.answeredBy, remember: grant.answer.remember };
    }
  }
  return undefined;
}

/** "for this chat" / "always". */
export const rememberWords = (remember: 'session' | 'always') => (remember === 'session' ? 'for this chat' : 'always');

/** What an edit refused by the tool's schema reads as (the runtime's `approval-edit` rule). */
const EDIT_RULE = 'approval-edit';

/**
 * One decision, as a line of the decision log: what happened to the call, by
 * whom (a person, or a rule), and why.
 */
export function decisionLine(decision: InterventionData, earlier: readonly InterventionData[], me: DemoUser): string {
  const { toolName, action, handler, answer, approval, reason } = decision;
  const because = reason === undefined ? '' : `: ${reason}`;
  if (answer !== undefined) {
    const answerer = who(approval?.answeredBy, me);
    const notes = [
      ...(answer.edited ? ['edited arguments'] : []),
      ...(answer.approved && answer.remember !== 'once' ? [rememberWords(answer.remember)] : []),
      ...(answer.approved && approval?.askedBy !== undefined && approval.askedBy !== approval.answeredBy
        ? [`on ${whose(approval.askedBy, me)} behalf`]
        : []),
    ];
    const noted = notes.length === 0 ? '' : ` (${notes.join(', ')})`;
    if (!answer.approved) return `${toolName} refused by ${answerer}${because}`;
    if (action === 'proceed' || action === 'transform') return `${toolName} approved by ${answerer}${noted}`;
    if (handler === EDIT_RULE) return `${toolName}: ${whose(approval?.answeredBy, me)} edit did not fit the tool, nothing ran${because}`;
    if (action === 'deny') return `${toolName} approved by ${answerer}${noted}, then blocked by ${rule(handler ?? 'a rule')}${because}`;
  }
  switch (action) {
    case 'deny':
      return `${toolName} blocked by ${rule(handler ?? 'a rule')}${because}`;
    case 'guide':
      return `${toolName} sent back to the model by ${rule(handler ?? 'a rule')}${because}`;
    case 'confirm': {
      if (approval?.status === 'not-allowed') {
        return `${toolName}: ${whose(approval.answeredBy, me)} approval did not count, only ${approval.mayAnswer ?? 'someone else'} may approve it`;
      }
      if (approval?.status === 'awaiting-quorum') return `${toolName}: ${reason ?? 'more approvals are needed'}`;
      return `${toolName} asked by ${who(approval?.askedBy, me)}, waiting for ${approval?.mayAnswer ?? 'anyone in this chat'} to approve`;
    }
    default: {
      const remembered = rememberedApproval(decision, earlier);
      if (remembered !== undefined) {
        return `${toolName} allowed without asking: ${who(remembered.by, me, 'someone')} approved it ${rememberWords(remembered.remember)}`;
      }
      // a rule that let it through and said why (an approval remembered in another chat, say)
      const said = decision.records.find((record) => record.action === 'proceed' && record.enforced && record.reason !== undefined);
      if (said !== undefined) return `${toolName} allowed by ${rule(said.handler)}: ${said.reason}`;
      return `${toolName} allowed: no rule objected`;
    }
  }
}

/** A failed request, in a sentence: what went wrong, and what to do. */
export function errorSentence(error: Error): string {
  if (APICallError.isInstance(error)) {
    const status = error.statusCode ?? 0;
    // this app's route answers a refusal with a sentence; anything else is the server's failure
    if (status >= 400 && status < 500 && error.responseBody?.trim()) return error.responseBody.trim();
    return `The server failed to answer (HTTP ${status || 'error'}). Nothing was lost: press Retry.`;
  }
  if (error instanceof TypeError && /fetch|network|load failed/i.test(error.message)) {
    return 'The server could not be reached: the request did not get through. Check the connection, then press Retry.';
  }
  const message = error.message.trim();
  return message === '' ? 'Something went wrong. Press Retry.' : /[.!?]$/.test(message) ? message : `${message}.`;
}

/** How a request stands, from the inbox, in a few words: "approved by Morgan", "withdrawn: a new message in the conversation". */
export function requestState(request: PendingApproval, me: DemoUser): string {
  const by = request.answeredBy === undefined ? '' : ` by ${who(request.answeredBy, me)}`;
  const because = request.reason === undefined ? '' : `: ${request.reason}`;
  switch (request.status) {
    case 'pending':
      return request.approvedBy.length === 0 ? 'waiting' : `waiting (${request.approvedBy.length} of ${request.quorum} approvals)`;
    case 'approved':
      return `approved${by}`;
    case 'executed':
      return `approved${by}, ran`;
    case 'refused':
      return `refused${by}${because}`;
    case 'withdrawn':
      return `withdrawn${by}${because}`;
    case 'expired':
      return 'expired unanswered';
  }
}

/** What became of an answer given in the inbox, in a sentence for the person who gave it. */
export function inboxAnswerSentence(result: InboxAnswerResult, me: DemoUser): string {
  if (result.type === 'not-found') return 'No such request is waiting for you.';
  const { request } = result;
  const asker = who(request.askedBy, me, 'the assistant');
  const chat = `${whose(request.askedBy, me)} chat`;
  switch (result.type) {
    case 'approved':
      return `Approved: ${request.toolName} runs on ${asker === 'you' ? 'your' : `${asker}'s`} behalf when ${chat} continues, by itself while it is open.`;
    case 'refused':
      return `Refused${request.reason === undefined ? '' : `: ${request.reason}`}. Nothing runs, and ${chat} says so.`;
    case 'waiting':
      return `Your approval counts: ${request.approvedBy.length} of ${request.quorum}, so it still waits for more.`;
    case 'not-allowed':
      return `That did not count${result.reason === undefined ? '' : `: ${result.reason}`}. Nothing changed.`;
    case 'expired':
      return 'Too late: the request expired before your answer, so nothing runs.';
    case 'closed':
      return `Nothing changed: this request was ${requestState(request, me)} before your answer.`;
  }
}
