/**
 * Every answer is admitted in one place, in one order: the request verified,
 * its expiry, who may answer, the count (a refusal by an approver is final;
 * a quorum counts votes for the arguments that will run), and only then do
 * the handlers decide again, remember anything, and the call execute, once.
 * Tried as the people of a company would act, through
 * `interventions.generateText` and `streamText`, in one process (the same
 * rules across processes sharing Redis: `people-across-instances.test.ts`).
 */
import { generateText, isStepCount, type ModelMessage, tool } from 'ai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { type ApprovalAnswer, approvalAnswer } from '../../src/client/index.ts';
import {
  type ConfirmOptions,
  createApprovalLedger,
  createInterventions,
  type DecisionRecord,
  defineHandler,
  guardTools,
  humanApproval,
  InterventionActions,
  type InterventionHandlerLike,
} from '../../src/index.ts';
import { createMemoryStore } from '../../src/store/create-memory-store.ts';
import { approvalRequests } from '../helpers/approval-requests.ts';
import { MODES, type Mode, run } from '../helpers/run-both.ts';
import { scriptedModel, step, text, toolCall, toolResultsSent } from '../helpers/scripted-model.ts';

const SECRET = 'a shared approval secret of at least 32 bytes';
const ALICE = { userId: 'alice', role: 'employee', sessionId: 'chat-1' };
const ERIN = { userId: 'erin', role: 'employee', sessionId: 'chat-1' };
const BOB = { userId: 'bob', role: 'manager' };
const CAROL = { userId: 'carol', role: 'manager' };
const DAVE = { userId: 'dave', role: 'manager' };

/** A refund tool that counts what it ran. */
function refunds() {
  const executions: unknown[] = [];
  const tools = {
    refund: tool({
      inputSchema: z.object({ amount: z.number(), to: z.string().optional() }),
      execute: async (input) => {
        executions.push(input.to === undefined ? input.amount : `${input.amount} to ${input.to}`);
        return `refunded ${input.amount}`;
      },
    }),
  };
  return { executions, tools };
}

function runtimeWith(handler: InterventionHandlerLike) {
  return createInterventions({ approvalSecret: SECRET, approvalLedger: createApprovalLedger(), handlers: [handler] });
}

/** A handler confirming every refund with `options`. */
const confirming = (options: ConfirmOptions) =>
  defineHandler({ name: 'refunds', beforeToolCall: () => InterventionActions.confirm('Refund it?', options) });

type Runtime = ReturnType<typeof runtimeWith>;

/** Asks for a refund as `asker`: how to answer that request, as someone, with an answer (typed, or a plain one). */
async function asked(
  interventions: Runtime,
  mode: Mode,
  tools: ReturnType<typeof refunds>['tools'],
  asker: Record<string, unknown>,
  id = 'r1',
) {
  const prompt: ModelMessage[] = [{ role: 'user', content: 'refund 50' }];
  const first = await run(interventions, mode, {
    model: scriptedModel(step(toolCall(id, 'refund', { amount: 50 }))),
    tools,
    stopWhen: isStepCount(3),
    messages: prompt,
    runtimeContext: asker,
  });
  const request = first.content.find((part) => part.type === 'tool-approval-request') as { approvalId: string } | undefined;
  if (request === undefined) throw new Error('no approval request');
  const history = [...prompt, ...first.responseMessages];
  const answer = async (approver: Record<string, unknown>, given: Omit<ApprovalAnswer, 'id'> = { approved: true }) => {
    const model = scriptedModel(step(text('done')));
    const { reason } = approvalAnswer({ id: request.approvalId, ...given });
    const outcome = await run(interventions, mode, {
      model,
      tools,
      stopWhen: isStepCount(3),
      messages: [
        ...history,
        { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request.approvalId, approved: given.approved, reason }] },
      ],
      runtimeContext: approver,
    });
    return { outcome, model, records: outcome.decisions };
  };
  return { answer, asked: first };
}

