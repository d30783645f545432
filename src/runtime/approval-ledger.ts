/**
 * Remembers which approvals were used, so an approved call runs at most once:
 * a resume request replayed (or sent twice at the same time) executes
 * nothing the second time. `consume` must be atomic: it returns `true` for
 * the first caller only. The default keeps the last `maxEntries` approvals in
 * memory (one process); share a ledger backed by your database or Redis
 * across server instances.
 *
 * @example
 * ```ts
 * const ledger: ApprovalLedger = {
 *   consume: async (approvalId) => (await redis.set(`approval:${approvalId}`, '1', 'EX', 86_400, 'NX')) === 'OK',
 * };
 * const interventions = createInterventions({ handlers, approvalSecret: process.env.APPROVAL_SECRET, approvalLedger: ledger });
 * ```
 */
export interface ApprovalLedger {
  /** Marks the approval used; `true` if it was not used before. */
  consume(approvalId: string): boolean | PromiseLike<boolean>;
}

/**
 * The default {@link ApprovalLedger}: in memory, bounded (oldest forgotten first).
 *
 * @example
 * ```ts
 * const interventions = createInterventions({ handlers, approvalLedger: createMemoryApprovalLedger({ maxEntries: 50_000 }) });
 * ```
 */
export function createMemoryApprovalLedger({
  maxEntries = 10_000,
}: { readonly maxEntries?: number } = {}): ApprovalLedger {
  const used = new Set<string>();
  return {
    consume(approvalId) {
      if (used.has(approvalId)) return false;
      used.add(approvalId);
      if (used.size > maxEntries) {
        const oldest = used.values().next();
        if (!oldest.done) used.delete(oldest.value);
      }
      return true;
    },
  };
}
