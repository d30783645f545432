/**
 * The approval inbox, tried as a support team would use it: an employee's
 * refund waits for a manager, who lists it, answers it by id, and the
 * employee's next request continues from the inbox's answer (the client
 * carries no approval part). Through `interventions.generateText` and
 * `streamText`, asserting what ran and what the model was sent.
 */
import { isStepCount, type ModelMessage, ToolLoopAgent } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { approvalAnswer } from '../../src/client/index.ts';
import {
  type ApprovalNotification,
  type ConfirmOptions,
  createApprovalInbox,
  createApprovalLedger,
  createInterventions,
  defineHandler,
  InterventionActions,
} from '../../src/index.ts';
import { ALICE, BOB, CAROL, ERIN, MANAGERS, refunds, SECRET } from '../helpers/inbox-refunds.ts';
import { MODES, type Mode, run } from '../helpers/run-both.ts';
import { scriptedModel, step, text, toolCall, toolResultsSent } from '../helpers/scripted-model.ts';

function setup(options: ConfirmOptions = MANAGERS) {
  const notifications: ApprovalNotification[] = [];
  const inbox = createApprovalInbox({ notify: (event) => void notifications.push(event) });
  const interventions = createInterventions({
    approvalSecret: SECRET,
    approvalLedger: createApprovalLedger(),
    approvalInbox: inbox,
    handlers: [defineHandler({ name: 'refunds', beforeToolCall: () => InterventionActions.confirm('Refund it?', options) })],
  });
  return { interventions, inbox, notifications, ...refunds() };
}

async function ask(interventions: ReturnType<typeof setup>['interventions'], mode: Mode, tools: ReturnType<typeof refunds>['tools']) {
  const prompt: ModelMessage[] = [{ role: 'user', content: 'refund 50' }];
  const first = await run(interventions, mode, {
    model: scriptedModel(step(toolCall('r1', 'refund', { amount: 50 }))),
    tools,
    stopWhen: isStepCount(3),
    messages: prompt,
    runtimeContext: ALICE,
  });
  const request = first.content.find((part) => part.type === 'tool-approval-request') as { approvalId: string } | undefined;
  if (request === undefined) throw new Error('no approval request');
  return { history: [...prompt, ...first.responseMessages], approvalId: request.approvalId };
}

