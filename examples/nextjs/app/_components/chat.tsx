'use client';

import { useChat } from '@ai-sdk/react';
import { APICallError, type ChatStatus, DefaultChatTransport, isToolUIPart, lastAssistantMessageIsCompleteWithApprovalResponses } from 'ai';
// the client entry: typed answers, the message type and who may answer, with no runtime in the browser bundle
import type { PendingApproval } from 'ai-interventions';
import { type ApprovalAnswer, approvalAnswer, approvalOf, type InterventionData } from 'ai-interventions/client';
import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import type { ChatMessage } from '../../lib/chat-message';
import type { StoredChat } from '../../lib/chat-store';
import { type DemoUser, userOf } from '../../lib/users';
import { errorSentence, Who } from '../../lib/words';
import { DecisionLog } from './decision-log';
import { SignIn } from './sign-in';
import { ToolCall } from './tool-call';

const SUGGESTIONS = [
  'Clean up /tmp/build-cache',
  'Email the team that the build is green',
  'Deploy the build to production',
  'Write a status report',
];

/** How often an idle page looks for what others changed in the chat (a manager's answer, a new request). */
const POLL_MS = 1_000;
/** How often the page asks the inbox about the requests of this chat that wait for someone else. */
const INBOX_POLL_MS = 1_500;

type Answer = (approvalId: string, answer: ApprovalAnswer) => void;

/** Whether a message holds answers that were never sent (a failed or stopped resume), and no request still open. */
const hasUnsentAnswers = (message: ChatMessage | undefined) =>
  message?.role === 'assistant' &&
  message.parts.some((part) => isToolUIPart(part) && part.state === 'approval-responded') &&
  !message.parts.some((part) => isToolUIPart(part) && part.state === 'approval-requested');

const decisionsIn = (message: ChatMessage): InterventionData[] =>
  message.parts.flatMap((part) => (part.type === 'data-intervention' ? [part.data] : []));

/** The approval ids of the requests the conversation's last message still waits on, that `me` asked (the inbox may answer them). */
const openRequestsOf = (message: ChatMessage | undefined, me: DemoUser): string[] =>
  message?.role !== 'assistant'
    ? []
    : message.parts.flatMap((part) =>
        isToolUIPart(part) &&
        part.state === 'approval-requested' &&
        !part.approval.isAutomatic &&
        approvalOf(decisionsIn(message).filter((decision) => decision.toolCallId === part.toolCallId))?.askedBy === me.userId
          ? [part.approval.id]
          : [],
      );

