/**
 * `createDecisionTrail` given to `createInterventions({ trail })`: every
 * record of every run chained on a store, per conversation or per key, with
 * its place and hashes on the record; nothing hashed without a trail or a
 * record reader; a trail that cannot be written fails closed; and two Node
 * processes sharing Redis appending to one chain without forking it.
 */
import { isStepCount } from 'ai';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import {
  actionDigestOf,
  createApprovalLedger,
  createDecisionTrail,
  createInterventions,
  createMemoryStore,
  createRedisStore,
  type DecisionRecord,
  DecisionTrailError,
  defineHandler,
  InterventionActions,
  type Store,
  verifyDecisionTrail,
} from '../../src/index.ts';
import { approvalRoundTrip } from '../../src/testing/index.ts';
import { spawnChild } from '../helpers/child-process.ts';
import { noWipes, wipeAndLookupTools } from '../helpers/recording-tools.ts';
import { hasRedisServer, redisTitle, uniquePrefix, useRedisServer } from '../helpers/redis-server.ts';
import { MODES, run } from '../helpers/run-both.ts';
import { scriptedModel, step, text, toolCall } from '../helpers/scripted-model.ts';
import type { TrailChildCommand, TrailChildMessage } from './decision-trail-child.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

const guideLookups = defineHandler({
  name: 'lookup-guide',
  beforeToolCall: ({ toolCall: call }) =>
    call.toolName === 'lookup' && (call.input as { q: string }).q === 'vague'
      ? InterventionActions.guide('Ask a precise question')
      : InterventionActions.proceed(),
});

/** One turn: a wipe of `prod` (denied), a vague lookup (guided) and a precise one (runs); then text. */
const turn = () =>
  scriptedModel(
    step(
      toolCall('c1', 'wipe_disk', { disk: 'prod' }),
      toolCall('c2', 'lookup', { q: 'vague' }),
      toolCall('c3', 'lookup', { q: 'weather' }),
    ),
    step(text('done')),
  );

