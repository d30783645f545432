/**
 * `createApprovalLedger`: an approved call executes once, and every replay
 * (concurrent or later, on this or another instance) gets its outcome. The
 * contract runs on the memory store and on a real `redis-server`; two Node
 * processes sharing that Redis then race for the same approvals.
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import { createApprovalLedger } from '../../src/ledger/create-approval-ledger.ts';
import { createMemoryStore } from '../../src/store/create-memory-store.ts';
import { createRedisStore } from '../../src/store/create-redis-store.ts';
import type { LedgerChildCommand, LedgerChildMessage } from '../approvals/approval-ledger-child.ts';
import { approvalLedgerContract } from '../approvals/approval-ledger-contract.ts';
import { spawnChild } from '../helpers/child-process.ts';
import { hasRedisServer, redisTitle, uniquePrefix, useRedisServer } from '../helpers/redis-server.ts';

describe('createApprovalLedger', () => {
  describe('on the memory store', () => {
    approvalLedgerContract(() => createMemoryStore());
  });

  it('should default to a store of its own in memory', async () => {
    const one = createApprovalLedger();
    const two = createApprovalLedger();
    expect(await one.claim('same-id')).toEqual({ type: 'claimed' });
    expect(await two.claim('same-id')).toEqual({ type: 'claimed' });
  });
});

describe.skipIf(!hasRedisServer)(redisTitle('createApprovalLedger on a real redis-server'), () => {
  const redis = useRedisServer();

  describe('the ledger contract', () => {
    approvalLedgerContract(() => createRedisStore({ client: redis.client, prefix: uniquePrefix() }));
  });

  it('should execute each approval once when two server processes resume the same 60 approvals at once, and give both the same outcomes', async () => {
    const prefix = uniquePrefix();
    const approvals = Array.from({ length: 60 }, (_, index) => (index % 10 === 9 ? `approval-${index}-fails` : `approval-${index}`));
    const children = ['A', 'B'].map((name) =>
      spawnChild<LedgerChildMessage, LedgerChildCommand>(new URL('../approvals/approval-ledger-child.ts', import.meta.url), {
        args: [redis.server.port, prefix, name],
      }),
    );
    onTestFinished(async () => {
      await Promise.all(children.map((child) => child.kill()));
    });
    await Promise.all(children.map((child) => child.receive('ready', { timeoutMs: 30_000 })));
    // both at once; each executes for 50 ms, so the other instance finds most calls running and waits
    for (const child of children) child.send({ type: 'resume', approvals, executeMs: 50 });
    const [a, b] = await Promise.all(children.map((child) => child.receive('resumed', { timeoutMs: 30_000 })));
    await Promise.all(children.map((child) => child.close()));
    if (a === undefined || b === undefined) throw new Error('no report');

    // exactly one execution per approval, across both processes
    const executed = [...a.executed, ...b.executed].sort();
    expect(executed).toEqual([...approvals].sort());
    // interleaved: each process executed some and replayed some, and replays waited for running calls
    expect(a.executed.length, JSON.stringify({ a: a.executed, b: b.executed })).toBeGreaterThan(0);
    expect(b.executed.length).toBeGreaterThan(0);
    expect(a.claims.running + b.claims.running).toBeGreaterThan(0);
    // both ended with the same outcome for every approval: the executing process's
    expect(b.outcomes).toEqual(a.outcomes);
    for (const approvalId of approvals) {
      const executedBy = a.executed.includes(approvalId) ? 'A' : 'B';
      expect(a.outcomes[approvalId]).toEqual(
        approvalId.endsWith('-fails')
          ? { type: 'error', text: `Error: ${approvalId} failed in ${executedBy}` }
          : { type: 'result', output: { approvalId, executedBy } },
      );
    }
    // a replay after both (a third resume) gets the same, from Redis
    const ledger = createApprovalLedger({ store: createRedisStore({ client: redis.client, prefix }) });
    for (const approvalId of approvals) {
      expect(await ledger.claim(approvalId)).toEqual({ type: 'done', outcome: a.outcomes[approvalId] });
    }
  }, 60_000);
});