describe.each(MODES)('the approval inbox, through interventions.%s', (mode) => {
  it("should list an employee's request for the managers only, with who asked and who may answer", async () => {
    const { interventions, tools, notifications } = setup();
    const { approvalId } = await ask(interventions, mode, tools);
    const { requests, cursor } = await interventions.inbox.list({ runtimeContext: BOB });
    expect(cursor).toBeUndefined();
    expect(requests).toEqual([
      expect.objectContaining({
        id: approvalId,
        toolName: 'refund',
        input: { amount: 50 },
        prompt: 'Refund it?',
        askedBy: 'alice',
        mayAnswer: 'a manager',
        quorum: 1,
        approvedBy: [],
        conversationId: 'chat-1',
        status: 'pending',
      }),
    ]);
    expect((await interventions.inbox.list({ runtimeContext: ERIN })).requests).toEqual([]);
    // the asker may read her own request, another employee may not
    expect((await interventions.inbox.get(approvalId, { runtimeContext: ALICE }))?.status).toBe('pending');
    expect(await interventions.inbox.get(approvalId, { runtimeContext: ERIN })).toBeUndefined();
    expect(notifications.map((event) => event.type)).toEqual(['created']);
  });

  it("should run the call once, as the employee's, when her next request resumes after a manager approved in the inbox", async () => {
    const { interventions, tools, executions, notifications } = setup();
    const { history, approvalId } = await ask(interventions, mode, tools);
    const answered = await interventions.inbox.answer(approvalId, { approved: true, runtimeContext: BOB });
    expect(answered).toMatchObject({ type: 'approved', request: { status: 'approved', answeredBy: 'bob' } });
    expect(executions).toEqual([]);

    const model = scriptedModel(step(text('refunded')));
    const resumed = await run(interventions, mode, {
      model,
      tools,
      stopWhen: isStepCount(3),
      // the client sends the history as it has it: no approval part
      messages: await interventions.inbox.resume(history),
      runtimeContext: ALICE,
    });
    expect(executions).toEqual([50]);
    expect(toolResultsSent(model, 0)).toEqual({ r1: { type: 'text', value: 'refunded 50' } });
    expect(resumed.decisions.filter((record) => record.handler === 'approval-approvers').map((record) => record.approval)).toEqual([
      expect.objectContaining({ status: 'approved', askedBy: 'alice', answeredBy: 'bob' }),
    ]);
    expect((await interventions.inbox.get(approvalId, { runtimeContext: BOB }))?.status).toBe('executed');
    expect(notifications.map((event) => event.type)).toEqual(['created', 'answered']);
  });

  it('should hold an answer from someone who may not answer, and leave the request pending', async () => {
    const { interventions, tools } = setup();
    const { approvalId } = await ask(interventions, mode, tools);
    const result = await interventions.inbox.answer(approvalId, { approved: true, runtimeContext: ERIN });
    expect(result).toMatchObject({ type: 'not-allowed', request: { status: 'pending' } });
    expect(result.type !== 'not-found' && result.reason).toContain('erin may not answer this request (it needs a manager)');
  });

  it("should refuse for good from the inbox: the employee's resume runs nothing and the model reads the manager's reason", async () => {
    const { interventions, tools, executions } = setup();
    const { history, approvalId } = await ask(interventions, mode, tools);
    expect(await interventions.inbox.answer(approvalId, { approved: false, reason: 'not refundable', runtimeContext: BOB })).toMatchObject({
      type: 'refused',
      request: { status: 'refused', answeredBy: 'bob', reason: 'not refundable' },
    });
    const model = scriptedModel(step(text('ok')));
    await run(interventions, mode, {
      model,
      tools,
      stopWhen: isStepCount(3),
      messages: await interventions.inbox.resume(history),
      runtimeContext: ALICE,
    });
    expect(executions).toEqual([]);
    expect(JSON.stringify(toolResultsSent(model, 0).r1)).toContain('not refundable');
  });

  it("should record a manager's refusal from the inbox as the manager's when the employee's request resumes it, not as a withdrawal", async () => {
    const { interventions, tools } = setup();
    const { history, approvalId } = await ask(interventions, mode, tools);
    await interventions.inbox.answer(approvalId, { approved: false, reason: 'not refundable', runtimeContext: BOB });
    const resumed = await run(interventions, mode, {
      model: scriptedModel(step(text('ok'))),
      tools,
      stopWhen: isStepCount(3),
      messages: await interventions.inbox.resume(history),
      runtimeContext: ALICE,
    });
    expect(resumed.decisions.filter((record) => record.handler === 'approval-approvers')).toEqual([
      expect.objectContaining({
        action: 'deny',
        reason: 'Refused by bob, which is final for this request: nothing was run.',
        approval: expect.objectContaining({ status: 'refused', askedBy: 'alice', answeredBy: 'bob' }),
      }),
    ]);
  });

  it('should count a quorum from the inbox, and run once both managers approved', async () => {
    const { interventions, tools, executions } = setup({ approvers: { roles: ['manager'] }, quorum: 2 });
    const { history, approvalId } = await ask(interventions, mode, tools);
    expect(await interventions.inbox.answer(approvalId, { approved: true, runtimeContext: BOB })).toMatchObject({
      type: 'waiting',
      request: { status: 'pending', approvedBy: ['bob'] },
    });
    expect(await interventions.inbox.answer(approvalId, { approved: true, runtimeContext: CAROL })).toMatchObject({
      type: 'approved',
      request: { status: 'approved', approvedBy: ['bob', 'carol'] },
    });
    await run(interventions, mode, {
      model: scriptedModel(step(text('done'))),
      tools,
      stopWhen: isStepCount(3),
      messages: await interventions.inbox.resume(history),
      runtimeContext: ALICE,
    });
    expect(executions).toEqual([50]);
  });

  it('should close a request answered in the chat: it leaves the inbox', async () => {
    const { interventions, tools, executions } = setup();
    const { history, approvalId } = await ask(interventions, mode, tools);
    await run(interventions, mode, {
      model: scriptedModel(step(text('done'))),
      tools,
      stopWhen: isStepCount(3),
      messages: [...history, { role: 'tool', content: [{ type: 'tool-approval-response', approvalId, approved: true }] }],
      runtimeContext: BOB,
    });
    expect(executions).toEqual([50]);
    expect((await interventions.inbox.list({ runtimeContext: BOB })).requests).toEqual([]);
    expect((await interventions.inbox.get(approvalId, { runtimeContext: BOB }))?.status).toBe('executed');
  });

  it('should withdraw unanswered requests when the conversation moves on with a new message', async () => {
    const { interventions, tools, executions } = setup();
    const { history, approvalId } = await ask(interventions, mode, tools);
    const moved = await interventions.inbox.resume([...history, { role: 'user', content: 'never mind' }]);
    expect((await interventions.inbox.get(approvalId, { runtimeContext: BOB }))?.status).toBe('withdrawn');
    // the history the next run gets has a result for the call, before the new message: the model call is valid
    const model = scriptedModel(step(text('ok')));
    await run(interventions, mode, { model, tools, stopWhen: isStepCount(3), messages: moved, runtimeContext: ALICE });
    expect(JSON.stringify(toolResultsSent(model, 0).r1)).toContain('new message instead of answering');
    expect(model.calls[0]?.prompt.at(-1)).toMatchObject({ role: 'user' });
    expect(await interventions.inbox.answer(approvalId, { approved: true, runtimeContext: BOB })).toMatchObject({ type: 'closed' });
    expect(executions).toEqual([]);
  });
});

