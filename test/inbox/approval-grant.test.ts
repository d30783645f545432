/**
 * Grants: a manager turns an approval into a grant, never wider than what
 * was asked (the same tool, exactly the approved arguments, for the person
 * who asked, for a time and a number of uses), listed, revocable and
 * recorded. Through `interventions.generateText` and `streamText`.
 */
import { isStepCount, type ModelMessage } from 'ai';
import { describe, expect, it, vi } from 'vitest';
import {
  type ConfirmOptions,
  createApprovalLedger,
  createInterventions,
  defineHandler,
  InterventionActions,
  InvalidOptionError,
} from '../../src/index.ts';
import { ALICE, BOB, refunds, SECRET } from '../helpers/inbox-refunds.ts';
import { MODES, type Mode, run } from '../helpers/run-both.ts';
import { scriptedModel, step, text, toolCall } from '../helpers/scripted-model.ts';

const ALICE_ELSEWHERE = { ...ALICE, sessionId: 'chat-2' };
// another employee of Alice's conversation
const ERIN = { userId: 'erin', role: 'employee', sessionId: 'chat-1' };

function setup(options: ConfirmOptions | { readonly current: ConfirmOptions } = { approvers: { roles: ['manager'] } }) {
  const rules = 'current' in options ? options : { current: options };
  const { executions, tools } = refunds();
  const interventions = createInterventions({
    approvalSecret: SECRET,
    approvalLedger: createApprovalLedger(),
    handlers: [defineHandler({ name: 'refunds', beforeToolCall: () => InterventionActions.confirm('Refund it?', rules.current) })],
  });
  return { interventions, tools, executions };
}

type Setup = ReturnType<typeof setup>;

/** A refund of `amount` asked as `asker`: its approval id, or none when it ran (or was refused) without asking. */
async function refund({ interventions, tools }: Setup, mode: Mode, amount: number, asker: Record<string, unknown>, id: string) {
  const prompt: ModelMessage[] = [{ role: 'user', content: `refund ${amount}` }];
  const outcome = await run(interventions, mode, {
    model: scriptedModel(step(toolCall(id, 'refund', { amount })), step(text('done'))),
    tools,
    stopWhen: isStepCount(3),
    messages: prompt,
    runtimeContext: asker,
  });
  const request = outcome.content.find((part) => part.type === 'tool-approval-request') as { approvalId: string } | undefined;
  return { approvalId: request?.approvalId, history: [...prompt, ...outcome.responseMessages], decisions: outcome.decisions };
}

async function approvedWithGrant(setup_: Setup, mode: Mode, grant: { uses: number; ttlMs: number; conversation?: boolean }) {
  const asked = await refund(setup_, mode, 50, ALICE, 'r1');
  if (asked.approvalId === undefined) throw new Error('not asked');
  const result = await setup_.interventions.inbox.answer(asked.approvalId, { approved: true, runtimeContext: BOB, grant });
  await run(setup_.interventions, mode, {
    model: scriptedModel(step(text('done'))),
    tools: setup_.tools,
    stopWhen: isStepCount(3),
    messages: await setup_.interventions.inbox.resume(asked.history),
    runtimeContext: ALICE,
  });
  return result;
}

