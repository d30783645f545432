'use client';

import { useChat } from '@ai-sdk/react';
import {
  DefaultChatTransport,
  type DynamicToolUIPart,
  getToolName,
  isToolUIPart,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  type ToolUIPart,
} from 'ai';
// the client entry: typed answers and the message type, with no runtime in the browser bundle
import { type ApprovalAnswer, approvalAnswer, type InterventionData, type InterventionUIMessage } from 'ai-interventions/client';
import { type FormEvent, useEffect, useRef, useState } from 'react';

const SUGGESTIONS = ['Clean up /tmp/build-cache', 'Email the team that the build is green', 'Deploy the build to production'];

/** The demo's people: the server reads who is signed in from the request (a real app, from its session). */
const USERS = [
  { key: 'sam', label: 'Sam (developer)' },
  { key: 'morgan', label: 'Morgan (manager)' },
] as const;

type ToolPart = ToolUIPart | DynamicToolUIPart;
type Answer = (approvalId: string, answer: ApprovalAnswer) => void;

export default function ChatPage() {
  // who is signed in: every request says it, so who may answer an approval is the server's to check
  const [user, setUser] = useState<string>('sam');
  const signedIn = useRef(user);
  signedIn.current = user;
  const [transport] = useState(() => new DefaultChatTransport<InterventionUIMessage>({ body: () => ({ user: signedIn.current }) }));
  const { id, messages, sendMessage, status, error, addToolApprovalResponse } = useChat<InterventionUIMessage>({
    transport,
    // once every pending approval is answered, send the conversation back: the run resumes
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
  });
  const [input, setInput] = useState('');
  // the chat id is made in the browser: show it (and enable the form) only once hydrated
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

  const busy = status === 'submitted' || status === 'streaming';
  const send = (text: string) => {
    if (!text.trim() || busy) return;
    void sendMessage({ text });
    setInput('');
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    send(input);
  };
  // a typed answer travels in the response's reason; the server decodes it (the model never sees it)
  const answer: Answer = (approvalId, typed) => void addToolApprovalResponse(approvalAnswer({ id: approvalId, ...typed }));
  // every decision the server streamed, in order: the decision log
  const decisions = messages.flatMap((message) => message.parts.flatMap((part) => (part.type === 'data-intervention' ? [part.data] : [])));

  return (
    <main data-testid="chat" data-chat-id={hydrated ? id : undefined} data-status={status}>
      <header>
        <h1>ai-interventions</h1>
        <p>
          A chat whose tool calls go through intervention handlers: <code>run_shell</code> is <b>denied</b>, <code>send_email</code> without
          a subject is <b>guided</b>, <code>delete_file</code> waits for your <b>approval</b> (approve, approve for this chat, deny with a
          reason, or edit the path first), and <code>deploy</code> waits for a <b>manager</b>'s approval.
        </p>
        <label className="user">
          Signed in as{' '}
          <select data-testid="user-select" value={user} onChange={(event) => setUser(event.currentTarget.value)}>
            {USERS.map(({ key, label }) => (
              <option key={key} value={key}>
                {label}
              </option>
            ))}
          </select>
        </label>
      </header>

      <section className="messages" data-testid="messages">
        {messages.map((message) => (
          <Message key={message.id} message={message} onAnswer={answer} />
        ))}
        {busy && (
          <div className="pending" data-testid="chat-pending">
            {status === 'submitted' ? 'Thinking…' : 'Streaming…'}
          </div>
        )}
        {error && (
          <div className="error" role="alert" data-testid="chat-error">
            {error.message}
          </div>
        )}
      </section>

      <div className="suggestions">
        {SUGGESTIONS.map((text) => (
          <button key={text} type="button" disabled={!hydrated || busy} onClick={() => send(text)}>
            {text}
          </button>
        ))}
      </div>
      <form onSubmit={onSubmit}>
        <input
          data-testid="chat-input"
          aria-label="Message"
          value={input}
          placeholder="Ask something…"
          onChange={(event) => setInput(event.currentTarget.value)}
        />
        <button data-testid="chat-send" type="submit" disabled={!hydrated || busy || !input.trim()}>
          Send
        </button>
      </form>

      <DecisionLog decisions={decisions} />
    </main>
  );
}