const approvalsOf = (records: readonly DecisionRecord[]) => records.filter((record) => record.handler.startsWith('approval-'));
const requestsIn = (content: ReadonlyArray<{ readonly type: string }>) => content.filter((part) => part.type === 'tool-approval-request');

afterEach(() => {
  vi.useRealTimers();
});

describe.each(MODES)('one admission of answers, in one order, through interventions.%s', (mode) => {
  describe('what a handler remembers, it remembers from an admitted answer only', () => {
    it.each([
      ['always', 'the asker herself', ALICE],
      ['session', 'another employee of her chat', ERIN],
    ] as const)(
      "should remember nothing of a '%s' answer from %s, who may not answer: her next refund is asked again",
      async (remember, _who, by) => {
        const { executions, tools } = refunds();
        const interventions = runtimeWith(
          humanApproval({ tools: ['refund'], approvers: { roles: ['manager'] }, remember: { store: createMemoryStore() } }),
        );
        const { answer } = await asked(interventions, mode, tools, ALICE);
        const { records, model } = await answer(by, { approved: true, remember });
        expect(executions).toEqual([]);
        expect(model.calls).toHaveLength(0);
        expect(approvalsOf(records).map((record) => record.approval?.status)).toEqual(['not-allowed']);
        // the handler never decided on an answer that was not admitted: no record of it claims an approval
        expect(records.filter((record) => record.handler === 'human-approval' && record.lifecycle === 'beforeToolCall')).toEqual([]);

        const next = await asked(interventions, mode, tools, ALICE, 'r2');
        expect(executions).toEqual([]);
        expect(requestsIn(next.asked.content)).toHaveLength(1);
      },
    );

    it("should remember a manager's refusal with 'always' for the person who asked: her next refund is refused without asking", async () => {
      const { executions, tools } = refunds();
      const interventions = runtimeWith(
        humanApproval({ tools: ['refund'], approvers: { roles: ['manager'] }, remember: { store: createMemoryStore() } }),
      );
      const { answer } = await asked(interventions, mode, tools, ALICE);
      const refused = await answer(BOB, { approved: false, reason: 'not refundable', remember: 'always' });
      expect(approvalsOf(refused.records).map((record) => record.approval?.status)).toEqual(['refused']);
      const model = scriptedModel(step(toolCall('r2', 'refund', { amount: 7000 })), step(text('refused')));
      const next = await run(interventions, mode, {
        model,
        tools,
        stopWhen: isStepCount(3),
        messages: [{ role: 'user', content: 'refund 7000' }],
        runtimeContext: ALICE,
      });
      // nobody is asked: the remembered refusal denies it, and the model reads why
      expect(approvalRequests(next.content)).toEqual([]);
      expect(JSON.stringify(toolResultsSent(model, 1).r2)).toContain('The user chose never to allow');
      expect(executions).toEqual([]);
    });

    it("should remember nothing of one manager's 'always' at 1 of a quorum of 2: the next refund needs two managers again", async () => {
      const { executions, tools } = refunds();
      const interventions = runtimeWith(
        humanApproval({ tools: ['refund'], approvers: { roles: ['manager'] }, quorum: 2, remember: { store: createMemoryStore() } }),
      );
      const { answer } = await asked(interventions, mode, tools, ALICE);
      const { records } = await answer(BOB, { approved: true, remember: 'always' });
      expect(executions).toEqual([]);
      expect(approvalsOf(records).map((record) => record.approval?.status)).toEqual(['awaiting-quorum']);
      expect(records.filter((record) => record.handler === 'human-approval' && record.lifecycle === 'beforeToolCall')).toEqual([]);
      const next = await asked(interventions, mode, tools, ALICE, 'r2');
      expect(requestsIn(next.asked.content)).toHaveLength(1);
      expect(executions).toEqual([]);
    });
  });

  it('should admit nobody by an approver predicate that throws: the other employee’s approval runs nothing, and the record says why', async () => {
    const { executions, tools } = refunds();
    const allow = (approver: Readonly<Record<string, unknown>>) => {
      if (approver.userId !== 'bob') throw new Error('directory lookup failed');
      return true;
    };
    const { answer } = await asked(runtimeWith(confirming({ approvers: { allow } })), mode, tools, ALICE);
    const byErin = await answer(ERIN);
    expect(executions).toEqual([]);
    expect(byErin.model.calls).toHaveLength(0);
    const [record] = approvalsOf(byErin.records);
    expect(record?.approval).toMatchObject({ status: 'not-allowed', askedBy: 'alice', answeredBy: 'erin' });
    expect(record?.reason).toMatch(/predicate threw \(.*directory lookup failed\)/);
    // the right person still can
    const byBob = await answer(BOB);
    expect(executions).toEqual([50]);
    expect(approvalsOf(byBob.records).at(-1)?.approval).toMatchObject({ status: 'approved', answeredBy: 'bob' });
  });

  it('should count a quorum for the arguments that run: an edit after one approval starts its own count, which every approver must give', async () => {
    const { executions, tools } = refunds();
    const { answer } = await asked(runtimeWith(confirming({ approvers: { roles: ['manager'] }, quorum: 2 })), mode, tools, ALICE);
    await answer(BOB);
    const edit = { amount: 5000, to: 'an outside account' };
    const edited = await answer(CAROL, { approved: true, input: edit });
    expect(executions).toEqual([]);
    expect(approvalsOf(edited.records).at(-1)?.approval).toMatchObject({ status: 'awaiting-quorum', approvedBy: ['carol'] });
    // the edit runs once both saw it
    const both = await answer(BOB, { approved: true, input: edit });
    expect(executions).toEqual(['5000 to an outside account']);
    expect(approvalsOf(both.records).at(-1)?.approval).toMatchObject({ status: 'approved' });
    expect([...(approvalsOf(both.records).at(-1)?.approval?.approvedBy ?? [])].sort()).toEqual(['bob', 'carol']);
  });

  it("should keep a confirm's expiry when someone who may not answer answered early: a manager's answer after it is expired", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { executions, tools } = refunds();
    const interventions = runtimeWith(
      humanApproval({
        tools: ['refund'],
        approvers: { roles: ['manager'] },
        expiresInMs: 60_000,
        remember: { store: createMemoryStore() },
      }),
    );
    const { answer } = await asked(interventions, mode, tools, ALICE);
    await answer(ERIN);
    vi.setSystemTime(Date.now() + 10 * 60_000);
    const late = await answer(BOB);
    expect(executions).toEqual([]);
    expect(JSON.stringify(toolResultsSent(late.model, 0).r1)).toContain('expired');
  });

  it("should leave the request pending, unanswered, for a refusal from someone who may not answer: no model is called, it is recorded, and a manager's approval then runs it", async () => {
    const { executions, tools } = refunds();
    const { answer } = await asked(runtimeWith(confirming({ approvers: { roles: ['manager'] } })), mode, tools, ALICE);
    const byErin = await answer(ERIN, { approved: false, reason: 'no' });
    expect(byErin.model.calls).toHaveLength(0);
    expect(approvalsOf(byErin.records).map((record) => record.approval)).toEqual([
      expect.objectContaining({ status: 'not-allowed', askedBy: 'alice', answeredBy: 'erin' }),
    ]);
    expect(approvalsOf(byErin.records)[0]?.reason).toContain('their refusal was not used');
    await answer(BOB);
    expect(executions).toEqual([50]);
  });

  it('should let the person who asked withdraw a request only a manager may answer: final, and a manager’s approval then runs nothing', async () => {
    const { executions, tools } = refunds();
    const { answer } = await asked(runtimeWith(confirming({ approvers: { roles: ['manager'] } })), mode, tools, ALICE);
    const withdrawn = await answer(ALICE, { approved: false, reason: 'Withdrawn before a decision' });
    expect(withdrawn.model.calls).toHaveLength(1);
    expect(approvalsOf(withdrawn.records).at(-1)).toMatchObject({
      reason: expect.stringContaining('Withdrawn by alice'),
      approval: { status: 'refused', askedBy: 'alice', answeredBy: 'alice' },
    });
    await answer(BOB);
    expect(executions).toEqual([]);
  });

  it("should keep an approver's refusal under a quorum final: the earlier history sent again with a third manager's approval runs nothing", async () => {
    const { executions, tools } = refunds();
    const { answer } = await asked(runtimeWith(confirming({ approvers: { roles: ['manager'] }, quorum: 2 })), mode, tools, ALICE);
    await answer(BOB);
    const refused = await answer(CAROL, { approved: false, reason: 'fraud suspected' });
    expect(approvalsOf(refused.records).at(-1)?.approval).toMatchObject({ status: 'refused', answeredBy: 'carol' });
    expect(JSON.stringify(toolResultsSent(refused.model, 0).r1)).toContain('fraud suspected');
    const byDave = await answer(DAVE);
    expect(executions).toEqual([]);
    expect(approvalsOf(byDave.records).at(-1)?.approval).toMatchObject({ status: 'refused', answeredBy: 'dave' });
    expect(JSON.stringify(toolResultsSent(byDave.model, 0).r1)).toContain('refused by carol');
  });
});

