/**
 * Where stateful handlers keep state that must survive a request (and be
 * shared by several server instances): rate-limit counters, budgets,
 * remembered approvals, the approval ledger. Every method may be async;
 * `take`, `setIfAbsent` and `getAndDelete` must be atomic: of any number of
 * concurrent callers, on any number of instances sharing the store, exactly
 * one wins.
 *
 * @example
 * ```ts
 * const store: Store = createMemoryStore();
 * const { taken, value } = await store.take('calls:user-1', { amount: 1, limit: 10, ttlMs: 60_000 });
 * if (await store.setIfAbsent('lock:job-7', 'instance-a', { ttlMs: 30_000 })) {
 *   // this caller, and no other, holds the key
 * }
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
   * Atomically sets `key` (optionally expiring after `ttlMs`) only if it has
   * no value. Returns whether it was set: `true` for one caller only.
   */
  setIfAbsent(key: string, value: string, options?: { readonly ttlMs?: number }): Promise<boolean>;
  /**
   * Atomically reads and removes `key`: the value for one caller only,
   * `undefined` for every other (and for a missing key).
   */
  getAndDelete(key: string): Promise<string | undefined>;
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