function Message({ message, onAnswer }: { message: InterventionUIMessage; onAnswer: Answer }) {
  // the decisions about this message's tool calls, latest last
  const decisionsOf = (toolCallId: string) =>
    message.parts.flatMap((part) => (part.type === 'data-intervention' && part.data.toolCallId === toolCallId ? [part.data] : []));
  return (
    <article className={`message ${message.role}`} data-testid={`message-${message.role}`}>
      <div className="role">{message.role === 'user' ? 'You' : 'Assistant'}</div>
      {message.parts.map((part, index) => {
        if (part.type === 'text') {
          return (
            <p key={index} className="text" data-testid="message-text">
              {part.text}
            </p>
          );
        }
        if (isToolUIPart(part)) {
          return <ToolCall key={part.toolCallId} part={part} decision={decisionsOf(part.toolCallId).at(-1)} onAnswer={onAnswer} />;
        }
        return null;
      })}
    </article>
  );
}

/** How a tool part ended, for its label: from its state, and the decision the server sent for it. */
function outcomeOf(part: ToolPart, decision: InterventionData | undefined): string {
  switch (part.state) {
    case 'input-streaming':
      return 'preparing';
    case 'input-available':
      return 'running';
    case 'approval-requested':
      return part.approval.isAutomatic ? 'checking' : 'awaiting-approval';
    case 'approval-responded':
      return part.approval.approved ? 'approved' : 'refused';
    case 'output-available':
      return !part.approval?.approved ? 'ran' : decision?.answer?.edited ? 'edited-and-ran' : 'approved-and-ran';
    case 'output-error':
      return 'error';
    case 'output-denied':
      if (decision?.action === 'guide') return 'guided';
      // a handler's deny is an automatic request; a person's refusal is the request they answered, unless the server's
      // decision on resume (which follows the SDK's part) says a handler denied it (the confirm that asked is no such decision)
      if (part.approval.isAutomatic === true) return 'denied';
      return decision === undefined || decision.action === 'confirm' || decision.handler === undefined ? 'refused' : 'denied';
  }
}

const LABELS: Record<string, string> = {
  preparing: 'preparing the call…',
  running: 'running…',
  checking: 'checking…',
  'awaiting-approval': 'needs your approval',
  approved: 'approved, resuming…',
  refused: 'refused by you',
  'approved-and-ran': 'approved by you, ran',
  'edited-and-ran': 'edited and approved by you, ran',
  ran: 'ran',
  error: 'failed',
  guided: 'not run: sent back with feedback',
  denied: 'blocked',
};