describe('the approval inbox, through a ToolLoopAgent with interventions.agentSettings', () => {
  it.each(['generate', 'stream'] as const)(
    "should list the agent's request, and run it once as the employee's after a manager approved in the inbox (agent.%s)",
    async (method) => {
      const { interventions, tools, executions } = setup();
      const agent = (model: ReturnType<typeof scriptedModel>) =>
        new ToolLoopAgent(
          interventions.agentSettings({
            model,
            tools,
            stopWhen: isStepCount(3),
            callOptionsSchema: z.object({ userId: z.string(), role: z.string(), sessionId: z.string() }),
            prepareCall: ({ options, ...rest }) => ({ ...rest, runtimeContext: options }),
          }),
        );
      const call = async (messages: ModelMessage[], model: ReturnType<typeof scriptedModel>) => {
        if (method === 'generate') return (await agent(model).generate({ messages, options: ALICE })).responseMessages;
        const result = await agent(model).stream({ messages, options: ALICE });
        await result.consumeStream();
        return (await result.response).messages;
      };
      const prompt: ModelMessage[] = [{ role: 'user', content: 'refund 50' }];
      const history = [...prompt, ...(await call(prompt, scriptedModel(step(toolCall('r1', 'refund', { amount: 50 })))))];
      const [request] = (await interventions.inbox.list({ runtimeContext: BOB })).requests;
      expect(request).toMatchObject({ toolName: 'refund', askedBy: 'alice', status: 'pending' });
      await interventions.inbox.answer(request?.id ?? '', { approved: true, runtimeContext: BOB });
      await call(await interventions.inbox.resume(history), scriptedModel(step(text('refunded'))));
      expect(executions).toEqual([50]);
    },
  );
});

