import { markInMemory } from './in-memory.ts';
import type { Store } from './store.ts';

/** Below this many entries, expired ones are only dropped when read. */
const SWEEP_FLOOR = 1_024;

/**
 * A {@link Store} in this process's memory: the default of the stateful
 * handlers. Every method runs synchronously inside its promise, so
 * `take`, `setIfAbsent`, `setIfAbsentUntil`, `addToSet` and `getAndDelete`
 * are atomic within the process.
 * Entries expire when read, and expired entries are swept out as the store
 * grows (so keys written once and never read again do not pile up); `now`
 * can be replaced for tests.
 *
 * @example
 * ```ts
 * const store = createMemoryStore();
 * await store.set('approved:delete_file', 'always');
 * ```
 */
export function createMemoryStore({ now = () => Date.now() }: { readonly now?: () => number } = {}): Store {
  const entries = new Map<string, { value: string; expiresAt: number | undefined }>();
  const lists = new Map<string, string[]>();
  let sweepAt = SWEEP_FLOOR;
  const read = (key: string) => {
    const entry = entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt !== undefined && entry.expiresAt <= now()) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  };
  const write = (key: string, value: string, expiresAt: number | undefined) => {
    entries.set(key, { value, expiresAt });
    // amortised: a sweep costs O(size) and the next one waits until the size has doubled
    if (entries.size < sweepAt) return;
    const time = now();
    for (const [stored, entry] of entries) {
      if (entry.expiresAt !== undefined && entry.expiresAt <= time) entries.delete(stored);
    }
    sweepAt = Math.max(SWEEP_FLOOR, entries.size * 2);
  };
  const expiry = (ttlMs: number | undefined) => (ttlMs === undefined ? undefined : now() + ttlMs);
  return markInMemory({
    get: async (key) => read(key)?.value,
    set: async (key, value, options) => {
      write(key, value, expiry(options?.ttlMs));
    },
    delete: async (key) => {
      entries.delete(key);
      lists.delete(key);
    },
    setIfAbsent: async (key, value, options) => {
      if (read(key) !== undefined) return false;
      write(key, value, expiry(options?.ttlMs));
      return true;
    },
    now: async () => now(),
    setIfAbsentUntil: async (key, value, { until, lateValue, ttlMs }) => {
      const entry = read(key);
      if (entry !== undefined) return { set: false, value: entry.value };
      const stored = now() < until ? value : lateValue;
      if (stored === undefined) return { set: false, value: undefined };
      write(key, stored, expiry(ttlMs));
      return { set: true, value: stored };
    },
    addToSet: async (key, member, options) => {
      const entry = read(key);
      const members: string[] = entry === undefined ? [] : (JSON.parse(entry.value) as string[]);
      if (!members.includes(member)) members.push(member);
      write(key, JSON.stringify(members), entry?.expiresAt ?? expiry(options?.ttlMs));
      return members;
    },
    getAndDelete: async (key) => {
      const entry = read(key);
      entries.delete(key);
      return entry?.value;
    },
    take: async (key, { amount, limit, ttlMs }) => {
      const entry = read(key);
      const current = entry === undefined ? 0 : Number(entry.value);
      if (current + amount > limit) return { taken: false, value: current };
      const value = current + amount;
      write(key, String(value), entry?.expiresAt ?? expiry(ttlMs));
      return { taken: true, value };
    },
    append: async (key, value, { length }) => {
      const list = lists.get(key) ?? [];
      if (list.length !== length) return { appended: false, length: list.length };
      list.push(value);
      lists.set(key, list);
      return { appended: true, length: list.length };
    },
    list: async (key, options) => (lists.get(key) ?? []).slice(options?.start ?? 0),
  });
}