describe('createDecisionTrail', () => {
  describe.each(MODES)('when given to createInterventions (%s)', (mode) => {
    it('should chain every record of the run, in order, with its place, hashes, action digest and policy version', async () => {
      const store = createMemoryStore();
      const trail = createDecisionTrail({ store, key: ({ runtimeContext }) => `chat:${String(runtimeContext.chatId)}` });
      const { tools, ran } = wipeAndLookupTools();
      const interventions = createInterventions({ handlers: [noWipes, guideLookups], trail, policyVersion: 'policy-7' });

      const { decisions } = await run(interventions, mode, {
        model: turn(),
        tools,
        prompt: 'go',
        stopWhen: isStepCount(3),
        runtimeContext: { chatId: 'a' },
      });

      expect(ran).toEqual(['lookup weather']);
      const check = await verifyDecisionTrail({ trail, key: 'chat:a' });
      expect(check.valid).toBe(true);
      // one link per record, in the order of the run's records
      expect(check.links.map((link) => [link.record.handler, link.record.toolCallId, link.record.action])).toEqual(
        decisions.map((record) => [record.handler, record.toolCallId, record.action]),
      );
      expect(decisions.map((record) => [record.handler, record.toolCallId, record.action])).toEqual([
        ['no-wipes', 'c1', 'deny'],
        ['no-wipes', 'c2', 'proceed'],
        ['lookup-guide', 'c2', 'guide'],
        ['no-wipes', 'c3', 'proceed'],
        ['lookup-guide', 'c3', 'proceed'],
      ]);
      check.links.forEach((link, index) => {
        const record = decisions[index] as DecisionRecord;
        expect(link.index).toBe(index);
        expect(link.prev).toBe(index === 0 ? '0'.repeat(64) : check.links[index - 1]?.hash);
        expect(record.trail).toEqual({ key: 'chat:a', index, hash: link.hash, prev: link.prev });
        expect(link.record.policyVersion).toBe('policy-7');
        expect(record.policyVersion).toBe('policy-7');
        expect(link.record.actionDigest).toBe(record.actionDigest);
        expect(link.runId).toEqual(expect.any(String));
      });
      // the digest binds the call's arguments as decided, and the action's words
      const [denied, , guided] = decisions as [DecisionRecord, DecisionRecord, DecisionRecord];
      expect(denied.actionDigest).toBe(await actionDigestOf(denied, { disk: 'prod' }));
      expect(denied.actionDigest).not.toBe(await actionDigestOf(denied, { disk: 'scratch' }));
      expect(guided.actionDigest).toBe(await actionDigestOf(guided, { q: 'vague' }));
      expect(guided.actionDigest).not.toBe(await actionDigestOf({ ...guided, feedback: 'Anything goes' }, { q: 'vague' }));
    });

    it('should keep one chain per key, and continue a chain from its last link in a later run', async () => {
      const store = createMemoryStore();
      const trail = createDecisionTrail({ store, key: ({ runtimeContext }) => `chat:${String(runtimeContext.chatId)}` });
      const { tools } = wipeAndLookupTools();
      const interventions = createInterventions({ handlers: [noWipes], trail });
      const call = (chatId: string) =>
        run(interventions, mode, { model: turn(), tools, prompt: 'go', stopWhen: isStepCount(3), runtimeContext: { chatId } });

      await call('a');
      await call('b');
      const later = await call('a');

      const a = await verifyDecisionTrail({ trail, key: 'chat:a' });
      const b = await verifyDecisionTrail({ trail, key: 'chat:b' });
      expect(a.valid && b.valid).toBe(true);
      expect(a.links).toHaveLength(6);
      expect(b.links).toHaveLength(3);
      expect(b.links.every((link) => link.key === 'chat:b')).toBe(true);
      // the later run of chat a starts where the first ended
      expect(later.decisions[0]?.trail).toMatchObject({ key: 'chat:a', index: 3, prev: a.links[2]?.hash });
      expect(new Set(a.links.map((link) => link.runId)).size).toBe(2);
    });
  });

  describe('when a person answers a confirm', () => {
    it("should chain the records of both requests, the runtime's own included, and bind the approved call's arguments", async () => {
      const store = createMemoryStore();
      const trail = createDecisionTrail({ store, key: 'ops' });
      const { tools, ran } = wipeAndLookupTools();
      const interventions = createInterventions({
        handlers: [noWipes],
        trail,
        approvalSecret: 'a-shared-secret-of-32-characters',
        approvalLedger: createApprovalLedger(),
      });
      const model = scriptedModel(step(toolCall('c1', 'wipe_disk', { disk: 'scratch' })), step(text('wiped')));

      const { first, second, messages } = await approvalRoundTrip({ interventions, model, tools, prompt: 'wipe scratch', approve: true });
      // the same resume sent again: the ledger's replay record (the runtime's own) joins the chain
      const replay = await interventions.generateText({ model: scriptedModel(step(text('wiped'))), tools, messages: [...messages] });

      expect(ran).toEqual(['wipe_disk scratch']);
      const check = await verifyDecisionTrail({ trail, key: 'ops' });
      expect(check.valid).toBe(true);
      const records = [...first.interventions.decisions, ...second.interventions.decisions, ...replay.interventions.decisions];
      expect(records.some((record) => record.handler === 'approval-ledger' && record.replayed === true)).toBe(true);
      expect(check.links.map((link) => [link.record.handler, link.record.action])).toEqual(
        records.map((record) => [record.handler, record.action]),
      );
      expect(records.map((record) => record.trail?.index)).toEqual(records.map((_, index) => index));
      const [asked] = first.interventions.decisions;
      expect(asked?.prompt).toBe('Wipe the scratch disk?');
      expect(asked?.actionDigest).toBe(await actionDigestOf(asked as DecisionRecord, { disk: 'scratch' }));
    });
  });

  describe('when no trail is configured', () => {
    it.each(MODES)(
      'should hash nothing of its own, onDecision hooks or not: no digest, no trail, only the policy version (%s)',
      async (mode) => {
        const original = crypto.subtle.digest.bind(crypto.subtle);
        const stacks: string[] = [];
        const digest = vi
          .spyOn(crypto.subtle, 'digest')
          .mockImplementation((...args) => (stacks.push(new Error().stack ?? ''), original(...args)));
        const seen: DecisionRecord[] = [];
        const { tools } = wipeAndLookupTools();
        const interventions = createInterventions({
          handlers: [noWipes, guideLookups],
          policyVersion: 'policy-7',
          hooks: { onDecision: ({ record }) => void seen.push(record) },
        });

        const { decisions } = await run(interventions, mode, { model: turn(), tools, prompt: 'go', stopWhen: isStepCount(3) });

        expect(decisions).toHaveLength(5);
        expect(seen).toEqual(decisions);
        expect(decisions.every((record) => record.actionDigest === undefined && record.trail === undefined)).toBe(true);
        expect(decisions.every((record) => record.policyVersion === 'policy-7')).toBe(true);
        const ours = () => stacks.filter((stack) => stack.includes('/src/'));
        expect(ours()).toEqual([]);
        // the spy sees what hashes in src/: the same run with actionDigests hashes (whether the SDK hashes
        // too depends on its release: before ai 7.0.178 it signs the approval requests of denied calls)
        await run(createInterventions({ handlers: [noWipes, guideLookups], actionDigests: true }), mode, {
          model: turn(),
          tools,
          prompt: 'go',
          stopWhen: isStepCount(3),
        });
        expect(digest).toHaveBeenCalled();
        expect(ours()).not.toEqual([]);
      },
    );

    it('should give every record its digest with actionDigests: true', async () => {
      const seen: DecisionRecord[] = [];
      const { tools } = wipeAndLookupTools();
      const interventions = createInterventions({
        handlers: [noWipes],
        actionDigests: true,
        hooks: { onDecision: ({ record }) => void seen.push(record) },
      });

      await run(interventions, 'streamText', { model: turn(), tools, prompt: 'go', stopWhen: isStepCount(3) });

      expect(seen).toHaveLength(3);
      expect(seen[0]?.actionDigest).toBe(await actionDigestOf(seen[0] as DecisionRecord, { disk: 'prod' }));
      expect(seen.every((record) => record.trail === undefined)).toBe(true);
    });
  });

  describe('when the trail cannot be written', () => {
    it.each(MODES)('should end the call with a DecisionTrailError and run nothing (%s)', async (mode) => {
      const memory = createMemoryStore();
      const down: Store = {
        ...memory,
        append: async () => {
          throw new Error('ECONNREFUSED 127.0.0.1:6379');
        },
      };
      const { tools, ran } = wipeAndLookupTools();
      const interventions = createInterventions({ handlers: [noWipes], trail: createDecisionTrail({ store: down, key: 'ops' }) });
      const model = scriptedModel(step(toolCall('c1', 'lookup', { q: 'weather' })), step(text('done')));

      const error = await run(interventions, mode, { model, tools, prompt: 'go', stopWhen: isStepCount(3) }).then(
        () => undefined,
        (thrown: unknown) => thrown,
      );

      expect(DecisionTrailError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ code: 'decision-trail-failed', reason: 'store', key: 'ops' });
      expect((error as Error).message).toContain('ECONNREFUSED');
      expect(ran).toEqual([]);
    });

    it('should name the key function that gave no key', async () => {
      const { tools, ran } = wipeAndLookupTools();
      const trail = createDecisionTrail({ store: createMemoryStore(), key: ({ runtimeContext }) => runtimeContext.chatId as string });
      const interventions = createInterventions({ handlers: [noWipes], trail });
      const model = scriptedModel(step(toolCall('c1', 'lookup', { q: 'weather' })), step(text('done')));

      const error = await interventions
        .generateText({ model, tools, prompt: 'go', stopWhen: isStepCount(3) })
        .catch((thrown: unknown) => thrown);

      expect(error).toMatchObject({ name: 'AIInterventions_DecisionTrailError', reason: 'key' });
      expect((error as Error).message).toContain('`key` function returned undefined');
      expect(ran).toEqual([]);
    });
  });

  describe('when created with bad options', () => {
    it('should refuse a store without lists and an empty key, and createInterventions a trail that is not one', () => {
      const { append: _, ...withoutLists } = createMemoryStore();
      expect(() => createDecisionTrail({ store: withoutLists as Store, key: 'ops' })).toThrow(/append/);
      expect(() => createDecisionTrail({ store: createMemoryStore(), key: '' })).toThrow(/key/);
      expect(() => createInterventions({ trail: {} as never })).toThrow(/createDecisionTrail/);
      expect(() => createInterventions({ policyVersion: '' })).toThrow(/policyVersion/);
      expect(() => createInterventions({ policyversion: 'v1' } as never)).toThrow(/policyVersion/);
    });
  });

  describe('when two writers race on one chain', () => {
    it('should never fork it: each append that lost reads the new end and chains to it', async () => {
      const store = createMemoryStore();
      // two instances of the runtime: two trails (each with its own idea of the end) on one store
      const instances = [0, 1].map(() =>
        createInterventions({ handlers: [noWipes], trail: createDecisionTrail({ store, key: 'shared' }) }),
      );
      const { tools } = wipeAndLookupTools();
      await Promise.all(
        Array.from({ length: 20 }, (_, index) =>
          run(instances[index % 2] as (typeof instances)[number], 'generateText', {
            model: turn(),
            tools,
            prompt: 'go',
            stopWhen: isStepCount(3),
          }),
        ),
      );
      const check = await verifyDecisionTrail({ trail: createDecisionTrail({ store, key: 'shared' }), key: 'shared' });
      expect(check.valid).toBe(true);
      expect(check.links).toHaveLength(60);
      expect(new Set(check.links.map((link) => link.runId)).size).toBe(20);
    });
  });
});

