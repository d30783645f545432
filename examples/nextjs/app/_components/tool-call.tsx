'use client';

import type { ChatStatus, DynamicToolUIPart, ToolUIPart } from 'ai';
import { getToolName } from 'ai';
import type { PendingApproval } from 'ai-interventions';
import { type ApprovalAnswer, approvalReasonText, type InterventionData, readApprovalAnswer } from 'ai-interventions/client';
import { useState } from 'react';
import type { DemoUser } from '../../lib/users';
import { type Answering, answering, rememberedApproval, rememberWords, rule, Who, who } from '../../lib/words';
import { EditArguments } from './edit-arguments';

export type ToolPart = ToolUIPart | DynamicToolUIPart;

/** How a call stands, for its badge and its test id, and the sentence that says why. */
interface Story {
  readonly outcome: string;
  readonly badge: string;
  readonly why?: string | undefined;
}

/**
 * One tool call: its arguments (those decided, when a person edited them),
 * how it stands, who decided and why, and, while it waits for a person, the
 * approval card (or, for someone who may not answer, who it waits for).
 */
export function ToolCall({
  part,
  decisions,
  earlier,
  me,
  live,
  status,
  fromInbox,
  onAnswer,
  onResend,
}: {
  part: ToolPart;
  /** The decisions about this call, in order. */
  decisions: readonly InterventionData[];
  /** Every decision of the chat before this message (an earlier "approve for this chat"). */
  earlier: readonly InterventionData[];
  me: DemoUser;
  /** Whether the call is in the conversation's last message: only there can a request still be answered. */
  live: boolean;
  status: ChatStatus;
  /** The inbox's answer to this call's request, when the page resumed after it. */
  fromInbox?: PendingApproval | undefined;
  onAnswer: (approvalId: string, answer: ApprovalAnswer) => void;
  onResend: () => void;
}) {
  const name = getToolName(part);
  const decision = decisions.at(-1);
  const people = answering(decisions, me);
  const story = storyOf(name, part, decision, people, earlier, me, live, status, fromInbox);
  // the arguments that were decided: a person's edit, when it decided others than the model's
  const edited = decision?.input !== undefined && JSON.stringify(decision.input) !== JSON.stringify(part.input);
  const input = edited ? decision?.input : part.input;
  return (
    <div
      className={`tool ${story.outcome}`}
      data-testid={`tool-${name}`}
      data-state={part.state}
      data-decision={story.outcome}
      data-tool-call-id={part.toolCallId}
    >
      <div className="tool-head">
        <code>{name}</code>
        <span className="badge" data-testid="tool-status">
          {story.badge}
        </span>
      </div>
      {input !== undefined && (
        <pre className="tool-input" data-testid="tool-input">
          {JSON.stringify(input, null, 2)}
        </pre>
      )}
      {edited && (
        <p className="tool-note" data-testid="tool-edited">
          Edited by {who(people.approval?.answeredBy, me)}; the model asked for <code>{JSON.stringify(part.input)}</code>.
        </p>
      )}
      {story.why !== undefined && (
        <p className="tool-why" data-testid="tool-why">
          {story.why}
        </p>
      )}
      {story.outcome === 'awaiting-approval' && part.state === 'approval-requested' && (
        <ApprovalCard
          key={part.approval.id}
          name={name}
          prompt={part.approval.requestReason ?? `Run ${name}?`}
          input={part.input}
          answering={people}
          me={me}
          onAnswer={(answer) => onAnswer(part.approval.id, answer)}
        />
      )}
      {story.outcome === 'waiting' && part.state === 'approval-requested' && (
        <Waiting
          prompt={part.approval.requestReason}
          answering={people}
          me={me}
          onWithdraw={(answer) => onAnswer(part.approval.id, answer)}
        />
      )}
      {story.outcome === 'not-sent' && (
        <button type="button" data-testid="resend-button" onClick={onResend}>
          Send the answer
        </button>
      )}
      {part.state === 'output-available' && (
        <pre className="tool-output" data-testid="tool-output">
          {typeof part.output === 'string' ? part.output : JSON.stringify(part.output, null, 2)}
        </pre>
      )}
      {part.state === 'output-error' && (
        <p className="tool-reason" data-testid="tool-error">
          {part.errorText}
        </p>
      )}
    </div>
  );
}

