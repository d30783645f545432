import { markInMemory } from '../store/in-memory.ts';
import type { ApprovalLedger } from './approval-ledger.ts';

/** Every method of {@link ApprovalLedger}, optional ones included: what the default ledger forwards. */
const METHODS: { readonly [METHOD in keyof ApprovalLedger]-?: true } = {
  claim: true,
  expired: true,
  vote: true,
  keepAsker: true,
  askerOf: true,
  complete: true,
  waitFor: true,
  outcomeOf: true,
};

/**
 * A runtime's default approval ledger: `createApprovalLedger()` (in memory,
 * one instance), made at its first use. Until a request resumes an approved
 * call, nothing of the ledger is loaded: a runtime whose requests carry no
 * answer never loads it.
 */
export function defaultApprovalLedger(): Required<ApprovalLedger> {
  let ledger: Promise<ApprovalLedger> | undefined;
  const forward =
    (method: keyof ApprovalLedger) =>
    async (...args: unknown[]): Promise<unknown> => {
      ledger ??= import('./approval-ledger.ts').then(({ createApprovalLedger }) => createApprovalLedger());
      const made = (await ledger) as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
      return made[method]?.(...args);
    };
  return markInMemory(
    Object.fromEntries(Object.keys(METHODS).map((method) => [method, forward(method as keyof ApprovalLedger)])) as Required<ApprovalLedger>,
  );
}
