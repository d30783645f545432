import type { Store } from './store.ts';

/**
 * A {@link Store} in this process's memory: the default of the stateful
 * handlers. Entries expire lazily; `now` can be replaced for tests.
 *
 * @example
 * ```ts
 * const store = createMemoryStore();
 * await store.set('approved:delete_file', 'always');
 * ```
 */
export function createMemoryStore({ now = () => Date.now() }: { readonly now?: () => number } = {}): Store {
  const entries = new Map<string, { value: string; expiresAt: number | undefined }>();
  const read = (key: string) => {
    const entry = entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt !== undefined && entry.expiresAt <= now()) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  };
  return {
    get: async (key) => read(key)?.value,
    set: async (key, value, options) => {
      entries.set(key, { value, expiresAt: options?.ttlMs === undefined ? undefined : now() + options.ttlMs });
    },
    delete: async (key) => {
      entries.delete(key);
    },
    take: async (key, { amount, limit, ttlMs }) => {
      const entry = read(key);
      const current = entry === undefined ? 0 : Number(entry.value);
      if (current + amount > limit) return { taken: false, value: current };
      const value = current + amount;
      entries.set(key, {
        value: String(value),
        expiresAt: entry?.expiresAt ?? (ttlMs === undefined ? undefined : now() + ttlMs),
      });
      return { taken: true, value };
    },
  };
}
