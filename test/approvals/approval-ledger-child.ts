/**
 * One server instance for the approval ledger's two-process test, run as its
 * own process (`spawnChild`, args `<redis port> <key prefix> <name>`).
 *
 * Sends `ready`; on `resume`, resumes every approval at once through
 * `executeOnce` on a Redis-backed ledger (arriving over 100 ms in random
 * order, so two instances each win some), each execution taking `executeMs` and failing
 * for ids ending in `-fails`. Sends `resumed`: which approvals it executed,
 * how its claims went, and the outcome it ended with for each.
 */
import { Redis } from 'ioredis';
import type { ApprovalLedger, ApprovalOutcome } from '../../src/ledger/approval-ledger.ts';
import { createApprovalLedger } from '../../src/ledger/create-approval-ledger.ts';
import { executeOnce } from '../../src/ledger/execute-once.ts';
import { createRedisStore } from '../../src/store/create-redis-store.ts';
import { connectParent } from '../helpers/child-process.ts';

export type LedgerChildCommand = { readonly type: 'resume'; readonly approvals: readonly string[]; readonly executeMs: number };

export type LedgerChildMessage =
  | { readonly type: 'ready' }
  | {
      readonly type: 'resumed';
      readonly executed: readonly string[];
      readonly claims: { readonly claimed: number; readonly running: number; readonly done: number };
      readonly outcomes: Readonly<Record<string, ApprovalOutcome>>;
    };

const [port, prefix, name = '?'] = process.argv.slice(2);
const parent = connectParent<LedgerChildCommand, LedgerChildMessage>();
const client = new Redis({ host: '127.0.0.1', port: Number(port), maxRetriesPerRequest: 1 });
const redisLedger = createApprovalLedger({ store: createRedisStore({ client, prefix }) });
const claims = { claimed: 0, running: 0, done: 0, expired: 0 };
const ledger: ApprovalLedger = {
  ...redisLedger,
  claim: async (approvalId) => {
    const claim = await redisLedger.claim(approvalId);
    claims[claim.type]++;
    return claim;
  },
};
// warm up (first-call costs: the connection, the scripts) on a key of its own, so the two then race evenly
await redisLedger.claim(`warm-up-${process.pid}`);
parent.send({ type: 'ready' });

const { approvals, executeMs } = await parent.receive('resume', { timeoutMs: Number.POSITIVE_INFINITY });
const executed: string[] = [];
const outcomes: Record<string, ApprovalOutcome> = {};
await Promise.all(
  approvals.map(async (approvalId) => {
    // resumes arriving over 100 ms, like requests, so both instances win some
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 100));
    const execute = async () => {
      executed.push(approvalId);
      await new Promise((resolve) => setTimeout(resolve, executeMs));
      if (approvalId.endsWith('-fails')) throw new Error(`${approvalId} failed in ${name}`);
      return { approvalId, executedBy: name };
    };
    outcomes[approvalId] = await executeOnce({ ledger, approvalId, execute, timeoutMs: 10_000 }).then(
      (execution): ApprovalOutcome =>
        execution.type === 'executed'
          ? { type: 'result', output: execution.output }
          : execution.type === 'replayed'
            ? execution.outcome
            : { type: 'error', text: 'expired' },
      (error: unknown): ApprovalOutcome => ({ type: 'error', text: String(error) }),
    );
  }),
);
parent.send({ type: 'resumed', executed, claims, outcomes: Object.fromEntries(Object.entries(outcomes).sort()) });
await client.quit();