describe.each(MODES)('refusals admitted in the same order, through interventions.%s', (mode) => {
  it('should record a refusal given after the expiry as expired, not as a final refusal or one from the wrong person', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { executions, tools } = refunds();
    const { answer } = await asked(runtimeWith(confirming({ approvers: { userIds: ['carol'] }, expiresInMs: 60_000 })), mode, tools, ALICE);
    vi.setSystemTime(Date.now() + 61_000);
    const late = await answer(ERIN, { approved: false, reason: 'no' });
    expect(approvalsOf(late.records).map((record) => record.approval?.status)).toEqual(['expired']);
    expect(executions).toEqual([]);
  });

  it('should hold a refusal from someone without a user id under a quorum (each approver is counted by id), and let two managers approve', async () => {
    const { executions, tools } = refunds();
    const { answer } = await asked(runtimeWith(confirming({ quorum: 2 })), mode, tools, ALICE);
    const anonymous = await answer({ role: 'manager' }, { approved: false, reason: 'no' });
    expect(anonymous.model.calls).toHaveLength(0);
    expect(approvalsOf(anonymous.records).map((record) => record.approval?.status)).toEqual(['not-allowed']);
    expect(approvalsOf(anonymous.records)[0]?.reason).toContain('a quorum counts each approver by user id');
    await answer(BOB);
    await answer(CAROL);
    expect(executions).toEqual([50]);
  });
});

