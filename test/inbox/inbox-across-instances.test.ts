/**
 * The approval inbox across instances: Node processes, each with its own
 * runtime on one real `redis-server` (the same `approvalSecret`, an approval
 * ledger and an approval inbox on Redis). An employee's refund asked on one
 * is listed and answered from the inbox on another, and resumed on either;
 * across restarts; by two instances at once; and continued by the server
 * from the conversation it keeps, with nobody waiting. Each refund counts
 * its executions on Redis, so the total across every process (gone ones
 * included) is read after.
 */
import type { ModelMessage } from 'ai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Child, spawnChild } from '../helpers/child-process.ts';
import { hasRedisServer, redisTitle, uniquePrefix, useRedisServer } from '../helpers/redis-server.ts';
import { MODES, type Mode } from '../helpers/run-both.ts';
import type { InboxChildCommand, InboxChildMessage, InboxChildWork } from './inbox-instance-child.ts';

const SECRET = 'the-secret-every-instance-shares-32b';
const ALICE = { userId: 'alice', role: 'employee', sessionId: 'chat-7' };
const BOB = { userId: 'bob', role: 'manager' };
const CAROL = { userId: 'carol', role: 'manager' };
const ERIN = { userId: 'erin', role: 'employee' };

type Instance = Child<InboxChildMessage, InboxChildCommand>;
type Reply<OP extends InboxChildWork['op']> = Extract<InboxChildMessage, { type: (typeof REPLIES)[OP] }>;
const REPLIES = { ask: 'asked', list: 'listed', answer: 'answered', resume: 'resumed', continue: 'resumed' } as const;

