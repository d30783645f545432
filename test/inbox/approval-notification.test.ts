/**
 * The inbox's notifications, as an app posts them to a webhook: a loopback
 * HTTP receiver gets each event, and answers the request with the token the
 * 'created' event carried, as a manager clicking a card's link would. A
 * token admits only the person and the request it was signed for, until
 * the request expires, under the runtime's keys (old ones too, after a
 * rotation). Through `interventions.generateText` and `streamText`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ModelMessage } from 'ai';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { signAnswerToken } from '../../src/inbox/answer-token.ts';
import { type ApprovalNotification, createApprovalInbox, createApprovalLedger } from '../../src/index.ts';
import {
  ALICE,
  askRefund,
  askRefunds,
  BOB,
  CAROL,
  ERIN,
  MANAGERS,
  refundRuntime,
  refunds,
  resumeFromInbox,
  SECRET,
} from '../helpers/inbox-refunds.ts';
import { processWarnings } from '../helpers/process-warnings.ts';
import { MODES } from '../helpers/run-both.ts';
import { toolResultsSent } from '../helpers/scripted-model.ts';

/** What the app posts for each event: a card's text, and for a new request the manager's answer token. */
interface Posted {
  readonly type: ApprovalNotification['type'];
  readonly summary: string;
  readonly id: string;
  readonly status: string;
  readonly token?: string;
}

