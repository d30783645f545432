/**
 * Answering from the inbox beyond a plain yes or no: an approval with
 * edited arguments (run as edited on the resume; refused as in the chat
 * when the tool's schema rejects them), a withdrawal by the person who asked
 * (and by nobody else), what the inbox refuses to take (InvalidOptionError
 * naming the method and the option), and a runtime without an inbox.
 * Through `interventions.generateText` and `streamText`.
 */
import { describe, expect, it } from 'vitest';
import { type ApprovalNotification, createApprovalInbox, type InboxAnswerInput, InvalidOptionError } from '../../src/index.ts';
import { ALICE, askRefund, BOB, CAROL, ERIN, refundRuntime, refunds, resumeFromInbox } from '../helpers/inbox-refunds.ts';
import { MODES } from '../helpers/run-both.ts';
import { toolResultsSent } from '../helpers/scripted-model.ts';

/** A runtime whose refunds a manager approves, and the notifications its inbox sent. */
function told(options: Parameters<typeof refundRuntime>[0] = {}) {
  const notifications: ApprovalNotification[] = [];
  const interventions = refundRuntime({ inbox: createApprovalInbox({ notify: (event) => void notifications.push(event) }), ...options });
  return { interventions, notifications, ...refunds() };
}

/** The tool calls of the model's first request, as it was sent them. */
const callsSent = (model: Awaited<ReturnType<typeof resumeFromInbox>>['model']) =>
  model.calls[0]?.prompt.flatMap((message) => (message.role === 'assistant' ? message.content : [])) ?? [];

describe.each(MODES)('editing the arguments from the inbox, through interventions.%s', (mode) => {
  it('should run the edited arguments once on the resume, and show the model the call as it ran', async () => {
    const { interventions, tools, executions } = told();
    const { history, approvalId } = await askRefund(interventions, mode, tools);
    expect(await interventions.inbox.answer(approvalId, { approved: true, input: { amount: 20 }, runtimeContext: BOB })).toMatchObject({
      type: 'approved',
      request: { status: 'approved', input: { amount: 50 }, editedInput: { amount: 20 } },
    });
    const { model } = await resumeFromInbox(interventions, mode, tools, history);
    expect(executions).toEqual([20]);
    expect(callsSent(model)).toContainEqual(expect.objectContaining({ type: 'tool-call', toolCallId: 'r1', input: { amount: 20 } }));
    expect(callsSent(model)).not.toContainEqual(expect.objectContaining({ type: 'tool-call', input: { amount: 50 } }));
    expect(toolResultsSent(model, 0)).toEqual({ r1: { type: 'text', value: 'refunded 20' } });
    expect((await interventions.inbox.get(approvalId, { runtimeContext: ALICE }))?.status).toBe('executed');
  });

  it("should refuse an edit the tool's schema rejects, as the chat does: nothing runs, the model reads why, the call keeps its arguments", async () => {
    const { interventions, tools, executions } = told();
    const { history, approvalId } = await askRefund(interventions, mode, tools);
    await interventions.inbox.answer(approvalId, { approved: true, input: { amount: -5 }, runtimeContext: BOB });
    const { model, outcome } = await resumeFromInbox(interventions, mode, tools, history);
    expect(executions).toEqual([]);
    const output = toolResultsSent(model, 0).r1 as { type: string; reason: string };
    expect(output.type).toBe('execution-denied');
    expect(output.reason).toContain('the edited arguments are not valid for "refund": amount:');
    expect(callsSent(model)).toContainEqual(expect.objectContaining({ type: 'tool-call', toolCallId: 'r1', input: { amount: 50 } }));
    expect(outcome.decisions).toContainEqual(expect.objectContaining({ handler: 'approval-edit', action: 'deny', toolCallId: 'r1' }));
    // refused for good, as the chat's answer would be: the inbox says so, and a replay runs nothing
    expect(await interventions.inbox.get(approvalId, { runtimeContext: BOB })).toMatchObject({
      status: 'refused',
      answeredBy: 'bob',
      editedInput: { amount: -5 },
    });
    expect((await interventions.inbox.list({ runtimeContext: BOB, status: 'approved' })).requests).toEqual([]);
    await resumeFromInbox(interventions, mode, tools, history);
    expect(executions).toEqual([]);
  });
});

describe.each(MODES)('withdrawing from the inbox, through interventions.%s', (mode) => {
  it('should let the person who asked withdraw: final, told, and the resume runs nothing', async () => {
    const { interventions, tools, executions, notifications } = told();
    const { history, approvalId } = await askRefund(interventions, mode, tools);
    expect(await interventions.inbox.withdraw(approvalId, { runtimeContext: ALICE, reason: 'found the receipt' })).toMatchObject({
      type: 'refused',
      request: { status: 'withdrawn', answeredBy: 'alice', reason: 'found the receipt' },
    });
    expect(notifications.map((event) => event.type)).toEqual(['created', 'withdrawn']);
    expect((await interventions.inbox.list({ runtimeContext: BOB })).requests).toEqual([]);
    expect(await interventions.inbox.answer(approvalId, { approved: true, runtimeContext: BOB })).toMatchObject({ type: 'closed' });
    const { model } = await resumeFromInbox(interventions, mode, tools, history);
    expect(executions).toEqual([]);
    expect(JSON.stringify(toolResultsSent(model, 0).r1)).toContain('found the receipt');
  });

  it('should refuse a withdrawal by anyone but the person who asked, a manager included, and leave the request pending', async () => {
    const { interventions, tools, notifications } = told();
    const { approvalId } = await askRefund(interventions, mode, tools);
    for (const person of [ERIN, BOB, { sessionId: 'chat-1' }]) {
      expect(await interventions.inbox.withdraw(approvalId, { runtimeContext: person })).toMatchObject({
        type: 'not-allowed',
        reason: 'only the person who asked may withdraw a request',
        request: { status: 'pending' },
      });
    }
    expect(notifications.map((event) => event.type)).toEqual(['created']);
    expect(await interventions.inbox.withdraw('no-such-request', { runtimeContext: ALICE })).toEqual({ type: 'not-found' });
  });
});

