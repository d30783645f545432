'use client';

import { useChat } from '@ai-sdk/react';
import {
  getToolName,
  isToolUIPart,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  type DynamicToolUIPart,
  type ToolUIPart,
  type UIMessage,
} from 'ai';
import { useEffect, useState, type FormEvent } from 'react';

const SUGGESTIONS = ['Clean up /tmp/build-cache', 'Email the team that the build is green'];

export default function ChatPage() {
  const { id, messages, sendMessage, status, error, addToolApprovalResponse } = useChat({
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
  const answer = (approvalId: string, approved: boolean) =>
    void addToolApprovalResponse(
      approved ? { id: approvalId, approved } : { id: approvalId, approved, reason: 'Declined in the chat.' },
    );

  return (
    <main data-testid="chat" data-chat-id={hydrated ? id : undefined} data-status={status}>
      <header>
        <h1>ai-interventions</h1>
        <p>
          A chat whose tool calls go through intervention handlers: <code>run_shell</code> is <b>denied</b>,{' '}
          <code>send_email</code> without a subject is <b>guided</b>, <code>delete_file</code> waits for your{' '}
          <b>approval</b>.
        </p>
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
    </main>
  );
}

function Message({
  message,
  onAnswer,
}: {
  message: UIMessage;
  onAnswer: (approvalId: string, approved: boolean) => void;
}) {
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
        if (isToolUIPart(part)) return <ToolCall key={part.toolCallId} part={part} onAnswer={onAnswer} />;
        return null;
      })}
    </article>
  );
}

/** How a tool part ended, for its label: denied and guided calls both end in `output-denied`. */
function decisionOf(part: ToolUIPart | DynamicToolUIPart): string {
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
      return part.approval?.approved ? 'approved-and-ran' : 'ran';
    case 'output-error':
      return 'error';
    case 'output-denied':
      // a human's answer is not automatic; a handler's deny or guide is
      if (!part.approval.isAutomatic) return 'refused';
      return /Feedback:/.test(part.approval.reason ?? '') ? 'guided' : 'denied';
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
  ran: 'ran',
  error: 'failed',
  guided: 'not run: sent back with feedback',
  denied: 'blocked',
};

function ToolCall({
  part,
  onAnswer,
}: {
  part: ToolUIPart | DynamicToolUIPart;
  onAnswer: (approvalId: string, approved: boolean) => void;
}) {
  const name = getToolName(part);
  const decision = decisionOf(part);
  return (
    <div
      className={`tool ${decision}`}
      data-testid={`tool-${name}`}
      data-state={part.state}
      data-decision={decision}
      data-tool-call-id={part.toolCallId}
    >
      <div className="tool-head">
        <code>{name}</code>
        <span className="badge" data-testid="tool-status">
          {LABELS[decision]}
        </span>
      </div>
      {part.input !== undefined && (
        <pre className="tool-input" data-testid="tool-input">
          {JSON.stringify(part.input, null, 2)}
        </pre>
      )}

      {part.state === 'approval-requested' && !part.approval.isAutomatic && (
        <div className="approval" data-testid="approval">
          <p data-testid="approval-prompt">{part.approval.requestReason ?? `Run ${name}?`}</p>
          <button type="button" data-testid="approve-button" onClick={() => onAnswer(part.approval.id, true)}>
            Approve
          </button>
          <button type="button" data-testid="deny-button" className="secondary" onClick={() => onAnswer(part.approval.id, false)}>
            Deny
          </button>
        </div>
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
      {part.state === 'output-denied' && (
        <p className="tool-reason" data-testid="tool-denied-reason">
          {part.approval.reason ?? 'The call was not approved.'}
        </p>
      )}
      {part.state === 'output-error' && (
        <p className="tool-reason" data-testid="tool-error">
          {part.errorText}
        </p>
      )}
    </div>
  );
}
