/** What keeps its state in this process's memory: the memory stores, and what is made on one. */
const inMemory = new WeakSet<object>();

/**
 * Marks `value` (a store, or a ledger or trail made on one) as keeping its
 * state in this process's memory, so a runtime can tell it apart from state
 * several instances share. Returns `value`.
 */
export function markInMemory<VALUE extends object>(value: VALUE): VALUE {
  inMemory.add(value);
  return value;
}

/**
 * Whether `value` was marked by {@link markInMemory}: state of this process
 * only. Anything else (a Redis store, the app's own on its database) counts
 * as shared.
 */
export function isInMemory(value: unknown): boolean {
  return typeof value === 'object' && value !== null && inMemory.has(value);
}
