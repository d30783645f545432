/**
 * What a person's inbox lists: newest first, a page at a time; only the
 * requests their approvers' rules let them answer (roles, user ids, never
 * their own under `excludeAsker`; never one only a predicate admits to,
 * which only its handler can judge); closed ones with `status: 'any'`; the arguments as
 * the redactors leave them for people (the call runs with the real ones);
 * and a request past its expiry as expired, told once. Through
 * `interventions.generateText` and `streamText`.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type ApprovalNotification,
  type ConfirmOptions,
  createApprovalInbox,
  createRedactor,
  type PendingApproval,
} from '../../src/index.ts';
import { ALICE, askRefund, askRefunds, BOB, CAROL, ERIN, refundRuntime, refunds, resumeFromInbox } from '../helpers/inbox-refunds.ts';
import { MODES } from '../helpers/run-both.ts';
import { toolResultsSent } from '../helpers/scripted-model.ts';

const DAVE = { userId: 'dave', role: 'manager', sessionId: 'chat-2' };
const ids = (requests: readonly PendingApproval[]) => requests.map((request) => request.id);

/** A runtime confirming with `confirm`, and the notifications its inbox sent. */
function told(options: Parameters<typeof refundRuntime>[0] = {}) {
  const notifications: ApprovalNotification[] = [];
  const interventions = refundRuntime({ inbox: createApprovalInbox({ notify: (event) => void notifications.push(event) }), ...options });
  return { interventions, notifications, ...refunds() };
}

afterEach(() => {
  vi.useRealTimers();
});