/** A webhook on 127.0.0.1 that keeps what it is posted, and the app's `notify` that posts to it. */
async function receiver(person: Readonly<Record<string, unknown>> = BOB) {
  const posted: Posted[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      posted.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Posted);
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/approvals`;
  const notify = async (event: ApprovalNotification) => {
    const { id, status } = event.request;
    const token = event.type === 'created' ? await event.answerToken(person) : undefined;
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: event.type, summary: event.summary, id, status, ...(token === undefined ? {} : { token }) }),
    });
    if (response.status !== 204) throw new Error(`the webhook answered ${response.status}`);
  };
  /** The token the 'created' event of request `id` carried. */
  const tokenOf = (id: string) => {
    const token = posted.find((event) => event.type === 'created' && event.id === id)?.token;
    if (token === undefined) throw new Error(`no token was posted for ${id}`);
    return token;
  };
  return { posted, notify, tokenOf };
}

/** A runtime whose inbox posts to a receiver that gets `person`'s token. */
async function posting(options: Parameters<typeof refundRuntime>[0] = {}, person?: Readonly<Record<string, unknown>>) {
  const hook = await receiver(person);
  const interventions = refundRuntime({ inbox: createApprovalInbox({ notify: hook.notify }), ...options });
  return { ...hook, interventions, ...refunds() };
}

const { warnings } = processWarnings();
afterEach(() => {
  vi.useRealTimers();
});

describe.each(MODES)('approval notifications to a webhook, through interventions.%s', (mode) => {
  it("should post 'created' then 'answered', and run the call once after the manager answered with the posted token", async () => {
    const { interventions, tools, executions, posted, tokenOf } = await posting();
    const { history, approvalId } = await askRefund(interventions, mode, tools);
    expect(posted).toEqual([
      {
        type: 'created',
        summary: 'alice asks to run refund (Refund 50?). It needs a manager.',
        id: approvalId,
        status: 'pending',
        token: expect.any(String),
      },
    ]);
    const answered = await interventions.inbox.answer(approvalId, { approved: true, token: tokenOf(approvalId) });
    expect(answered).toMatchObject({ type: 'approved', request: { status: 'approved', answeredBy: 'bob' } });
    expect(posted.map(({ type, summary, status }) => ({ type, summary, status }))).toEqual([
      expect.objectContaining({ type: 'created' }),
      { type: 'answered', summary: "bob approved alice's call to refund.", status: 'approved' },
    ]);
    expect(executions).toEqual([]);
    const { model } = await resumeFromInbox(interventions, mode, tools, history);
    expect(executions).toEqual([50]);
    expect(toolResultsSent(model, 0)).toEqual({ r1: { type: 'text', value: 'refunded 50' } });
    // answered once: the token admits nothing more, and a replayed resume runs nothing
    expect(await interventions.inbox.answer(approvalId, { approved: true, token: tokenOf(approvalId) })).toMatchObject({ type: 'closed' });
    await resumeFromInbox(interventions, mode, tools, history);
    expect(executions).toEqual([50]);
    expect(posted).toHaveLength(2);
  });

  it("should post a refusal's reason in the 'answered' summary", async () => {
    const { interventions, tools, executions, posted, tokenOf } = await posting();
    const { approvalId } = await askRefund(interventions, mode, tools);
    const refused = await interventions.inbox.answer(approvalId, { approved: false, reason: 'not refundable', token: tokenOf(approvalId) });
    expect(refused).toMatchObject({ type: 'refused', request: { status: 'refused' } });
    expect(posted.at(-1)).toEqual({
      type: 'answered',
      summary: "bob refused alice's call to refund: not refundable.",
      id: approvalId,
      status: 'refused',
    });
    expect(executions).toEqual([]);
  });

  it("should post each approval counted under a quorum as it stands, and the approval that completes it with everyone's names", async () => {
    const { interventions, tools, executions, posted, tokenOf } = await posting({ confirm: { ...MANAGERS, quorum: 2 } });
    const { history, approvalId } = await askRefund(interventions, mode, tools);
    expect(await interventions.inbox.answer(approvalId, { approved: true, token: tokenOf(approvalId) })).toMatchObject({ type: 'waiting' });
    expect(await interventions.inbox.answer(approvalId, { approved: true, runtimeContext: CAROL })).toMatchObject({ type: 'approved' });
    expect(posted.map(({ type, summary, status }) => ({ type, summary, status }))).toEqual([
      { type: 'created', summary: 'alice asks to run refund (Refund 50?). It needs a manager, 2 approvals.', status: 'pending' },
      { type: 'answered', summary: "bob approved alice's call to refund: 1 of 2 approvals, 1 more needed.", status: 'pending' },
      { type: 'answered', summary: "bob and carol approved alice's call to refund.", status: 'approved' },
    ]);
    await resumeFromInbox(interventions, mode, tools, history);
    expect(executions).toEqual([50]);
  });

  it("should post 'expired' once for a request found unanswered past its expiry", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { interventions, tools, executions, posted, tokenOf } = await posting({ confirm: { ...MANAGERS, expiresInMs: 60_000 } });
    const { history, approvalId } = await askRefund(interventions, mode, tools);
    vi.setSystemTime(Date.now() + 10 * 60_000);
    expect((await interventions.inbox.get(approvalId, { runtimeContext: BOB }))?.status).toBe('expired');
    expect((await interventions.inbox.list({ runtimeContext: BOB, status: 'any' })).requests.map((request) => request.status)).toEqual([
      'expired',
    ]);
    // the token expired with it
    expect(await interventions.inbox.answer(approvalId, { approved: true, token: tokenOf(approvalId) })).toMatchObject({
      type: 'not-allowed',
    });
    await resumeFromInbox(interventions, mode, tools, history);
    expect(executions).toEqual([]);
    expect(posted.map(({ type, summary, status }) => ({ type, summary, status }))).toEqual([
      expect.objectContaining({ type: 'created' }),
      { type: 'expired', summary: "alice's request to run refund expired unanswered.", status: 'expired' },
    ]);
  });

  it("should post 'withdrawn' when the asker withdraws, and the posted token then admits nothing", async () => {
    const { interventions, tools, executions, posted, tokenOf } = await posting();
    const { history, approvalId } = await askRefund(interventions, mode, tools);
    expect(await interventions.inbox.withdraw(approvalId, { runtimeContext: ALICE, reason: 'sorted it out' })).toMatchObject({
      request: { status: 'withdrawn', answeredBy: 'alice' },
    });
    expect(posted.at(-1)).toEqual({
      type: 'withdrawn',
      summary: "alice's request to run refund was withdrawn.",
      id: approvalId,
      status: 'withdrawn',
    });
    expect(await interventions.inbox.answer(approvalId, { approved: true, token: tokenOf(approvalId) })).toMatchObject({ type: 'closed' });
    await resumeFromInbox(interventions, mode, tools, history);
    expect(executions).toEqual([]);
    expect(posted).toHaveLength(2);
  });
});

describe.each(MODES)('answer tokens, through interventions.%s', (mode) => {
  /** Answers with `token`; asserts it admitted nothing: not allowed, still pending, nothing to resume with, nobody told. */
  async function admitsNothing(
    { interventions, posted }: Awaited<ReturnType<typeof posting>>,
    { history, approvalId }: { readonly history: readonly ModelMessage[]; readonly approvalId: string },
    token: string,
  ) {
    const told = posted.length;
    const result = await interventions.inbox.answer(approvalId, { approved: true, token });
    expect(result).toMatchObject({ type: 'not-allowed', request: { status: 'pending' } });
    expect((await interventions.inbox.get(approvalId, { runtimeContext: BOB }))?.status).toBe('pending');
    expect(await interventions.inbox.resume(history)).toEqual(history);
    expect(posted).toHaveLength(told);
    return result;
  }

  it('should admit nothing with a token for someone who may not answer', async () => {
    const setup = await posting({}, ERIN);
    const asked = await askRefund(setup.interventions, mode, setup.tools);
    const result = await admitsNothing(setup, asked, setup.tokenOf(asked.approvalId));
    expect(result.type !== 'not-found' && result.reason).toContain('erin may not answer this request (it needs a manager)');
  });

  it("should admit nothing with another request's token", async () => {
    const setup = await posting();
    const { history, approvalIds } = await askRefunds(setup.interventions, mode, setup.tools, { inputs: [{ amount: 50 }, { amount: 70 }] });
    const [first, second] = approvalIds as [string, string];
    await admitsNothing(setup, { history, approvalId: second }, setup.tokenOf(first));
  });

  it('should admit nothing with a changed token: its claims, or its signature', async () => {
    const setup = await posting();
    const asked = await askRefund(setup.interventions, mode, setup.tools);
    const token = setup.tokenOf(asked.approvalId);
    const [body = '', mac = ''] = token.split('.');
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Record<string, unknown>;
    const promoted = Buffer.from(JSON.stringify({ ...claims, person: { userId: 'erin', role: 'manager' } })).toString('base64url');
    await admitsNothing(setup, asked, `${promoted}.${mac}`);
    await admitsNothing(setup, asked, `${body}.${mac[0] === 'A' ? 'B' : 'A'}${mac.slice(1)}`);
    // the last character of a signature carries two bits that base64 decoding ignores: changed, the token is another
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = alphabet[alphabet.indexOf(mac.at(-1) ?? '') ^ 1];
    await admitsNothing(setup, asked, `${body}.${mac.slice(0, -1)}${last}`);
    await admitsNothing(setup, asked, `${token}=`);
    await admitsNothing(setup, asked, `${token}.`);
    await admitsNothing(setup, asked, 'not a token');
  });

  it('should admit nothing with a token past the expiry of its request', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const setup = await posting({ confirm: { ...MANAGERS, expiresInMs: 60_000 } });
    const asked = await askRefund(setup.interventions, mode, setup.tools);
    vi.setSystemTime(Date.now() + 61_000);
    const result = await setup.interventions.inbox.answer(asked.approvalId, { approved: true, token: setup.tokenOf(asked.approvalId) });
    expect(result).toMatchObject({ type: 'not-allowed', request: { status: 'expired' } });
    await resumeFromInbox(setup.interventions, mode, setup.tools, asked.history);
    expect(setup.executions).toEqual([]);
  });

  it("should admit nothing with a token signed by another runtime's secret", async () => {
    const setup = await posting();
    const asked = await askRefund(setup.interventions, mode, setup.tools);
    const [body = ''] = setup.tokenOf(asked.approvalId).split('.');
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    const forged = await signAnswerToken('another runtime, another secret of 32 bytes', claims);
    await admitsNothing(setup, asked, forged);
  });

  it('should still admit a token after the key is rotated (approvalSecret: [new, old]), on a runtime sharing the inbox', async () => {
    const hook = await receiver();
    const inbox = createApprovalInbox({ notify: hook.notify });
    const approvalLedger = createApprovalLedger();
    const before = refundRuntime({ inbox, options: { approvalLedger } });
    const after = refundRuntime({
      inbox,
      options: { approvalLedger, approvalSecret: ['a new approval secret, also of 32 bytes', SECRET] },
    });
    const { tools, executions } = refunds();
    const { history, approvalId } = await askRefund(before, mode, tools);
    expect(await after.inbox.answer(approvalId, { approved: true, token: hook.tokenOf(approvalId) })).toMatchObject({ type: 'approved' });
    await resumeFromInbox(after, mode, tools, history);
    expect(executions).toEqual([50]);
  });
});

describe.each(MODES)('a notify that throws, through interventions.%s', (mode) => {
  it("should leave the request working, and warn 'inbox-notify-failed' for each notification", async () => {
    const interventions = refundRuntime({
      inbox: createApprovalInbox({
        notify: () => {
          throw new Error('the webhook is down');
        },
      }),
    });
    const { tools, executions } = refunds();
    const { history, approvalId } = await askRefund(interventions, mode, tools);
    expect((await interventions.inbox.list({ runtimeContext: BOB })).requests.map((request) => request.id)).toEqual([approvalId]);
    expect(await interventions.inbox.answer(approvalId, { approved: true, runtimeContext: BOB })).toMatchObject({ type: 'approved' });
    await resumeFromInbox(interventions, mode, tools, history);
    expect(executions).toEqual([50]);
    expect(warnings.map((warning) => (warning as Error & { code?: string }).code)).toEqual(['inbox-notify-failed', 'inbox-notify-failed']);
    expect(warnings[0]?.message).toContain(`notify threw (the webhook is down) on a 'created' notification of request ${approvalId}`);
  });

  it('should not hold the run for a notify that never answers: it goes on after notifyTimeoutMs, with a warning', async () => {
    const interventions = refundRuntime({ inbox: createApprovalInbox({ notify: () => new Promise<void>(() => {}), notifyTimeoutMs: 50 }) });
    const { tools } = refunds();
    const { approvalId } = await askRefund(interventions, mode, tools);
    expect((await interventions.inbox.list({ runtimeContext: BOB })).requests.map((request) => request.id)).toEqual([approvalId]);
    expect(warnings[0]?.message).toContain(`notify did not answer within 50 ms on a 'created' notification of request ${approvalId}`);
  });
});