describe.each(MODES)('an approval given in the inbox, sent back otherwise (interventions.%s)', (mode) => {
  it("should not lend the manager's approval to other arguments the requester sends: nothing runs, the request waits", async () => {
    const { interventions, tools, executions } = setup();
    const { history, approvalId } = await ask(interventions, mode, tools);
    await interventions.inbox.answer(approvalId, { approved: true, runtimeContext: BOB });
    const { reason } = approvalAnswer({ id: approvalId, approved: true, input: { amount: 5000 } });
    const model = scriptedModel(step(text('done')));
    const outcome = await run(interventions, mode, {
      model,
      tools,
      stopWhen: isStepCount(3),
      messages: [...history, { role: 'tool', content: [{ type: 'tool-approval-response', approvalId, approved: true, reason }] }],
      runtimeContext: ALICE,
    });
    expect(executions).toEqual([]);
    expect(model.calls).toHaveLength(0);
    expect(outcome.decisions.filter((record) => record.handler === 'approval-approvers').map((record) => record.approval?.status)).toEqual([
      'not-allowed',
    ]);
  });
});

describe("requests whose approvers the app's own test decides (allow)", () => {
  it('should list and admit nobody in the inbox when a rule is only a predicate: it is answered in the chat', async () => {
    const { interventions, tools, executions } = setup({ approvers: { allow: (person) => person.userId === 'bob' } });
    const { approvalId } = await ask(interventions, 'generateText', tools);
    expect((await interventions.inbox.list({ runtimeContext: BOB })).requests).toEqual([]);
    expect((await interventions.inbox.list({ runtimeContext: ERIN })).requests).toEqual([]);
    const result = await interventions.inbox.answer(approvalId, { approved: true, runtimeContext: ERIN });
    expect(result).toMatchObject({ type: 'not-allowed', request: { status: 'pending' } });
    expect(executions).toEqual([]);
  });

  it('should judge a rule of roles and a predicate by its roles in the inbox, and by the predicate again on resume', async () => {
    const { interventions, tools, executions } = setup({ approvers: { roles: ['manager'], allow: (person) => person.userId === 'erin' } });
    const { history, approvalId } = await ask(interventions, 'generateText', tools);
    expect((await interventions.inbox.list({ runtimeContext: BOB })).requests).toHaveLength(1);
    expect((await interventions.inbox.list({ runtimeContext: ERIN })).requests).toEqual([]);
    expect(await interventions.inbox.answer(approvalId, { approved: true, runtimeContext: BOB })).toMatchObject({ type: 'approved' });
    await run(interventions, 'generateText', {
      model: scriptedModel(step(text('done'))),
      tools,
      stopWhen: isStepCount(3),
      messages: await interventions.inbox.resume(history),
      runtimeContext: ALICE,
    });
    expect(executions).toEqual([50]);
  });
});

describe.each(MODES)('an answer in the chat racing one in the inbox (interventions.%s)', (mode) => {
  it("should run nothing on a manager's chat approval when another manager's refusal closed the request first in the inbox", async () => {
    const { interventions, inbox, tools, executions } = setup();
    const { history, approvalId } = await ask(interventions, mode, tools);
    // the refusal on another instance has closed the request, and not yet reached the ledger
    await inbox.close(approvalId, { status: 'refused', by: 'carol', context: CAROL, at: Date.now(), reason: 'not refundable' });
    const model = scriptedModel(step(text('ok')));
    const outcome = await run(interventions, mode, {
      model,
      tools,
      stopWhen: isStepCount(3),
      messages: [...history, { role: 'tool', content: [{ type: 'tool-approval-response', approvalId, approved: true }] }],
      runtimeContext: BOB,
    });
    expect(executions).toEqual([]);
    expect(outcome.decisions.filter((record) => record.handler === 'approval-approvers').map((record) => record.reason)).toContainEqual(
      expect.stringContaining('was refused first by carol'),
    );
    expect(JSON.stringify(toolResultsSent(model, 0).r1)).toContain('was refused first by carol');
    expect((await interventions.inbox.get(approvalId, { runtimeContext: BOB }))?.status).toBe('refused');
  });
});
