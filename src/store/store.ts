/**
 * Where stateful handlers keep state that must survive a request (and be
 * shared by several server instances): rate-limit counters, budgets,
 * remembered approvals, the approval ledger, decision trails. Every method
 * may be async; `take`, `setIfAbsent`, `getAndDelete` and `append` must be
 * atomic: of any number of concurrent callers, on any number of instances
 * sharing the store, exactly one wins.
 *
 * @example
 * ```ts
 * const store: Store = createMemoryStore();
 * const { taken, value } = await store.take('calls:user-1', { amount: 1, limit: 10, ttlMs: 60_000 });
 * if (await store.setIfAbsent('lock:job-7', 'instance-a', { ttlMs: 30_000 })) {
 *   // this caller, and no other, holds the key
 * }
 * const { appended, length } = await store.append('log:job-7', 'started', { length: 0 });
 * const entries = await store.list('log:job-7'); // ['started']
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
   * Atomically sets `key` only if it has no value, as `setIfAbsent` does,
   * by a deadline: an absent key is set to `value` while the store's clock
   * is before `until` (ms since the epoch; with `value` undefined, it is left
   * absent), and to `lateValue` from then on. Returns what the key holds
   * now, and whether this caller set it: of any number of concurrent callers,
   * on any number of instances, exactly one sets it, and the deadline is read
   * on one clock (the store's) in the same atomic step, so nothing can race it.
   */
  /**
   * The store's clock, in ms since the epoch: the one clock every instance
   * sharing the store reads (Redis's `TIME`). Optional: without it, each
   * instance reads its own.
   */
  now?(): Promise<number>;
  setIfAbsentUntil(
    key: string,
    value: string | undefined,
    options: { readonly until: number; readonly lateValue: string; readonly ttlMs?: number },
  ): Promise<{ readonly set: boolean; readonly value: string | undefined }>;
  /**
   * Atomically adds `member` to the set under `key` (created empty, with
   * `ttlMs` when given) and returns every member after: a member added twice
   * is there once.
   */
  addToSet(key: string, member: string, options?: { readonly ttlMs?: number }): Promise<readonly string[]>;
  /**
   * Atomically adds `amount` to the counter under `key` (0 when absent)
   * unless the result would exceed `limit`. `ttlMs` starts when the counter
   * is created. Returns whether it was added, and the counter's value after.
   */
  take(
    key: string,
    options: { readonly amount: number; readonly limit: number; readonly ttlMs?: number },
  ): Promise<{ readonly taken: boolean; readonly value: number }>;
  /**
   * Atomically appends `value` to the list under `key` (empty when absent)
   * if, and only if, the list holds exactly `length` entries: of concurrent
   * appends at one length, on any number of instances, exactly one
   * appends, so a list written this way never forks. Returns whether it
   * appended, and the list's length after (the winner's, when it did not).
   * Lists do not expire.
   */
  append(
    key: string,
    value: string,
    options: { readonly length: number },
  ): Promise<{ readonly appended: boolean; readonly length: number }>;
  /** The entries of the list under `key` from index `start` (default 0; negative: from the end) to its end, in order; `[]` for a missing key. */
  list(key: string, options?: { readonly start?: number }): Promise<readonly string[]>;
}
