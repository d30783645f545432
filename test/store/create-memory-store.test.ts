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
      now: () => time,
    };
  });

  it('should expire on the real clock by default', async () => {
    const store = createMemoryStore();
    await store.set('key', 'value', { ttlMs: 30 });
    expect(await store.get('key')).toBe('value');
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(await store.get('key')).toBeUndefined();
  });

  it('should sweep out expired entries nobody reads again, and keep the live ones', async () => {
    let time = 0;
    const store = createMemoryStore({ now: () => time });
    await store.set('forever', 'kept');
    for (let index = 0; index < 3_000; index++) await store.set(`approval-${index}`, 'used', { ttlMs: 100 });
    await store.setIfAbsent('fresh', 'kept', { ttlMs: 1_000 });
    time += 200;
    for (let index = 0; index < 3_000; index++) await store.setIfAbsent(`later-${index}`, 'live', { ttlMs: 1_000 });
    expect(await store.get('forever')).toBe('kept');
    expect(await store.get('fresh')).toBe('kept');
    expect(await store.get('later-0')).toBe('live');
    expect(await store.get('approval-0')).toBeUndefined();
  });

  it('should keep each store apart', async () => {
    const one = createMemoryStore();
    const two = createMemoryStore();
    await one.take('calls', { amount: 1, limit: 1 });
    expect(await two.take('calls', { amount: 1, limit: 1 })).toEqual({ taken: true, value: 1 });
  });
});
