/**
 * What every `Store` must do, as tests: run by the memory store's and the
 * Redis store's test files against their own store.
 */
import { expect, it } from 'vitest';
import type { Store } from '../../src/store/store.ts';

export interface StoreUnderTest {
  readonly store: Store;
  /** Lets `ms` pass for the store (a fake clock, or a real wait). */
  advance(ms: number): Promise<void>;
  /** The store's clock, in ms since the epoch. */
  now(): number;
}

export function storeContract(make: () => Promise<StoreUnderTest> | StoreUnderTest): void {
  it('should get what was set, undefined for a missing key, and nothing after delete', async () => {
    const { store } = await make();
    expect(await store.get('missing')).toBeUndefined();
    await store.set('greeting', 'hello');
    expect(await store.get('greeting')).toBe('hello');
    await store.set('greeting', 'bonjour');
    expect(await store.get('greeting')).toBe('bonjour');
    await store.delete('greeting');
    expect(await store.get('greeting')).toBeUndefined();
    await store.delete('greeting'); // deleting a missing key is fine
  });

  it('should expire a value set with ttlMs, and keep one set without', async () => {
    const { store, advance } = await make();
    await store.set('short', 'lived', { ttlMs: 200 });
    await store.set('long', 'lived');
    await advance(50);
    expect(await store.get('short')).toBe('lived');
    await advance(250);
    expect(await store.get('short')).toBeUndefined();
    expect(await store.get('long')).toBe('lived');
  });

  it('should take from 0 up to the limit, then refuse without changing the counter', async () => {
    const { store } = await make();
    const taken = [];
    for (let index = 0; index < 4; index++) taken.push(await store.take('calls', { amount: 1, limit: 3 }));
    expect(taken).toEqual([
      { taken: true, value: 1 },
      { taken: true, value: 2 },
      { taken: true, value: 3 },
      { taken: false, value: 3 },
    ]);
    expect(await store.get('calls')).toBe('3');
    // a smaller amount may still fit where a larger one did not
    expect(await store.take('tokens', { amount: 70, limit: 100 })).toEqual({ taken: true, value: 70 });
    expect(await store.take('tokens', { amount: 40, limit: 100 })).toEqual({ taken: false, value: 70 });
    expect(await store.take('tokens', { amount: 30, limit: 100 })).toEqual({ taken: true, value: 100 });
  });

  it('should refuse an amount over the limit without creating the counter', async () => {
    const { store } = await make();
    expect(await store.take('big', { amount: 5, limit: 4 })).toEqual({ taken: false, value: 0 });
    expect(await store.get('big')).toBeUndefined();
    expect(await store.take('none', { amount: 1, limit: 0 })).toEqual({ taken: false, value: 0 });
  });

  it('should add fractions, and always take under an infinite limit', async () => {
    const { store } = await make();
    expect(await store.take('cost', { amount: 0.25, limit: Number.POSITIVE_INFINITY })).toEqual({ taken: true, value: 0.25 });
    expect(await store.take('cost', { amount: 1e9, limit: Number.POSITIVE_INFINITY })).toEqual({ taken: true, value: 1_000_000_000.25 });
    expect(await store.take('cost', { amount: 0, limit: Number.POSITIVE_INFINITY })).toEqual({ taken: true, value: 1_000_000_000.25 });
  });

  it('should start the ttl when the counter is created, not extend it on each take', async () => {
    const { store, advance } = await make();
    await store.take('window', { amount: 1, limit: 10, ttlMs: 300 });
    await advance(200);
    expect(await store.take('window', { amount: 1, limit: 10, ttlMs: 300 })).toEqual({ taken: true, value: 2 });
    await advance(200);
    // 400 ms after creation: expired, even though the last take was 200 ms ago
    expect(await store.get('window')).toBeUndefined();
    expect(await store.take('window', { amount: 1, limit: 10, ttlMs: 300 })).toEqual({ taken: true, value: 1 });
  });

  it('should never overshoot the limit under 1000 concurrent takes', async () => {
    const { store } = await make();
    const results = await Promise.all(
      Array.from({ length: 1000 }, () => store.take('concurrent', { amount: 1, limit: 137, ttlMs: 60_000 })),
    );
    expect(results.filter((result) => result.taken)).toHaveLength(137);
    expect(
      results
        .filter((result) => result.taken)
        .map((result) => result.value)
        .sort((a, b) => a - b),
    ).toEqual(Array.from({ length: 137 }, (_, index) => index + 1));
    expect(results.filter((result) => !result.taken).every((result) => result.value === 137)).toBe(true);
    expect(await store.get('concurrent')).toBe('137');
  });

  it('should set if absent only, and say whether it set', async () => {
    const { store, advance } = await make();
    expect(await store.setIfAbsent('claim', 'first')).toBe(true);
    expect(await store.setIfAbsent('claim', 'second')).toBe(false);
    expect(await store.get('claim')).toBe('first');
    await store.delete('claim');
    expect(await store.setIfAbsent('claim', 'third')).toBe(true);
    expect(await store.get('claim')).toBe('third');
    // an expired value counts as absent; the ttl applies to the value set
    expect(await store.setIfAbsent('lease', 'a', { ttlMs: 200 })).toBe(true);
    await advance(50);
    expect(await store.setIfAbsent('lease', 'b', { ttlMs: 200 })).toBe(false);
    await advance(250);
    expect(await store.get('lease')).toBeUndefined();
    expect(await store.setIfAbsent('lease', 'c')).toBe(true);
    await advance(250);
    expect(await store.get('lease')).toBe('c');
  });

  it('should get and delete: the value once, then undefined', async () => {
    const { store, advance } = await make();
    expect(await store.getAndDelete('missing')).toBeUndefined();
    await store.set('pending', '{"requestedAt":1}');
    expect(await store.getAndDelete('pending')).toBe('{"requestedAt":1}');
    expect(await store.getAndDelete('pending')).toBeUndefined();
    expect(await store.get('pending')).toBeUndefined();
    await store.set('short', 'lived', { ttlMs: 100 });
    await advance(200);
    expect(await store.getAndDelete('short')).toBeUndefined();
  });

  it('should let exactly one of 500 concurrent setIfAbsent callers set the key', async () => {
    const { store } = await make();
    const results = await Promise.all(
      Array.from({ length: 500 }, (_, index) => store.setIfAbsent('contended', `caller-${index}`, { ttlMs: 60_000 })),
    );
    const winners = results.flatMap((set, index) => (set ? [index] : []));
    expect(winners).toHaveLength(1);
    expect(await store.get('contended')).toBe(`caller-${winners[0]}`);
  });

  it('should give the value to exactly one of 500 concurrent getAndDelete callers', async () => {
    const { store } = await make();
    await store.set('once', 'the value');
    const results = await Promise.all(Array.from({ length: 500 }, () => store.getAndDelete('once')));
    expect(results.filter((value) => value !== undefined)).toEqual(['the value']);
    expect(await store.get('once')).toBeUndefined();
  });

  it('should hand each of 100 values to exactly one taker when 100 setters and 300 takers race', async () => {
    const { store } = await make();
    const keys = Array.from({ length: 100 }, (_, index) => `item-${index}`);
    const takers = keys.flatMap((key) => [store.getAndDelete(key), store.getAndDelete(key), store.getAndDelete(key)]);
    const setters = keys.map((key) => store.setIfAbsent(key, key));
    await Promise.all(setters);
    const taken = [...(await Promise.all(takers)), ...(await Promise.all(keys.map((key) => store.getAndDelete(key))))];
    // every value was set once and taken once, whichever ran first
    expect(taken.filter((value) => value !== undefined).sort()).toEqual([...keys].sort());
  });

  it('should append at the length given only, and list the entries from a start', async () => {
    const { store } = await make();
    expect(await store.list('log')).toEqual([]);
    expect(await store.append('log', 'a', { length: 0 })).toEqual({ appended: true, length: 1 });
    expect(await store.append('log', 'b', { length: 1 })).toEqual({ appended: true, length: 2 });
    // a stale length appends nothing and says how long the list is
    expect(await store.append('log', 'x', { length: 1 })).toEqual({ appended: false, length: 2 });
    expect(await store.append('log', 'x', { length: 5 })).toEqual({ appended: false, length: 2 });
    expect(await store.append('log', 'c', { length: 2 })).toEqual({ appended: true, length: 3 });
    expect(await store.list('log')).toEqual(['a', 'b', 'c']);
    expect(await store.list('log', { start: 1 })).toEqual(['b', 'c']);
    expect(await store.list('log', { start: -1 })).toEqual(['c']);
    expect(await store.list('log', { start: 3 })).toEqual([]);
    await store.delete('log');
    expect(await store.list('log')).toEqual([]);
  });

  it('should let exactly one of 300 concurrent appends at one length append', async () => {
    const { store } = await make();
    await store.append('chain', 'first', { length: 0 });
    const results = await Promise.all(Array.from({ length: 300 }, (_, index) => store.append('chain', `caller-${index}`, { length: 1 })));
    const winners = results.flatMap((result, index) => (result.appended ? [index] : []));
    expect(winners).toHaveLength(1);
    expect(results.every((result) => result.length === 2)).toBe(true);
    expect(await store.list('chain')).toEqual(['first', `caller-${winners[0]}`]);
  });

  it('should keep keys apart', async () => {
    const { store } = await make();
    await store.take('a', { amount: 2, limit: 5 });
    await store.take('b', { amount: 3, limit: 5 });
    await store.set('c', 'x');
    expect([await store.get('a'), await store.get('b'), await store.get('c')]).toEqual(['2', '3', 'x']);
  });

  it('should tell the time on its own clock, and see it pass', async () => {
    const { store, now, advance } = await make();
    const before = await store.now?.();
    expect(before).toBeTypeOf('number');
    expect(Math.abs((before ?? 0) - now())).toBeLessThan(1_000);
    await advance(50);
    expect((await store.now?.()) ?? 0).toBeGreaterThanOrEqual((before ?? 0) + 50);
  });

  it('should set a key absent before the deadline once, and keep it', async () => {
    const { store, now } = await make();
    const until = now() + 60_000;
    expect(await store.setIfAbsentUntil('claim', 'running', { until, lateValue: 'expired', ttlMs: 60_000 })).toEqual({
      set: true,
      value: 'running',
    });
    expect(await store.setIfAbsentUntil('claim', 'running', { until, lateValue: 'expired' })).toEqual({ set: false, value: 'running' });
    expect(await store.get('claim')).toBe('running');
  });

  it('should set the late value from the deadline on, on the store’s clock, and leave a key absent when there is no value before it', async () => {
    const { store, now, advance } = await make();
    const until = now() + 150;
    expect(await store.setIfAbsentUntil('open', undefined, { until, lateValue: 'expired' })).toEqual({ set: false, value: undefined });
    expect(await store.get('open')).toBeUndefined();
    await advance(300);
    expect(await store.setIfAbsentUntil('open', undefined, { until, lateValue: 'expired' })).toEqual({ set: true, value: 'expired' });
    // once expired, a claim finds it expired
    expect(await store.setIfAbsentUntil('open', 'running', { until, lateValue: 'expired' })).toEqual({ set: false, value: 'expired' });
    expect(await store.setIfAbsentUntil('late', 'running', { until, lateValue: 'expired' })).toEqual({ set: true, value: 'expired' });
  });

  it('should let exactly one of 200 concurrent callers set a key by a deadline', async () => {
    const { store, now } = await make();
    const until = now() + 60_000;
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, index) =>
        store.setIfAbsentUntil('race', `caller-${index}`, { until, lateValue: 'expired', ttlMs: 60_000 }),
      ),
    );
    const winners = results.filter((result) => result.set);
    expect(winners).toHaveLength(1);
    expect(new Set(results.map((result) => result.value))).toEqual(new Set([winners[0]?.value]));
  });

  it('should add members to a set once each, and return all of them', async () => {
    const { store } = await make();
    expect(await store.addToSet('voters', 'bob', { ttlMs: 60_000 })).toEqual(['bob']);
    expect([...(await store.addToSet('voters', 'carol'))].sort()).toEqual(['bob', 'carol']);
    expect([...(await store.addToSet('voters', 'bob'))].sort()).toEqual(['bob', 'carol']);
    const concurrent = await Promise.all(Array.from({ length: 50 }, (_, index) => store.addToSet('crowd', `person-${index % 10}`)));
    expect(new Set(concurrent.flat())).toEqual(new Set(Array.from({ length: 10 }, (_, index) => `person-${index}`)));
    expect(concurrent.at(-1)).toHaveLength(10);
  });

  it('should expire a set with ttlMs, counted from its first member', async () => {
    const { store, advance } = await make();
    await store.addToSet('short', 'a', { ttlMs: 200 });
    await advance(50);
    await store.addToSet('short', 'b', { ttlMs: 200 });
    await advance(250);
    expect(await store.addToSet('short', 'c', { ttlMs: 200 })).toEqual(['c']);
  });
}