function storyOf(
  name: string,
  part: ToolPart,
  decision: InterventionData | undefined,
  { approval, mayI, whoMay }: Answering,
  earlier: readonly InterventionData[],
  me: DemoUser,
  live: boolean,
  status: ChatStatus,
  fromInbox: PendingApproval | undefined,
): Story {
  const asker = who(approval?.askedBy, me, 'the assistant');
  // who answered, once the decision that says so has arrived (it follows the call's part)
  const by = approval?.answeredBy === undefined ? '' : ` by ${who(approval.answeredBy, me)}`;
  const behalf =
    approval?.askedBy !== undefined && approval.askedBy !== approval.answeredBy
      ? ` on ${asker === 'you' ? 'your' : `${asker}'s`} behalf`
      : '';
  switch (part.state) {
    case 'input-streaming':
      return { outcome: 'preparing', badge: 'preparing the call…' };
    case 'input-available':
      return { outcome: 'running', badge: 'running…' };
    case 'approval-requested':
      if (part.approval.isAutomatic) return { outcome: 'checking', badge: 'checking…' };
      if (!live) return closed(asker);
      if (mayI === false) return { outcome: 'waiting', badge: `waiting for ${whoMay}` };
      return { outcome: 'awaiting-approval', badge: mayI === true ? 'needs your approval' : `needs the approval of ${whoMay}` };
    case 'approval-responded': {
      if (!live) return closed(asker);
      if (fromInbox !== undefined) return inboxStory(fromInbox, part.approval.approved, me, status);
      const answer = part.approval.approved ? 'approval' : 'refusal';
      if (status === 'submitted' || status === 'streaming') return { outcome: 'sending', badge: `${answer} sent, resuming…` };
      if (status === 'error')
        return { outcome: 'not-delivered', badge: `${answer} not delivered`, why: `Your ${answer} did not reach the server: retry below.` };
      return { outcome: 'not-sent', badge: `${answer} not sent yet`, why: `Your ${answer} is not sent yet (the request was stopped).` };
    }
    case 'output-available': {
      if (part.approval?.approved === true && !part.approval.isAutomatic) {
        const edited = decision?.answer?.edited === true;
        return {
          outcome: edited ? 'edited-and-ran' : 'approved-and-ran',
          badge: `${edited ? 'edited and approved' : 'approved'}${by}, ran`,
          why: `${Who(approval?.answeredBy, me)} approved it${decision?.answer?.remember === 'session' ? ' for this chat' : ''}; it ran${behalf}.`,
        };
      }
      const remembered = rememberedApproval(decision, earlier);
      if (remembered !== undefined) {
        return {
          outcome: 'ran-remembered',
          badge: 'ran without asking',
          why: `Allowed by an earlier approval: ${who(remembered.by, me)} approved ${name} ${rememberWords(remembered.remember)}.`,
        };
      }
      return { outcome: 'ran', badge: 'ran' };
    }
    case 'output-error':
      return { outcome: 'error', badge: 'failed' };
    case 'output-denied': {
      // the call's own decision follows its part: until it arrives, the last one is the request's (or none)
      const own = decision === undefined || decision.action === 'confirm' ? undefined : decision;
      const because = own?.reason === undefined ? '' : `: ${own.reason}`;
      if (own?.action === 'guide') {
        return {
          outcome: 'guided',
          badge: 'not run: sent back to the model',
          why: `Sent back by ${rule(own.handler ?? 'a rule')}${because}`,
        };
      }
      // what the person answered (this page's answers are typed), whatever the rules made of it
      const read = readApprovalAnswer(part.approval.reason);
      const refusedByPerson = !part.approval.isAutomatic && !(read.type === 'answer' && read.answer.approved);
      // a person's refusal stands when no rule denied the call after it (the runtime's record of a final refusal is the person's)
      const finalRefusal = own?.approval?.status === 'refused';
      if (refusedByPerson && (own === undefined || finalRefusal || (own.answer?.approved === false && own.handler === undefined))) {
        const reason = (finalRefusal ? undefined : own?.reason) ?? approvalReasonText(part.approval.reason);
        return {
          outcome: 'refused',
          badge: `refused${by}`,
          why: ended(`${Who(approval?.answeredBy, me)} refused${reason ? `: ${reason}` : ''}`),
        };
      }
      if (own === undefined) return { outcome: 'denied', badge: 'blocked' };
      const answer = own.answer;
      if (answer?.approved === true && own.handler === 'approval-edit') {
        return {
          outcome: 'edit-refused',
          badge: 'not run: the edit did not fit',
          why: `${Who(approval?.answeredBy, me)} edited the arguments, but they did not fit the tool, so nothing ran${because}`,
        };
      }
      if (answer?.approved === true) {
        return {
          outcome: 'denied',
          badge: 'blocked',
          why: `${Who(approval?.answeredBy, me)} approved${answer.edited ? ' an edit' : ''}, then ${rule(own.handler ?? 'a rule')} blocked it${because}`,
        };
      }
      return { outcome: 'denied', badge: 'blocked', why: `Blocked by ${rule(own.handler ?? 'a rule')}${because}` };
    }
  }
}