describe.each(MODES)('listing the inbox, through interventions.%s', (mode) => {
  it('should page 25 requests by 10, newest first: three pages through the cursor, each request once', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { interventions, tools } = told();
    const asked: string[] = [];
    for (let round = 0; round < 5; round++) {
      const inputs = Array.from({ length: 5 }, (_, index) => ({ amount: round * 5 + index + 1 }));
      asked.push(...(await askRefunds(interventions, mode, tools, { inputs })).approvalIds);
      vi.setSystemTime(Date.now() + 1000);
    }
    const pages: PendingApproval[][] = [];
    let cursor: string | undefined;
    do {
      const page = await interventions.inbox.list({ runtimeContext: BOB, limit: 10, ...(cursor === undefined ? {} : { cursor }) });
      pages.push([...page.requests]);
      cursor = page.cursor;
    } while (cursor !== undefined && pages.length < 5);
    expect(pages.map((page) => page.length)).toEqual([10, 10, 5]);
    const listed = pages.flat();
    expect(new Set(ids(listed)).size).toBe(25);
    expect([...ids(listed)].sort()).toEqual([...asked].sort());
    // newest first: the last round's five, then the round before, ...
    const times = listed.map((request) => request.askedAt);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(new Set(listed.slice(0, 5).map((request) => request.input))).toEqual(
      new Set([21, 22, 23, 24, 25].map((amount) => ({ amount }))),
    );
  });

  it('should end on a full page when no later request would be listed: no cursor to an empty page', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { interventions, tools } = told();
    const { approvalId: answered } = await askRefund(interventions, mode, tools);
    await interventions.inbox.answer(answered, { approved: false, reason: 'no', runtimeContext: BOB });
    vi.setSystemTime(Date.now() + 1000);
    const inputs = Array.from({ length: 10 }, (_, index) => ({ amount: index + 1 }));
    const { approvalIds } = await askRefunds(interventions, mode, tools, { inputs });
    const page = await interventions.inbox.list({ runtimeContext: BOB, limit: 10 });
    expect([...ids(page.requests)].sort()).toEqual([...approvalIds].sort());
    expect(page.cursor).toBeUndefined();
    // with every status, the answered one is on a second page
    const first = await interventions.inbox.list({ runtimeContext: BOB, limit: 10, status: 'any' });
    const second = await interventions.inbox.list({ runtimeContext: BOB, limit: 10, status: 'any', cursor: first.cursor as string });
    expect([ids(second.requests), second.cursor]).toEqual([[answered], undefined]);
  });

  it('should list a request only for the roles its approvers name', async () => {
    const { interventions, tools } = told();
    const { approvalId } = await askRefund(interventions, mode, tools);
    expect(ids((await interventions.inbox.list({ runtimeContext: BOB })).requests)).toEqual([approvalId]);
    expect(ids((await interventions.inbox.list({ runtimeContext: { userId: 'fay', roles: ['support', 'manager'] } })).requests)).toEqual([
      approvalId,
    ]);
    expect((await interventions.inbox.list({ runtimeContext: ERIN })).requests).toEqual([]);
    expect((await interventions.inbox.list({ runtimeContext: {} })).requests).toEqual([]);
  });

  it('should list a request only for the user ids its approvers name', async () => {
    const { interventions, tools } = told({ confirm: { approvers: { userIds: ['carol'] } } });
    const { approvalId } = await askRefund(interventions, mode, tools);
    expect(ids((await interventions.inbox.list({ runtimeContext: CAROL })).requests)).toEqual([approvalId]);
    expect((await interventions.inbox.list({ runtimeContext: BOB })).requests).toEqual([]);
    expect(await interventions.inbox.get(approvalId, { runtimeContext: BOB })).toBeUndefined();
  });

  it("should not list a manager's own request for him under excludeAsker, and list it for the other managers", async () => {
    const { interventions, tools } = told({ confirm: { approvers: { roles: ['manager'], excludeAsker: true } } });
    const { approvalIds } = await askRefunds(interventions, mode, tools, { context: DAVE });
    expect((await interventions.inbox.list({ runtimeContext: DAVE })).requests).toEqual([]);
    expect(ids((await interventions.inbox.list({ runtimeContext: BOB })).requests)).toEqual(approvalIds);
    expect(await interventions.inbox.answer(approvalIds[0] as string, { approved: true, runtimeContext: DAVE })).toMatchObject({
      type: 'not-allowed',
    });
  });

  it("should list closed requests with status 'any', and only them with their own status", async () => {
    const { interventions, tools } = told();
    const { approvalIds } = await askRefunds(interventions, mode, tools, { inputs: [{ amount: 1 }, { amount: 2 }, { amount: 3 }] });
    const [approved, refused, pending] = approvalIds as [string, string, string];
    await interventions.inbox.answer(approved, { approved: true, runtimeContext: BOB });
    await interventions.inbox.answer(refused, { approved: false, reason: 'no', runtimeContext: CAROL });
    const statuses = async (status?: PendingApproval['status'] | 'any') =>
      (await interventions.inbox.list({ runtimeContext: BOB, ...(status === undefined ? {} : { status }) })).requests.map(
        (request): [string, string] => [request.id, request.status],
      );
    expect(await statuses()).toEqual([[pending, 'pending']]);
    expect(new Map(await statuses('any'))).toEqual(
      new Map([
        [approved, 'approved'],
        [refused, 'refused'],
        [pending, 'pending'],
      ]),
    );
    expect(await statuses('refused')).toEqual([[refused, 'refused']]);
  });
});

describe.each(MODES)('a predicate approver in the inbox, through interventions.%s', (mode) => {
  const finance: ConfirmOptions = {
    approvers: { allow: (approver) => approver.team === 'finance', label: 'someone in finance' },
  };

  it('should list it for nobody and admit nobody: a predicate only its handler can run is answered in the chat', async () => {
    const { interventions, tools, executions } = told({ confirm: finance });
    const { approvalId } = await askRefund(interventions, mode, tools);
    const gina = { userId: 'gina', team: 'finance' };
    expect(ids((await interventions.inbox.list({ runtimeContext: gina })).requests)).toEqual([]);
    expect(ids((await interventions.inbox.list({ runtimeContext: ERIN })).requests)).toEqual([]);
    expect(await interventions.inbox.answer(approvalId, { approved: true, runtimeContext: gina })).toMatchObject({
      type: 'not-allowed',
      request: { status: 'pending' },
    });
    expect(executions).toEqual([]);
  });
});

