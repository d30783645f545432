/**
 * Where stateful handlers keep state that must survive a request (and be
 * shared by several server instances): rate-limit counters, budgets,
 * remembered approvals. Every method may be async; `take` must be atomic.
 *
 * @example
 * ```ts
 * const store: Store = createMemoryStore();
 * const { taken, value } = await store.take('calls:user-1', { amount: 1, limit: 10, ttlMs: 60_000 });
 * ```
 */
export interface Store {
  /** The value under `key`, or `undefined`. */
  get(key: string): Promise<string | undefined>;
  /** Sets `key`, optionally expiring after `ttlMs`. */
  set(key: string, value: string, options?: { readonly ttlMs?: number }): Promise<void>;
  /** Removes `key`. */
  delete(key: string): Promise<void>;
  /**
   * Atomically adds `amount` to the counter under `key` (0 when absent)
   * unless the result would exceed `limit`. `ttlMs` starts when the counter
   * is created. Returns whether it was added, and the counter's value after.
   */
  take(
    key: string,
    options: { readonly amount: number; readonly limit: number; readonly ttlMs?: number },
  ): Promise<{ readonly taken: boolean; readonly value: number }>;
}