/** A request answered in the inbox, while the chat continues after it (or failed to). */
function inboxStory(request: PendingApproval, approved: boolean, me: DemoUser, status: ChatStatus): Story {
  const answer = `${approved ? 'approved' : 'refused'} by ${who(request.answeredBy, me)} in the inbox`;
  if (status === 'error') {
    return {
      outcome: 'not-delivered',
      badge: `${answer}, not continued`,
      why: 'The chat could not continue after the answer: retry below.',
    };
  }
  return { outcome: 'sending', badge: `${answer}, resuming…` };
}

/** A sentence, ended once. */
const ended = (sentence: string) => (/[.!?]$/.test(sentence) ? sentence : `${sentence}.`);

const closed = (asker: string): Story => ({
  outcome: 'closed',
  badge: 'closed without an answer',
  why: `The conversation moved on before anyone answered ${asker === 'you' ? 'your' : `${asker}'s`} request, so nothing ran.`,
});

/** For someone who may not answer: the request, who it waits for and why; its asker may withdraw it. */
function Waiting({
  prompt,
  answering: { approval, whoMay },
  me,
  onWithdraw,
}: {
  prompt: string | undefined;
  answering: Answering;
  me: DemoUser;
  onWithdraw: (answer: ApprovalAnswer) => void;
}) {
  const mine = approval?.askedBy === me.userId;
  return (
    <div className="approval waiting" data-testid="approval-waiting">
      {prompt !== undefined && <p data-testid="approval-prompt">{prompt}</p>}
      <p data-testid="approval-who">
        Asked by {who(approval?.askedBy, me)}. Waiting for {whoMay}: only {whoMay} may approve this, so you cannot.
      </p>
      {mine && (
        <p className="tool-why" data-testid="approval-inbox">
          It is in the approval inbox: once {whoMay} answers it there, this chat continues by itself.
        </p>
      )}
      {mine && (
        <button
          type="button"
          className="secondary"
          data-testid="withdraw-button"
          onClick={() => onWithdraw({ approved: false, reason: `Withdrawn by ${me.name} before a decision.` })}
        >
          Withdraw the request
        </button>
      )}
    </div>
  );
}

/** Approve, approve for this chat, deny with a reason, or edit the arguments (checked as you type) and approve them. */
function ApprovalCard({
  name,
  prompt,
  input,
  answering: { approval, mayI, whoMay },
  me,
  onAnswer,
}: {
  name: string;
  prompt: string;
  input: unknown;
  answering: Answering;
  me: DemoUser;
  onAnswer: (answer: ApprovalAnswer) => void;
}) {
  const [reason, setReason] = useState('');
  const [editing, setEditing] = useState(false);
  const held = approval?.status === 'not-allowed' || approval?.status === 'awaiting-quorum';
  return (
    <div className="approval" data-testid="approval">
      <p data-testid="approval-prompt">{prompt}</p>
      <p data-testid="approval-who">
        Asked by {who(approval?.askedBy, me, 'the assistant')}.{' '}
        {approval?.mayAnswer === undefined
          ? 'Anyone in this chat may answer it.'
          : mayI === true
            ? `Only ${whoMay} may approve it: you can.`
            : `Only ${whoMay} may approve it: the server checks who you are.`}
      </p>
      {held && (
        <p className="tool-why" data-testid="approval-held">
          {approval?.status === 'not-allowed'
            ? `${Who(approval.answeredBy, me)} approved, but that did not count: only ${whoMay} may approve this. It is still waiting.`
            : `${approval?.approvedBy?.length ?? 0} of ${approval?.quorum ?? '?'} approvals so far: it is still waiting.`}
        </p>
      )}
      <button type="button" data-testid="approve-button" onClick={() => onAnswer({ approved: true })}>
        Approve
      </button>
      <button type="button" data-testid="approve-session-button" onClick={() => onAnswer({ approved: true, remember: 'session' })}>
        Approve for this chat
      </button>
      <button type="button" data-testid="edit-button" className="secondary" onClick={() => setEditing(!editing)}>
        Edit…
      </button>
      <span className="deny">
        <input
          data-testid="deny-reason"
          aria-label="Why not?"
          placeholder="Why not? (the model reads it)"
          value={reason}
          onChange={(event) => setReason(event.currentTarget.value)}
        />
        <button
          type="button"
          data-testid="deny-button"
          className="secondary"
          onClick={() => onAnswer({ approved: false, reason: reason.trim() || undefined })}
        >
          Deny
        </button>
      </span>
      {editing && <EditArguments toolName={name} input={input} onApprove={(edited) => onAnswer({ approved: true, input: edited })} />}
    </div>
  );
}
