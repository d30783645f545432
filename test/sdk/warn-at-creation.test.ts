import { describe, expect, it } from 'vitest';
import { createApprovalLedger, createInterventions, InterventionsWarning, type OnStatusContext } from '../../src/index.ts';
import { processWarnings } from '../helpers/process-warnings.ts';

const { warnings, settled } = processWarnings();

describe('createInterventions', () => {
  describe('when an approvalSecret is configured with the default in-memory approval ledger', () => {
    it("should emit one typed warning per process, and tell each runtime's onStatus hooks", async () => {
      const statuses: OnStatusContext[] = [];
      const onStatus = (context: OnStatusContext) => void statuses.push(context);
      createInterventions({ approvalSecret: 'shared-with-at-least-32-bytes-for-hmac', hooks: { onStatus } });
      createInterventions({ approvalSecret: 'shared-with-at-least-32-bytes-for-hmac', hooks: { onStatus } });
      await settled();

      const ours = warnings.filter((warning) => InterventionsWarning.isInstance(warning));
      expect(ours).toHaveLength(1);
      expect(ours[0]).toMatchObject({ name: 'AIInterventionsWarning', code: 'approval-ledger-in-memory' });
      expect(ours[0]?.message).toMatch(/executes once per instance only/);
      expect(statuses).toHaveLength(2);
      expect(statuses[0]).toMatchObject({
        runId: undefined,
        status: { type: 'warning', code: 'approval-ledger-in-memory', message: ours[0]?.message },
      });
    });
  });

  it('should not warn without a secret, with a ledger given on purpose, or with the ledger off', async () => {
    const statuses: OnStatusContext[] = [];
    const hooks = { onStatus: (context: OnStatusContext) => void statuses.push(context) };
    createInterventions({ hooks });
    createInterventions({ approvalSecret: 's-with-at-least-32-bytes-for-hmac', approvalLedger: createApprovalLedger(), hooks });
    createInterventions({ approvalSecret: 's-with-at-least-32-bytes-for-hmac', approvalLedger: false, hooks });
    await settled();
    expect(statuses).toEqual([]);
  });

  it('should not break creation when an onStatus hook throws', async () => {
    expect(() =>
      createInterventions({
        approvalSecret: 's-with-at-least-32-bytes-for-hmac',
        hooks: {
          onStatus: () => {
            throw new Error('observer failed');
          },
        },
      }),
    ).not.toThrow();
    await settled();
  });
});