describe.skipIf(!hasRedisServer)(redisTitle('the approval inbox across processes sharing Redis'), () => {
  const redis = useRedisServer();
  const started: Instance[] = [];
  // one key prefix per test, for every instance it starts
  let prefix = '';
  beforeEach(() => {
    prefix = uniquePrefix();
  });
  afterEach(async () => {
    await Promise.all(started.splice(0).map((child) => child.close()));
  });

  /** Instances on the one Redis. */
  async function spawn(...names: string[]): Promise<Instance[]> {
    const children = names.map((name) => {
      const child = spawnChild<InboxChildMessage, InboxChildCommand>(new URL('./inbox-instance-child.ts', import.meta.url), {
        args: [redis.server.port, prefix, name, SECRET],
      });
      started.push(child);
      return child;
    });
    await Promise.all(children.map((child) => child.receive('ready')));
    return children;
  }

  /** Stops an instance as a deploy does: it exits, and keeps nothing. */
  async function stop(instance: Instance): Promise<void> {
    started.splice(started.indexOf(instance), 1);
    await instance.close();
  }

  async function perform<OP extends InboxChildWork['op']>(
    instance: Instance,
    work: Extract<InboxChildWork, { op: OP }>,
  ): Promise<Reply<OP>> {
    instance.send({ type: 'do', ...work });
    return (await instance.receive(REPLIES[work.op])) as Reply<OP>;
  }

  /** How many refunds ran, in every process of this test. */
  const executions = async () => Number((await redis.client.get(`${prefix}executions`)) ?? 0);

  const resume = (instance: Instance, path: Mode, messages: ModelMessage[]) =>
    perform(instance, { op: 'resume', path, messages, runtimeContext: ALICE });

  describe.each(MODES)('through %s', (path) => {
    it.each(['A', 'B'] as const)(
      "should list and answer on B a request asked on A, and run it once as the employee's when her next request resumes on %s",
      async (resumer) => {
        const [a, b] = (await spawn('A', 'B')) as [Instance, Instance];
        const { messages, approvalId } = await perform(a, { op: 'ask', path, runtimeContext: ALICE });
        expect((await perform(b, { op: 'list', runtimeContext: BOB })).requests).toEqual([
          expect.objectContaining({
            id: approvalId,
            toolName: 'refund',
            input: { amount: 50 },
            askedBy: 'alice',
            mayAnswer: 'a manager',
            conversationId: 'chat-7',
            status: 'pending',
          }),
        ]);
        expect((await perform(b, { op: 'list', runtimeContext: ERIN })).requests).toEqual([]);
        const answered = await perform(b, { op: 'answer', id: approvalId, approved: true, runtimeContext: BOB });
        expect(answered.result).toMatchObject({ type: 'approved', request: { status: 'approved', answeredBy: 'bob' } });
        expect(answered.notified).toEqual(['answered']);
        expect(await executions()).toBe(0);

        const [first, other] = resumer === 'A' ? [a, b] : [b, a];
        // the client sends the history as it has it: no approval part
        const resumed = await resume(first, path, messages);
        expect(resumed.approvalWritten).toBe(true);
        expect(resumed.executed).toEqual([50]);
        expect(resumed.modelRead).toEqual({ type: 'text', value: `refunded 50 on ${resumer}` });
        // the same history again, on the other instance: the one execution's outcome
        const again = await resume(other, path, messages);
        expect(again.executed).toEqual([]);
        expect(again.modelRead).toEqual(resumed.modelRead);
        expect(await executions()).toBe(1);
        expect((await perform(a, { op: 'list', runtimeContext: BOB })).requests).toEqual([]);
      },
    );

    it('should keep a request through restarts: asked by an instance that exits, answered by a new one, resumed by another', async () => {
      const [a] = (await spawn('A')) as [Instance];
      const { messages, approvalId } = await perform(a, { op: 'ask', path, runtimeContext: ALICE });
      await stop(a);
      const [b] = (await spawn('B')) as [Instance];
      expect((await perform(b, { op: 'list', runtimeContext: BOB })).requests.map((request) => request.id)).toEqual([approvalId]);
      expect((await perform(b, { op: 'answer', id: approvalId, approved: true, runtimeContext: BOB })).result.type).toBe('approved');
      await stop(b);
      expect(await executions()).toBe(0);
      const [c] = (await spawn('C')) as [Instance];
      const resumed = await resume(c, path, messages);
      expect(resumed.executed).toEqual([50]);
      expect(resumed.modelRead).toEqual({ type: 'text', value: 'refunded 50 on C' });
      expect(await executions()).toBe(1);
    });

    it('should run the call once for two resumes racing on two instances, and send both models its result', async () => {
      const [a, b] = (await spawn('A', 'B')) as [Instance, Instance];
      for (let round = 1; round <= 3; round++) {
        const { messages, approvalId } = await perform(a, { op: 'ask', path, runtimeContext: ALICE });
        await perform(b, { op: 'answer', id: approvalId, approved: true, runtimeContext: BOB });
        const both = await Promise.all([resume(a, path, messages), resume(b, path, messages)]);
        expect(both.flatMap((resumed) => resumed.executed)).toEqual([50]);
        expect(await executions()).toBe(round);
        const ran = both.find((resumed) => resumed.executed.length === 1);
        expect(ran?.modelRead).toEqual({ type: 'text', value: expect.stringMatching(/^refunded 50 on [AB]$/) });
        for (const resumed of both) expect(resumed.modelRead).toEqual(ran?.modelRead);
      }
    });

    it('should continue a run on the server once its request is approved, with nobody waiting: once, though two instances continue it', async () => {
      const [a, b] = (await spawn('A', 'B')) as [Instance, Instance];
      const { approvalId } = await perform(a, { op: 'ask', path, runtimeContext: ALICE, store: 'chat-7' });
      const answered = await perform(b, { op: 'answer', id: approvalId, approved: true, runtimeContext: BOB });
      // what the app is told names the conversation to continue
      expect(answered.result).toMatchObject({ type: 'approved', request: { conversationId: 'chat-7' } });
      // a worker on each instance picks it up
      const both = await Promise.all([
        perform(a, { op: 'continue', path, conversation: 'chat-7' }),
        perform(b, { op: 'continue', path, conversation: 'chat-7' }),
      ]);
      expect(both.flatMap((continued) => continued.executed)).toEqual([50]);
      expect(await executions()).toBe(1);
      for (const continued of both)
        expect(continued.modelRead).toEqual({ type: 'text', value: expect.stringMatching(/^refunded 50 on [AB]$/) });
      // the stored conversation holds the result and the model's answer; continued again, it runs nothing
      const [c] = (await spawn('C')) as [Instance];
      const later = await perform(c, { op: 'continue', path, conversation: 'chat-7' });
      expect(later.executed).toEqual([]);
      expect(await executions()).toBe(1);
      expect(JSON.stringify(later.messages)).toContain('refunded 50 on');
    });

    it("should continue a refused request on the server with the manager's reason, running nothing", async () => {
      const [a, b] = (await spawn('A', 'B')) as [Instance, Instance];
      const { approvalId } = await perform(a, { op: 'ask', path, runtimeContext: ALICE, store: 'chat-7' });
      const answered = await perform(b, { op: 'answer', id: approvalId, approved: false, reason: 'not refundable', runtimeContext: BOB });
      expect(answered.result).toMatchObject({ type: 'refused', request: { status: 'refused', reason: 'not refundable' } });
      const continued = await perform(a, { op: 'continue', path, conversation: 'chat-7' });
      expect(continued.executed).toEqual([]);
      expect(JSON.stringify(continued.modelRead)).toContain('not refundable');
      expect(await executions()).toBe(0);
    });
  });

  it('should stand by the first of an approval and a refusal racing on two instances: the other is told it came too late, and what runs is what the inbox shows', async () => {
    const [a, b] = (await spawn('A', 'B')) as [Instance, Instance];
    let ran = 0;
    for (let round = 0; round < 12; round++) {
      const { messages, approvalId } = await perform(a, { op: 'ask', path: 'generateText', runtimeContext: ALICE });
      const [byBob, byCarol] = await Promise.all([
        perform(a, { op: 'answer', id: approvalId, approved: true, runtimeContext: BOB }),
        perform(b, { op: 'answer', id: approvalId, approved: false, reason: 'fraud suspected', runtimeContext: CAROL }),
      ]);
      const results = [byBob.result, byCarol.result];
      const stands = results.filter((result) => result.type !== 'closed');
      expect(stands).toHaveLength(1);
      const [standing] = stands;
      const status = standing?.type === 'approved' ? 'approved' : 'refused';
      expect(standing).toMatchObject({ type: status, request: { status } });
      for (const result of results)
        expect(result).toMatchObject({ request: { status, answeredBy: status === 'approved' ? 'bob' : 'carol' } });
      const resumed = await resume(b, 'generateText', messages);
      expect(resumed.executed).toEqual(status === 'approved' ? [50] : []);
      if (status === 'approved') ran++;
      expect(JSON.stringify(resumed.modelRead)).toContain(status === 'approved' ? 'refunded 50' : 'fraud suspected');
    }
    expect(await executions()).toBe(ran);
  });
});