describe('one admission of answers, for tools guarded without a run (guardTools with a plain generateText)', () => {
  it("should remember nothing of the asker's own 'always' answer to a manager-only request: it runs nothing, and her next refund is asked again", async () => {
    const { executions, tools } = refunds();
    const approvalLedger = createApprovalLedger();
    const store = createMemoryStore();
    const handler = humanApproval({ tools: ['refund'], approvers: { roles: ['manager'] }, remember: { store } });
    const guarded = (runtimeContext: Record<string, unknown>) => guardTools(tools, { handlers: [handler], approvalLedger, runtimeContext });
    const prompt: ModelMessage[] = [{ role: 'user', content: 'refund 50' }];
    const first = await generateText({
      model: scriptedModel(step(toolCall('r1', 'refund', { amount: 50 }))),
      tools: guarded(ALICE),
      messages: prompt,
    });
    const [request] = approvalRequests(first.content);
    if (request === undefined) throw new Error('no approval request');
    const { reason } = approvalAnswer({ id: request.approvalId, approved: true, remember: 'always' });
    await generateText({
      model: scriptedModel(step(text('done'))),
      tools: guarded(ALICE),
      messages: [
        ...prompt,
        ...first.response.messages,
        { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request.approvalId, approved: true, reason }] },
      ],
    });
    expect(executions).toEqual([]);
    const next = await generateText({
      model: scriptedModel(step(toolCall('r2', 'refund', { amount: 7000 }))),
      tools: guarded(ALICE),
      messages: prompt,
    });
    expect(executions).toEqual([]);
    expect(approvalRequests(next.content)).toHaveLength(1);
  });
});
