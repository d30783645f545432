import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../src/store/create-memory-store.ts';
import { storeContract } from './store-contract.ts';

describe('createMemoryStore', () => {
  storeContract(() => {
    let time = 1_000_000;
    return {
      store: createMemoryStore({ now: () => time }),
      advance: async (ms) => {
        time += ms;
      },
    };
  });

  it('should expire on the real clock by default', async () => {
    const store = createMemoryStore();
    await store.set('key', 'value', { ttlMs: 30 });
    expect(await store.get('key')).toBe('value');
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(await store.get('key')).toBeUndefined();
  });

  it('should keep each store apart', async () => {
    const one = createMemoryStore();
    const two = createMemoryStore();
    await one.take('calls', { amount: 1, limit: 1 });
    expect(await two.take('calls', { amount: 1, limit: 1 })).toEqual({ taken: true, value: 1 });
  });
});