describe.each(MODES)('redaction in the inbox, through interventions.%s', (mode) => {
  const emails = createRedactor({ name: 'emails', rules: [{ pattern: /[\w.+-]+@[\w-]+\.[\w.]+/, replacement: '[email]' }] });

  it('should show the arguments redacted in list, get and the notification, and run the call with the real ones', async () => {
    const { interventions, tools, inputs, notifications } = told({ options: { redactors: [emails] } });
    const { history, approvalId } = await askRefund(interventions, mode, tools, { amount: 50, note: 'to alice@example.com' });
    const shown = { amount: 50, note: 'to [email]' };
    expect((await interventions.inbox.list({ runtimeContext: BOB })).requests[0]?.input).toEqual(shown);
    expect((await interventions.inbox.get(approvalId, { runtimeContext: BOB }))?.input).toEqual(shown);
    expect(notifications[0]?.request.input).toEqual(shown);
    await interventions.inbox.answer(approvalId, { approved: true, runtimeContext: BOB });
    expect(notifications.map((event) => event.request.input)).toEqual([shown, shown]);
    const { model } = await resumeFromInbox(interventions, mode, tools, history);
    expect(inputs).toEqual([{ amount: 50, note: 'to alice@example.com' }]);
    expect(toolResultsSent(model, 0)).toEqual({ r1: { type: 'text', value: 'refunded 50' } });
    expect(JSON.stringify(notifications)).not.toContain('alice@example.com');
  });

  it("should show the confirm's prompt and a refusal's reason redacted, as the chat's decision parts show them", async () => {
    const { interventions, tools, notifications } = told({
      options: { redactors: [emails] },
      prompt: ({ amount, note }) => `Refund ${amount} ${note ?? ''}?`,
    });
    const { approvalId } = await askRefund(interventions, mode, tools, { amount: 50, note: 'to alice@example.com' });
    const reason = 'ask billing@example.com first';
    await interventions.inbox.answer(approvalId, { approved: false, reason, runtimeContext: BOB });
    expect(await interventions.inbox.get(approvalId, { runtimeContext: BOB })).toMatchObject({
      prompt: 'Refund 50 to [email]?',
      reason: 'ask [email] first',
    });
    expect(notifications.map((event) => event.summary)).toEqual([
      'alice asks to run refund (Refund 50 to [email]?). It needs a manager.',
      "bob refused alice's call to refund: ask [email] first.",
    ]);
    expect(JSON.stringify(notifications)).not.toContain('@example.com');
  });
});

describe.each(MODES)('expiry in the inbox, through interventions.%s', (mode) => {
  it("should list an unanswered request past its expiry as 'expired', tell the app once, and run nothing on the resume", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { interventions, tools, executions, notifications } = told({
      confirm: { approvers: { roles: ['manager'] }, expiresInMs: 60_000 },
    });
    const { history, approvalId } = await askRefund(interventions, mode, tools);
    vi.setSystemTime(Date.now() + 61_000);
    // found expired by several readers at once: recorded, and told, once
    await Promise.all([
      interventions.inbox.list({ runtimeContext: BOB }),
      interventions.inbox.list({ runtimeContext: CAROL }),
      interventions.inbox.get(approvalId, { runtimeContext: ALICE }),
    ]);
    expect((await interventions.inbox.list({ runtimeContext: BOB })).requests).toEqual([]);
    expect((await interventions.inbox.list({ runtimeContext: BOB, status: 'expired' })).requests).toEqual([
      expect.objectContaining({ id: approvalId, status: 'expired' }),
    ]);
    expect((await interventions.inbox.get(approvalId, { runtimeContext: ALICE }))?.status).toBe('expired');
    expect(await interventions.inbox.answer(approvalId, { approved: true, runtimeContext: BOB })).toMatchObject({
      type: 'expired',
      request: { status: 'expired' },
    });
    expect(notifications.map((event) => event.type)).toEqual(['created', 'expired']);
    const { model } = await resumeFromInbox(interventions, mode, tools, history);
    expect(executions).toEqual([]);
    expect(JSON.stringify(toolResultsSent(model, 0).r1)).toContain('expired');
  });
});