describe.skipIf(!hasRedisServer)(redisTitle('createDecisionTrail on a real redis-server'), () => {
  const redis = useRedisServer();

  it('should chain the records of two server processes appending to one chain at once, without a fork', async () => {
    const prefix = uniquePrefix();
    // two batches per process, all of a batch's runs at once; both processes' batches race, and the second batches
    // start once both first ones are done (a barrier), so the chain interleaves the processes whatever the scheduling
    const runs = 13;
    const children = ['A', 'B'].map((name) =>
      spawnChild<TrailChildMessage, TrailChildCommand>(new URL('./decision-trail-child.ts', import.meta.url), {
        args: [redis.server.port, prefix, name],
      }),
    );
    onTestFinished(async () => {
      await Promise.all(children.map((child) => child.kill()));
    });
    await Promise.all(children.map((child) => child.receive('ready', { timeoutMs: 30_000 })));
    const batch = async () => {
      for (const child of children) child.send({ type: 'run', runs, chatId: 'shared' });
      return Promise.all(children.map((child) => child.receive('ran', { timeoutMs: 60_000 })));
    };
    const batches = [await batch(), await batch()];
    await Promise.all(children.map((child) => child.close()));
    const [a, b] = [0, 1].map((child) => ({
      runIds: batches.flatMap((reports) => reports[child]?.runIds ?? []),
      positions: batches.flatMap((reports) => reports[child]?.positions ?? []),
    }));
    if (a === undefined || b === undefined) throw new Error('no report');

    const trail = createDecisionTrail({ store: createRedisStore({ client: redis.client, prefix }), key: 'unused' });
    const check = await verifyDecisionTrail({ trail, key: 'chat:shared' });
    expect(check.valid, JSON.stringify(check.broken)).toBe(true);
    // every record of both processes is in the chain once, where its record says
    const positions = [...a.positions, ...b.positions];
    expect(positions).toHaveLength(2 * 2 * runs * 3);
    expect(new Set([...a.runIds, ...b.runIds]).size).toBe(2 * 2 * runs);
    expect(check.links).toHaveLength(positions.length);
    for (const position of positions) expect(check.links[position.index]?.hash).toBe(position.hash);
    expect(new Set(positions.map((position) => position.index)).size).toBe(positions.length);
    // interleaved: the chain holds runs of both processes between each other (each batch holds both, one after the other)
    const owners = check.links.map((link) => (a.runIds.includes(link.runId ?? '') ? 'A' : 'B'));
    expect(owners.join('')).toMatch(/A+B+A+|B+A+B+/);
  }, 90_000);
});
