'use client';

import type { PendingApproval } from 'ai-interventions';
import { useCallback, useEffect, useState } from 'react';
import { type DemoUser, userOf } from '../../lib/users';
import { requestState, who } from '../../lib/words';
import { EditArguments } from './edit-arguments';
import { SignIn } from './sign-in';

/** How often the inbox looks for new requests (and drops those answered elsewhere). */
const POLL_MS = 2_000;

/** An answer from the inbox: approve (optionally other arguments), or refuse with a reason. */
type InboxAnswer = { readonly approved: true; readonly input?: unknown } | { readonly approved: false; readonly reason?: string };

/**
 * The approval inbox: every request waiting for the person signed in, with
 * its tool, its arguments, who asked and when, and who may answer; each is
 * approved, refused with a reason, or approved with edited arguments here,
 * and the chat it was asked in continues by itself.
 */
export function Inbox({ initialRequests, initialUserId }: { initialRequests: PendingApproval[]; initialUserId: string }) {
  const [userId, setUserId] = useState(initialUserId);
  const me = userOf(userId);
  const [requests, setRequests] = useState(initialRequests);
  const [notice, setNotice] = useState<string | undefined>();
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

  const refresh = useCallback(async () => {
    const response = await fetch('/api/inbox', { cache: 'no-store' });
    if (response.ok) setRequests([...((await response.json()) as { requests: PendingApproval[] }).requests]);
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new person signed in reads their own inbox
  useEffect(() => {
    void refresh().catch(() => undefined);
    const timer = setInterval(() => void refresh().catch(() => undefined), POLL_MS);
    return () => clearInterval(timer);
  }, [refresh, userId]);

  const answer = async (request: PendingApproval, given: InboxAnswer) => {
    setNotice(undefined);
    try {
      const response = await fetch(`/api/inbox/${encodeURIComponent(request.id)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(given),
      });
      const said = response.headers.get('content-type')?.includes('application/json')
        ? ((await response.json()) as { sentence: string }).sentence
        : await response.text();
      setNotice(said);
    } catch {
      setNotice('The server could not be reached: your answer did not get through. Check the connection and answer again.');
    }
    await refresh().catch(() => undefined);
  };

  return (
    <main data-testid="inbox" data-user={me.userId} data-hydrated={hydrated || undefined}>
      <header>
        <h1>Approval inbox</h1>
        <p>
          The requests from every chat that wait for you, newest first. Approve one, refuse it with a reason, or edit its arguments and
          approve those: the chat it was asked in continues by itself.
        </p>
        <nav className="links">
          <a href="/">New chat</a>
        </nav>
        <SignIn userId={me.userId} onChange={setUserId} />
      </header>
      {notice !== undefined && (
        <p className="notice" role="status" data-testid="inbox-notice">
          {notice}
        </p>
      )}
      {requests.length === 0 ? (
        <p className="inbox-empty" data-testid="inbox-empty">
          Nothing is waiting for you.
        </p>
      ) : (
        <ul className="inbox-requests" aria-label="Waiting requests">
          {requests.map((request) => (
            <li key={request.id}>
              <InboxRequest request={request} me={me} disabled={!hydrated} onAnswer={(given) => answer(request, given)} />
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}

/** One request: what it would run, who asked, when, who may answer; Approve, Refuse with a reason, or Edit then approve. */
function InboxRequest({
  request,
  me,
  disabled,
  onAnswer,
}: {
  request: PendingApproval;
  me: DemoUser;
  disabled: boolean;
  onAnswer: (answer: InboxAnswer) => Promise<void>;
}) {
  const [reason, setReason] = useState('');
  const [editing, setEditing] = useState(false);
  const [sending, setSending] = useState(false);
  const send = async (given: InboxAnswer) => {
    setSending(true);
    try {
      await onAnswer(given);
    } finally {
      setSending(false);
    }
  };
  const off = disabled || sending;
  const heading = `request-${request.id}`;
  return (
    <article
      className="tool awaiting-approval inbox-request"
      aria-labelledby={heading}
      data-testid="inbox-request"
      data-approval-id={request.id}
      data-conversation-id={request.conversationId ?? ''}
      data-tool={request.toolName}
    >
      <div className="tool-head" id={heading}>
        <code>{request.toolName}</code>
        <span className="badge" data-testid="request-status">
          {requestState(request, me)}
        </span>
      </div>
      {request.prompt !== undefined && <p data-testid="request-prompt">{request.prompt}</p>}
      <pre className="tool-input" data-testid="request-input">
        {JSON.stringify(request.input, null, 2)}
      </pre>
      <p className="tool-why" data-testid="request-who">
        Asked by {who(request.askedBy, me, 'the assistant')} at{' '}
        <time dateTime={new Date(request.askedAt).toISOString()} suppressHydrationWarning>
          {new Date(request.askedAt).toLocaleString()}
        </time>
        {request.conversationId !== undefined && (
          <>
            {' '}
            in{' '}
            <a href={`/chat/${encodeURIComponent(request.conversationId)}`} data-testid="request-chat">
              this chat
            </a>
          </>
        )}
        . {request.mayAnswer === undefined ? 'Anyone may answer it' : `Only ${request.mayAnswer} may answer it`}
        {request.quorum > 1 ? `, ${request.quorum} approvals needed (${request.approvedBy.length} so far)` : ''}
        {request.expiresAt === undefined ? '' : `, until ${new Date(request.expiresAt).toLocaleString()}`}.
      </p>
      <div className="approval">
        <button type="button" data-testid="inbox-approve" disabled={off} onClick={() => void send({ approved: true })}>
          Approve
        </button>
        <button type="button" data-testid="inbox-edit" className="secondary" disabled={off} onClick={() => setEditing(!editing)}>
          Edit…
        </button>
        <span className="deny">
          <input
            data-testid="inbox-reason"
            aria-label={`Why not? (${request.toolName})`}
            placeholder="Why not? (the model reads it)"
            value={reason}
            onChange={(event) => setReason(event.currentTarget.value)}
          />
          <button
            type="button"
            data-testid="inbox-refuse"
            className="secondary"
            disabled={off}
            onClick={() => void send({ approved: false, ...(reason.trim() === '' ? {} : { reason: reason.trim() }) })}
          >
            Refuse
          </button>
        </span>
        {editing && (
          <EditArguments
            toolName={request.toolName}
            input={request.input}
            disabled={off}
            onApprove={(input) => void send({ approved: true, input })}
          />
        )}
      </div>
    </article>
  );
}