describe.each(MODES)('grants from the inbox, through interventions.%s', (mode) => {
  it('should run the same refund again without asking, for as many uses as granted, then ask again', async () => {
    const setup_ = setup();
    const result = await approvedWithGrant(setup_, mode, { uses: 2, ttlMs: 60_000 });
    expect(result).toMatchObject({
      type: 'approved',
      grant: { grantedTo: 'alice', grantedBy: 'bob', uses: 2, used: 0, status: 'active', conversationId: 'chat-1' },
    });
    expect(setup_.executions).toEqual([50]);

    const second = await refund(setup_, mode, 50, ALICE, 'r2');
    expect(second.approvalId).toBeUndefined();
    expect(second.decisions.find((record) => record.handler === 'approval-grant')).toMatchObject({
      action: 'proceed',
      approval: { status: 'approved', askedBy: 'alice', answeredBy: 'bob' },
    });
    await refund(setup_, mode, 50, ALICE, 'r3');
    expect(setup_.executions).toEqual([50, 50, 50]);
    // used up: asked again
    expect((await refund(setup_, mode, 50, ALICE, 'r4')).approvalId).toBeDefined();
    expect(setup_.executions).toEqual([50, 50, 50]);
    expect(await setup_.interventions.inbox.grants({ runtimeContext: ALICE })).toEqual([
      expect.objectContaining({ used: 2, status: 'used-up' }),
    ]);
  });

  it('should never be wider than what was asked: other arguments, another person, another conversation are asked again', async () => {
    const setup_ = setup();
    await approvedWithGrant(setup_, mode, { uses: 5, ttlMs: 60_000 });
    expect((await refund(setup_, mode, 5000, ALICE, 'r2')).approvalId).toBeDefined();
    expect((await refund(setup_, mode, 50, ERIN, 'r3')).approvalId).toBeDefined();
    expect((await refund(setup_, mode, 50, ALICE_ELSEWHERE, 'r4')).approvalId).toBeDefined();
    expect(setup_.executions).toEqual([50]);
  });

  it('should stop at once when revoked, by who granted it or who holds it, and say so in the list', async () => {
    const setup_ = setup();
    const { grant } = (await approvedWithGrant(setup_, mode, { uses: 5, ttlMs: 60_000 })) as { grant: { id: string } };
    expect(await setup_.interventions.inbox.revoke(grant.id, { runtimeContext: ERIN })).toBeUndefined();
    expect(await setup_.interventions.inbox.revoke(grant.id, { runtimeContext: BOB })).toMatchObject({
      status: 'revoked',
      revokedBy: 'bob',
    });
    expect((await refund(setup_, mode, 50, ALICE, 'r2')).approvalId).toBeDefined();
    expect(setup_.executions).toEqual([50]);
    expect(await setup_.interventions.inbox.grants({ runtimeContext: BOB })).toEqual([expect.objectContaining({ status: 'revoked' })]);
  });

  it('should hold only while its giver may still answer such a request, and only for its time', async () => {
    const rules: { current: ConfirmOptions } = { current: { approvers: { roles: ['manager'] } } };
    const setup_ = setup(rules);
    await approvedWithGrant(setup_, mode, { uses: 5, ttlMs: 60_000 });
    // the refunds now need dave: bob's grant answers none of them
    rules.current = { approvers: { userIds: ['dave'] } };
    expect((await refund(setup_, mode, 50, ALICE, 'r2')).approvalId).toBeDefined();
    rules.current = { approvers: { roles: ['manager'] } };
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 61_000 });
    try {
      expect((await refund(setup_, mode, 50, ALICE, 'r3')).approvalId).toBeDefined();
      expect(await setup_.interventions.inbox.grants({ runtimeContext: ALICE })).toEqual([expect.objectContaining({ status: 'expired' })]);
    } finally {
      vi.useRealTimers();
    }
    expect(setup_.executions).toEqual([50]);
  });

  it('should refuse a grant wider than one person may give: a quorum, or bad uses and time', async () => {
    const setup_ = setup({ approvers: { roles: ['manager'] }, quorum: 2 });
    const asked = await refund(setup_, mode, 50, ALICE, 'r1');
    const answer = setup_.interventions.inbox.answer(asked.approvalId ?? '', {
      approved: true,
      runtimeContext: BOB,
      grant: { uses: 2, ttlMs: 60_000 },
    });
    await expect(answer).rejects.toSatisfy((error) => InvalidOptionError.isInstance(error) && /needs 2 approvals/.test(String(error)));
    const single = setup();
    const one = await refund(single, mode, 50, ALICE, 'r1');
    for (const grant of [
      { uses: 0, ttlMs: 1 },
      { uses: 2, ttlMs: 0 },
      { uses: 1.5, ttlMs: 10 },
    ]) {
      await expect(
        single.interventions.inbox.answer(one.approvalId ?? '', { approved: true, runtimeContext: BOB, grant }),
      ).rejects.toSatisfy((error) => InvalidOptionError.isInstance(error));
    }
    // nothing was admitted by a refused grant
    expect((await single.interventions.inbox.get(one.approvalId ?? '', { runtimeContext: BOB }))?.status).toBe('pending');
  });
});