export function Chat({
  id,
  initialMessages,
  initialVersion,
  initialUserId,
}: {
  id: string;
  initialMessages: ChatMessage[];
  initialVersion: number;
  initialUserId: string;
}) {
  // who is signed in: the demo's cookie, which every request carries; the server reads it, the page words things for them
  const [userId, setUserId] = useState(initialUserId);
  const me = userOf(userId);
  const [transport] = useState(
    () =>
      new DefaultChatTransport<ChatMessage>({
        api: '/api/chat',
        // the server keeps the conversation: send only the last message (a user message, or the answers to its
        // requests), and whether it is a resume after the inbox's answers (`body`)
        prepareSendMessagesRequest: ({ id: chatId, messages, trigger, messageId, body }) => ({
          body: { ...body, id: chatId, message: messages.at(-1), trigger, messageId },
        }),
      }),
  );
  const [notice, setNotice] = useState<string | undefined>();
  const [stopped, setStopped] = useState<ReadonlySet<string>>(() => new Set());
  const version = useRef(initialVersion);
  const statusNow = useRef<string>('ready');
  const refreshRef = useRef<(force?: boolean) => Promise<boolean>>(async () => false);

  const { messages, setMessages, sendMessage, regenerate, stop, status, error, clearError, addToolApprovalResponse } = useChat<ChatMessage>(
    {
      id,
      messages: initialMessages,
      transport,
      // once every pending approval is answered, the answers go to the server: the run resumes
      sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
      onFinish: ({ message, isAbort }) => {
        if (isAbort) setStopped((before) => new Set(before).add(message.id));
      },
      onError: (failure) => {
        // the conversation changed under this page (someone answered first, or moved on): show it as the server has it
        if (APICallError.isInstance(failure) && failure.statusCode === 409) {
          void refreshRef.current(true).then((refreshed) => {
            if (!refreshed) return;
            clearError();
            setNotice(errorSentence(failure));
          });
        }
      },
    },
  );
  statusNow.current = status;

  /** Shows the conversation as the server keeps it, when it changed (or always, `force`); whether it did. */
  const refresh = useCallback(
    async (force = false) => {
      const response = await fetch(`/api/chats/${encodeURIComponent(id)}`, { cache: 'no-store' });
      if (!response.ok) return false;
      const stored = (await response.json()) as StoredChat;
      if (!force && (stored.version <= version.current || statusNow.current !== 'ready')) return false;
      version.current = stored.version;
      setMessages([...stored.messages]);
      return true;
    },
    [id, setMessages],
  );
  refreshRef.current = refresh;

  // an idle page follows the chat: another person's answer, or a request they made, shows up here
  useEffect(() => {
    if (status !== 'ready') return;
    const timer = setInterval(() => void refresh().catch(() => undefined), POLL_MS);
    return () => clearInterval(timer);
  }, [status, refresh]);

  // the requester's page follows its open requests in the inbox: once they are answered there (a manager approved,
  // say), it asks the server to continue: the server writes the inbox's answers in, the page sends none
  const [fromInbox, setFromInbox] = useState<ReadonlyMap<string, PendingApproval>>(() => new Map());
  const waiting = openRequestsOf(messages.at(-1), me);
  const waitingKey = waiting.join(' ');
  const resume = useCallback(() => {
    setNotice(undefined);
    void sendMessage(undefined, { body: { resume: true } });
  }, [sendMessage]);
  // once per set of requests: a resume the server refused is not sent again by itself (Retry sends it)
  const resumedFor = useRef('');
  useEffect(() => {
    const ids = waitingKey === '' ? [] : waitingKey.split(' ');
    if (status !== 'ready' || ids.length === 0 || resumedFor.current === waitingKey) return;
    let done = false;
    const check = async () => {
      const found = await Promise.all(
        ids.map(async (approvalId) => {
          const response = await fetch(`/api/inbox/${encodeURIComponent(approvalId)}`, { cache: 'no-store' });
          return response.ok ? ((await response.json()) as PendingApproval) : undefined;
        }),
      );
      const answered = found.filter((request) => request !== undefined && request.status !== 'pending') as PendingApproval[];
      if (done || answered.length < ids.length) return;
      done = true;
      resumedFor.current = waitingKey;
      setFromInbox(new Map(answered.map((request) => [request.id, request])));
      // continued already (answered in another browser's chat): show it as the server keeps it
      if (answered.some((request) => request.status === 'executed')) void refresh(true).catch(() => undefined);
      else resume();
    };
    const timer = setInterval(() => void check().catch(() => undefined), INBOX_POLL_MS);
    return () => {
      done = true;
      clearInterval(timer);
    };
  }, [status, waitingKey, resume, refresh]);

  const [input, setInput] = useState('');
  // the form works once the page is hydrated
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

  const busy = status === 'submitted' || status === 'streaming';
  const send = (text: string) => {
    if (!text.trim() || busy) return;
    setNotice(undefined);
    const last = messages.at(-1);
    // a message whose request failed is replaced by the new one, never repeated
    const replaces = error !== undefined && last?.role === 'user' ? { messageId: last.id } : {};
    void sendMessage({ text, metadata: { userId: me.userId }, ...replaces });
    setInput('');
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    send(input);
  };
  // a failed request again: the answers it carried, a resume after the inbox's answers, or the last message
  // (regenerate resends it; it is never duplicated)
  const retry = () => {
    setNotice(undefined);
    if (hasUnsentAnswers(messages.at(-1))) void sendMessage();
    else if (waiting.length > 0) resume();
    else void regenerate();
  };
  // a typed answer travels in the response's reason; the server decodes it (the model never sees it)
  const answer: Answer = (approvalId, typed) => {
    setNotice(undefined);
    void addToolApprovalResponse(approvalAnswer({ id: approvalId, ...typed }));
  };
  const decisions = messages.flatMap(decisionsIn);

  return (
    <main data-testid="chat" data-chat-id={id} data-status={status} data-user={me.userId} data-hydrated={hydrated || undefined}>
      <header>
        <h1>ai-interventions</h1>
        <p>
          A chat whose tool calls go through intervention handlers: <code>run_shell</code> is <b>denied</b>, <code>send_email</code> without
          a subject is <b>guided</b>, <code>delete_file</code> waits for anyone's <b>approval</b> (approve, approve for this chat, deny with
          a reason, or edit the path first), and <code>deploy</code> waits for a <b>manager</b>'s approval. The conversation is kept on the
          server: open <a href={`/chat/${id}`}>this chat's link</a> in another browser, signed in as someone else, to answer for them.
        </p>
        <nav className="links">
          <a href="/inbox" data-testid="inbox-link">
            Approval inbox
          </a>{' '}
          · <a href="/">New chat</a>
        </nav>
        <SignIn userId={me.userId} onChange={setUserId} />
      </header>

      <section className="messages" data-testid="messages">
        {messages.map((message, index) => (
          <Message
            key={message.id}
            message={message}
            me={me}
            earlier={messages.slice(0, index + 1).flatMap(decisionsIn)}
            live={index === messages.length - 1}
            stopped={message.metadata?.stopped === true || stopped.has(message.id)}
            status={status}
            fromInbox={fromInbox}
            onAnswer={answer}
            onResend={() => void sendMessage()}
          />
        ))}
        {busy && (
          <div className="pending" data-testid="chat-pending">
            {status === 'submitted' ? 'Thinking…' : 'Writing…'}{' '}
            <button type="button" className="secondary" data-testid="stop-button" onClick={() => void stop()}>
              Stop
            </button>
          </div>
        )}
        {error && (
          <div className="error" role="alert" data-testid="chat-error">
            <span data-testid="chat-error-text">{errorSentence(error)}</span>{' '}
            <button type="button" data-testid="retry-button" onClick={retry}>
              Retry
            </button>
          </div>
        )}
        {notice !== undefined && (
          <p className="notice" role="status" data-testid="chat-notice">
            {notice}
          </p>
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

      <DecisionLog decisions={decisions} me={me} />
    </main>
  );
}

function Message({
  message,
  me,
  earlier,
  live,
  stopped,
  status,
  fromInbox,
  onAnswer,
  onResend,
}: {
  message: ChatMessage;
  me: DemoUser;
  /** The chat's decisions up to this message's. */
  earlier: readonly InterventionData[];
  live: boolean;
  stopped: boolean;
  status: ChatStatus;
  /** What the inbox said of the requests the page resumed after. */
  fromInbox: ReadonlyMap<string, PendingApproval>;
  onAnswer: Answer;
  onResend: () => void;
}) {
  // the decisions about this message's tool calls, in order
  const decisionsOf = (toolCallId: string) => decisionsIn(message).filter((decision) => decision.toolCallId === toolCallId);
  // a user message says who sent it (the server's word); one just sent here is this person's
  const author = message.role === 'user' ? Who(message.metadata?.userId ?? me.userId, me) : 'Assistant';
  return (
    <article className={`message ${message.role}`} data-testid={`message-${message.role}`} data-author={message.metadata?.userId ?? ''}>
      <div className="role" data-testid="message-author">
        {author}
      </div>
      {message.parts.map((part, index) => {
        if (part.type === 'text') {
          return (
            <p key={index} className="text" data-testid="message-text">
              {part.text}
            </p>
          );
        }
        if (isToolUIPart(part)) {
          return (
            <ToolCall
              key={part.toolCallId}
              part={part}
              decisions={decisionsOf(part.toolCallId)}
              earlier={earlier}
              me={me}
              live={live}
              status={status}
              fromInbox={part.approval === undefined ? undefined : fromInbox.get(part.approval.id)}
              onAnswer={onAnswer}
              onResend={onResend}
            />
          );
        }
        return null;
      })}
      {stopped && (
        <p className="stopped" data-testid="message-stopped">
          Stopped before it finished.
        </p>
      )}
    </article>
  );
}
