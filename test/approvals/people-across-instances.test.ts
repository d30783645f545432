/**
 * Approvals belong to people across instances: two Node processes, each
 * with its own runtime on one real `redis-server` (the same
 * `approvalSecret`, an approval ledger on Redis), one asking and the other
 * taking answers. Who may answer, a quorum of distinct people and expiry hold
 * through the store, on the wrappers and on tools guarded without a run.
 */
import type { ModelMessage } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConfirmOptions } from '../../src/index.ts';
import { type Child, spawnChild } from '../helpers/child-process.ts';
import { hasRedisServer, redisTitle, uniquePrefix, useRedisServer } from '../helpers/redis-server.ts';
import type { PeopleChildCommand, PeopleChildMessage, PeoplePath } from './people-instance-child.ts';

const SECRET = 'the-secret-every-instance-shares-32b';
const ALICE = { userId: 'alice', role: 'employee' };
const BOB = { userId: 'bob', role: 'manager' };
const CAROL = { userId: 'carol', role: 'manager' };
const PATHS: readonly PeoplePath[] = ['generateText', 'streamText', 'guardTools'];

type Instance = Child<PeopleChildMessage, PeopleChildCommand>;

describe.skipIf(!hasRedisServer)(redisTitle('approvals and people across two processes sharing Redis'), () => {
  const redis = useRedisServer();
  const started: Instance[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((child) => child.close()));
  });

  /** Two instances with one handler confirming every refund with `options`. */
  async function instances(options: ConfirmOptions & { readonly human?: boolean }, { skewOfA = 0 } = {}): Promise<[Instance, Instance]> {
    const prefix = uniquePrefix();
    const spawn = (name: string, skew = 0) => {
      const child = spawnChild<PeopleChildMessage, PeopleChildCommand>(new URL('./people-instance-child.ts', import.meta.url), {
        args: [redis.server.port, prefix, name, SECRET, JSON.stringify(options), skew],
      });
      started.push(child);
      return child;
    };
    const pair: [Instance, Instance] = [spawn('A', skewOfA), spawn('B')];
    await Promise.all(pair.map((child) => child.receive('ready')));
    return pair;
  }

  async function ask(instance: Instance, path: PeoplePath, runtimeContext: Record<string, unknown>) {
    instance.send({ type: 'call', path, runtimeContext });
    const { messages, approvalId } = await instance.receive('asked');
    const answered: ModelMessage[] = [
      ...messages,
      { role: 'tool', content: [{ type: 'tool-approval-response', approvalId, approved: true }] },
    ];
    return answered;
  }

  async function answer(instance: Instance, path: PeoplePath, messages: ModelMessage[], runtimeContext: Record<string, unknown>) {
    instance.send({ type: 'call', path, messages, runtimeContext });
    return instance.receive('answered');
  }

  describe.each(PATHS)('through %s', (path) => {
    it('should run nothing for an answer from someone not allowed on one instance, and run it once for the right person on the other, as the asker', async () => {
      const [a, b] = await instances({ approvers: { roles: ['manager'], label: 'a manager' } });
      const history = await ask(a, path, ALICE);
      const byAlice = await answer(b, path, history, ALICE);
      expect(byAlice.executed).toEqual([]);
      expect(byAlice.records).toContainEqual(
        expect.objectContaining({
          handler: 'approval-approvers',
          approval: expect.objectContaining({ status: 'not-allowed', askedBy: 'alice', answeredBy: 'alice' }),
        }),
      );
      const byBob = await answer(a, path, history, BOB);
      expect(byBob.executed).toEqual([50]);
      expect(byBob.hookSaw).toEqual(['alice']);
      expect(byBob.records).toContainEqual(
        expect.objectContaining({
          handler: 'approval-approvers',
          approval: expect.objectContaining({ status: 'approved', askedBy: 'alice', answeredBy: 'bob' }),
        }),
      );
      // the same answer again, on the other instance: the one execution's outcome
      const replay = await answer(b, path, history, BOB);
      expect(replay.executed).toEqual([]);
    });

    it('should count two distinct approvers across instances, each once, and run the call once', async () => {
      const [a, b] = await instances({ quorum: 2, approvers: { roles: ['manager'] } });
      const history = await ask(a, path, ALICE);
      const first = await answer(b, path, history, BOB);
      const again = await answer(a, path, history, BOB);
      expect([...first.executed, ...again.executed]).toEqual([]);
      expect(again.records).toContainEqual(
        expect.objectContaining({
          handler: 'approval-quorum',
          approval: expect.objectContaining({ status: 'awaiting-quorum', approvedBy: ['bob'] }),
        }),
      );
      const [second, racing] = await Promise.all([answer(b, path, history, CAROL), answer(a, path, history, CAROL)]);
      expect([...second.executed, ...racing.executed]).toEqual([50]);
    });

    it('should record an answer after the expiry as expired on every instance, and run nothing', async () => {
      const [a, b] = await instances({ expiresInMs: 300 });
      const history = await ask(a, path, ALICE);
      await new Promise((resolve) => setTimeout(resolve, 600));
      const [onB, onA] = await Promise.all([answer(b, path, history, BOB), answer(a, path, history, BOB)]);
      expect([...onB.executed, ...onA.executed]).toEqual([]);
      for (const answered of [onB, onA]) {
        expect(answered.records).toContainEqual(
          expect.objectContaining({ handler: 'approval-expiry', approval: expect.objectContaining({ status: 'expired' }) }),
        );
        expect(JSON.stringify(answered.modelRead)).toContain('expired');
      }
    });
  });

  it.each(PATHS)(
    "should keep humanApproval's expiry after an early answer from someone who may not answer, on the other instance (%s)",
    async (path) => {
      const [a, b] = await instances({ human: true, approvers: { roles: ['manager'] }, expiresInMs: 400 });
      const history = await ask(a, path, ALICE);
      const early = await answer(b, path, history, { userId: 'erin', role: 'employee' });
      expect(early.executed).toEqual([]);
      await new Promise((resolve) => setTimeout(resolve, 800));
      const late = await answer(a, path, history, BOB);
      expect(late.executed).toEqual([]);
      expect(JSON.stringify(late.modelRead)).toContain('expired');
    },
  );

  it.each(PATHS)(
    "should run an expiry from asking to answering on the store's clock, though the asking instance's runs 10 minutes fast (%s)",
    async (path) => {
      const [a, b] = await instances({ expiresInMs: 300 }, { skewOfA: 10 * 60_000 });
      const history = await ask(a, path, ALICE);
      await new Promise((resolve) => setTimeout(resolve, 600));
      const late = await answer(b, path, history, BOB);
      expect(late.executed).toEqual([]);
      expect(late.records).toContainEqual(
        expect.objectContaining({ handler: 'approval-expiry', approval: expect.objectContaining({ status: 'expired' }) }),
      );
    },
  );

  // (a plain SDK call reads a refusal itself and calls no tool: tools guarded without a run never see one)
  it.each(['generateText', 'streamText'] as const)(
    "should keep a manager's refusal under a quorum final on every instance: the earlier history with a third manager's approval runs nothing (%s)",
    async (path) => {
      const [a, b] = await instances({ quorum: 2, approvers: { roles: ['manager'] } });
      const approved = await ask(a, path, ALICE);
      expect((await answer(b, path, approved, BOB)).executed).toEqual([]);
      const refusal = approved.map((message, index) =>
        index < approved.length - 1 || message.role !== 'tool'
          ? message
          : {
              ...message,
              content: message.content.map((part) =>
                part.type === 'tool-approval-response' ? { ...part, approved: false, reason: 'fraud suspected' } : part,
              ),
            },
      );
      const refused = await answer(a, path, refusal, CAROL);
      expect(refused.executed).toEqual([]);
      // the history from before the refusal, approved by someone else, on the other instance
      const byDave = await answer(b, path, approved, { userId: 'dave', role: 'manager' });
      const again = await answer(a, path, approved, { userId: 'erin', role: 'manager' });
      expect([...byDave.executed, ...again.executed]).toEqual([]);
      expect(refused.records).toContainEqual(
        expect.objectContaining({
          handler: 'approval-approvers',
          approval: expect.objectContaining({ status: 'refused', answeredBy: 'carol' }),
        }),
      );
    },
  );

  it('should never both run a call and record it expired, for answers racing the expiry on two instances', async () => {
    const [a, b] = await instances({ expiresInMs: 150 });
    for (let attempt = 0; attempt < 8; attempt++) {
      const history = await ask(a, 'generateText', ALICE);
      // answered around the deadline, on both instances at once
      await new Promise((resolve) => setTimeout(resolve, 100 + attempt * 10));
      const both = await Promise.all([answer(a, 'generateText', history, BOB), answer(b, 'generateText', history, CAROL)]);
      const executed = both.flatMap((answered) => answered.executed);
      const expired = both.filter((answered) => answered.records.some((record) => record.handler === 'approval-expiry'));
      expect(executed.length).toBeLessThanOrEqual(1);
      if (executed.length === 1) expect(expired).toEqual([]);
      else expect(expired).toHaveLength(2);
    }
  });
});