function ToolCall({ part, decision, onAnswer }: { part: ToolPart; decision: InterventionData | undefined; onAnswer: Answer }) {
  const name = getToolName(part);
  const outcome = outcomeOf(part, decision);
  return (
    <div
      className={`tool ${outcome}`}
      data-testid={`tool-${name}`}
      data-state={part.state}
      data-decision={outcome}
      data-tool-call-id={part.toolCallId}
    >
      <div className="tool-head">
        <code>{name}</code>
        <span className="badge" data-testid="tool-status">
          {LABELS[outcome]}
        </span>
      </div>
      {part.input !== undefined && (
        <pre className="tool-input" data-testid="tool-input">
          {JSON.stringify(part.input, null, 2)}
        </pre>
      )}
      {/* the short reason for people, from the server's data-intervention part (not the model's wording) */}
      {decision?.reason !== undefined && decision.action !== 'confirm' && (
        <p className="tool-why" data-testid="tool-why">
          {decision.handler === undefined ? 'You' : decision.handler}: {decision.reason}
        </p>
      )}

      {part.state === 'approval-requested' && !part.approval.isAutomatic && (
        <Approval
          prompt={part.approval.requestReason ?? `Run ${name}?`}
          input={part.input}
          mayAnswer={decision?.approval?.mayAnswer}
          waiting={
            decision?.approval?.status === 'not-allowed' || decision?.approval?.status === 'awaiting-quorum' ? decision.reason : undefined
          }
          onAnswer={(answer) => onAnswer(part.approval.id, answer)}
        />
      )}
      {part.state === 'approval-responded' && (
        <p data-testid="approval-response">
          You {part.approval.approved ? 'approved' : 'refused'}: {part.approval.requestReason}
        </p>
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

/** Approve, approve for this chat, deny with a reason, or edit the arguments and approve them. */
function Approval({
  prompt,
  input,
  mayAnswer,
  waiting,
  onAnswer,
}: {
  prompt: string;
  input: unknown;
  /** Who may answer, as the server says (its data-intervention part). */
  mayAnswer: string | undefined;
  /** Why an answer given before is still waiting (the wrong person, or more approvals needed). */
  waiting: string | undefined;
  onAnswer: (answer: ApprovalAnswer) => void;
}) {
  const [reason, setReason] = useState('');
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(() => JSON.stringify(input));
  let edited: { value: unknown } | undefined;
  try {
    edited = { value: JSON.parse(draft) as unknown };
  } catch {
    edited = undefined;
  }
  return (
    <div className="approval" data-testid="approval">
      <p data-testid="approval-prompt">{prompt}</p>
      {mayAnswer !== undefined && <p data-testid="approval-who">Only {mayAnswer} may approve this.</p>}
      {waiting !== undefined && (
        <p className="tool-why" data-testid="approval-waiting">
          {waiting}
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
      {editing && (
        <span className="edit">
          <textarea
            data-testid="edit-input"
            aria-label="Arguments"
            value={draft}
            onChange={(event) => setDraft(event.currentTarget.value)}
          />
          <button
            type="button"
            data-testid="approve-edited-button"
            disabled={edited === undefined}
            onClick={() => edited !== undefined && onAnswer({ approved: true, input: edited.value })}
          >
            Approve these arguments
          </button>
        </span>
      )}
    </div>
  );
}

const ACTIONS: Record<InterventionData['action'], string> = {
  proceed: 'allowed',
  transform: 'changed',
  deny: 'blocked',
  guide: 'sent back',
  confirm: 'asked you',
};

/** Every decision of the chat, from the data-intervention parts the server streamed. */
function DecisionLog({ decisions }: { decisions: readonly InterventionData[] }) {
  if (decisions.length === 0) return null;
  return (
    <aside className="decision-log" data-testid="decision-log">
      <h2>Decisions</h2>
      <ol>
        {decisions.map((decision, index) => {
          const { answer } = decision;
          // a person's answer that stood (nobody denied it after) is theirs; otherwise the handler that decided
          const byPerson = answer !== undefined && decision.handler === undefined;
          const who = decision.handler ?? (byPerson ? 'you' : 'the handlers');
          const action = byPerson ? (answer.approved ? 'approved' : 'refused') : ACTIONS[decision.action];
          const notes = [
            ...(answer?.edited ? ['edited arguments'] : []),
            ...(answer?.remember === 'session' ? ['for this chat'] : answer?.remember === 'always' ? ['always'] : []),
            ...(answer?.approved && !byPerson ? ['after you approved'] : []),
          ];
          return (
            <li
              key={index}
              data-testid="decision"
              data-tool={decision.toolName}
              data-action={decision.action}
              data-handler={decision.handler ?? ''}
              data-answer={answer === undefined ? '' : answer.approved ? 'approved' : 'refused'}
            >
              <code>{decision.toolName}</code> {action} by <b>{who}</b>
              {decision.reason !== undefined && <>: {decision.reason}</>}
              {notes.length > 0 && <span className="answer"> ({notes.join(', ')})</span>}
            </li>
          );
        })}
      </ol>
    </aside>
  );
}
