/**
 * The runtime's default approval ledger: createApprovalLedger() on an
 * in-memory store, loaded at its first use. It must be that ledger, every
 * method included (the optional ones decide what a resume can do: replay,
 * expiry, quorum, the asker of a plain call).
 */
import { describe, expect, it } from 'vitest';
import { createApprovalLedger } from '../../src/approvals/approval-ledger.ts';
import { defaultApprovalLedger } from '../../src/approvals/default-approval-ledger.ts';

describe('defaultApprovalLedger', () => {
  it('should have every method createApprovalLedger() has', () => {
    expect(Object.keys(defaultApprovalLedger()).sort()).toEqual(Object.keys(createApprovalLedger()).sort());
  });

  describe('when an approval is claimed and completed', () => {
    it('should execute it once: a second claim gets the outcome, and each default ledger keeps its own', async () => {
      const ledger = defaultApprovalLedger();
      expect(await ledger.claim('approval-1')).toEqual({ type: 'claimed' });
      expect(await ledger.complete('approval-1', { type: 'result', output: 'ran' })).toEqual({ type: 'result', output: 'ran' });
      expect(await ledger.claim('approval-1')).toEqual({ type: 'done', outcome: { type: 'result', output: 'ran' } });
      expect(await ledger.outcomeOf('approval-1')).toEqual({ type: 'result', output: 'ran' });
      expect(await defaultApprovalLedger().claim('approval-1')).toEqual({ type: 'claimed' });
    });
  });

  describe('when people vote on an approval', () => {
    it('should count each person once', async () => {
      const ledger = defaultApprovalLedger();
      await ledger.vote('approval-2', 'alice');
      await ledger.vote('approval-2', 'alice');
      expect([...(await ledger.vote('approval-2', 'bob'))].sort()).toEqual(['alice', 'bob']);
    });
  });
});