describe.each(MODES)('what the inbox refuses to take, through interventions.%s', (mode) => {
  /** The InvalidOptionError `work` rejects with. */
  async function invalid(work: () => Promise<unknown>): Promise<InvalidOptionError> {
    const error = await work().then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    if (!InvalidOptionError.isInstance(error)) throw new Error(`expected an InvalidOptionError, got ${String(error)}`);
    return error;
  }

  it('should name inbox.answer and the option for an answer without exactly one of runtimeContext and token, or with a bad value', async () => {
    const { interventions, tools, executions } = told();
    const { history, approvalId } = await askRefund(interventions, mode, tools);
    const answer = (input: unknown) => () => interventions.inbox.answer(approvalId, input as InboxAnswerInput);
    const cases: Array<[unknown, string]> = [
      [{ approved: true }, 'runtimeContext'],
      [{ approved: true, runtimeContext: BOB, token: 'a.b' }, 'runtimeContext'],
      [{ approved: 'yes', runtimeContext: BOB }, 'approved'],
      [{ runtimeContext: BOB }, 'approved'],
      [{ approved: true, token: 42 }, 'token'],
      [{ approved: true, runtimeContext: 'bob' }, 'runtimeContext'],
      [{ approved: false, input: { amount: 1 }, runtimeContext: BOB }, 'input'],
      [{ approved: false, reason: 42, runtimeContext: BOB }, 'reason'],
      [undefined, 'answer'],
    ];
    for (const [input, option] of cases) {
      const error = await invalid(answer(input));
      expect({ owner: error.owner, option: error.option }).toEqual({ owner: 'inbox.answer', option });
      expect(error.message).toMatch(/^inbox\.answer: /);
    }
    // nothing was answered
    expect(await interventions.inbox.resume(history)).toEqual(history);
    expect(executions).toEqual([]);
  });

  it('should name inbox.list and the option for a bad limit, status or cursor, or a missing runtimeContext', async () => {
    const { interventions } = told();
    for (const limit of [0, -1, 1.5, 101, Number.NaN]) {
      const error = await invalid(() => interventions.inbox.list({ runtimeContext: BOB, limit }));
      expect({ owner: error.owner, option: error.option }).toEqual({ owner: 'inbox.list', option: 'limit' });
    }
    for (const [options, option] of [
      [{ status: 'open' }, 'status'],
      [{ cursor: 42 }, 'cursor'],
    ] as const) {
      const error = await invalid(() => interventions.inbox.list({ runtimeContext: BOB, ...(options as object) }));
      expect({ owner: error.owner, option: error.option }).toEqual({ owner: 'inbox.list', option });
    }
    const missing = await invalid(() => interventions.inbox.list({} as never));
    expect({ owner: missing.owner, option: missing.option }).toEqual({ owner: 'inbox.list', option: 'runtimeContext' });
    const get = await invalid(() => interventions.inbox.get('some-id', { runtimeContext: null as never }));
    expect({ owner: get.owner, option: get.option }).toEqual({ owner: 'inbox.get', option: 'runtimeContext' });
    expect((await interventions.inbox.list({ runtimeContext: CAROL, limit: 100 })).requests).toEqual([]);
  });

  it('should name the method and runtimeContext when the options are left out (a JavaScript caller)', async () => {
    const { interventions } = told();
    const calls: Array<[string, () => Promise<unknown>]> = [
      ['inbox.list', () => interventions.inbox.list(undefined as never)],
      ['inbox.get', () => interventions.inbox.get('some-id', undefined as never)],
      ['inbox.withdraw', () => interventions.inbox.withdraw('some-id', undefined as never)],
    ];
    for (const [owner, call] of calls) {
      const error = await invalid(call);
      expect({ owner: error.owner, option: error.option }).toEqual({ owner, option: 'runtimeContext' });
    }
  });
});

describe.each(MODES)('a runtime without an inbox (approvalInbox: false), through interventions.%s', (mode) => {
  it('should throw a TypeError that says so from every inbox method, and still ask and resume in the chat', async () => {
    const interventions = refundRuntime({ inbox: false });
    const { tools, executions } = refunds();
    const { history, approvalId } = await askRefund(interventions, mode, tools);
    const calls = [
      () => interventions.inbox.list({ runtimeContext: BOB }),
      () => interventions.inbox.get(approvalId, { runtimeContext: BOB }),
      () => interventions.inbox.answer(approvalId, { approved: true, runtimeContext: BOB }),
      () => interventions.inbox.withdraw(approvalId, { runtimeContext: ALICE }),
    ];
    for (const call of calls) {
      await expect(call()).rejects.toThrow(
        new TypeError('interventions.inbox: this runtime has no approval inbox (createInterventions({ approvalInbox: false })).'),
      );
    }
    // resume has nothing to write in: the history as it was
    expect(await interventions.inbox.resume(history)).toEqual(history);
    const answered = [
      ...history,
      { role: 'tool' as const, content: [{ type: 'tool-approval-response' as const, approvalId, approved: true }] },
    ];
    await resumeFromInbox(interventions, mode, tools, answered, BOB);
    expect(executions).toEqual([50]);
  });
});
