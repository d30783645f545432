import { afterEach, describe, expect, it, vi } from 'vitest';
import { cache } from '../../src/builtins/cache.ts';
import { createInterventions, defineHandler, HandlerTimeoutError } from '../../src/index.ts';
import { createMemoryStore } from '../../src/store/create-memory-store.ts';
import { createFakeClock, runHandler, scriptedModel, text } from '../../src/testing/index.ts';

describe('createFakeClock', () => {
  it('should only move when advanced, from the given start', async () => {
    const clock = createFakeClock({ start: 1_000 });
    expect(clock.now()).toBe(1_000);
    await clock.advance(250);
    expect(clock.now()).toBe(1_250);
    const { now } = clock; // bound: can be passed on its own
    expect(now()).toBe(1_250);
    await expect(clock.advance(-1)).rejects.toThrow(RangeError);
  });

  it('should fire its timers in time order as it passes them, at their time', async () => {
    const clock = createFakeClock();
    const fired: string[] = [];
    clock.setTimeout(() => fired.push(`b@${clock.now()}`), 20);
    clock.setTimeout(() => fired.push(`a@${clock.now()}`), 10);
    const cancelled = clock.setTimeout(() => fired.push('never'), 15);
    clock.clearTimeout(cancelled);
    clock.setTimeout(() => fired.push(`c@${clock.now()}`), 30);

    await clock.advance(25);
    expect(fired).toEqual(['a@10', 'b@20']);
    expect(clock.now()).toBe(25);
    expect(clock.pending()).toBe(1);
    await clock.advance(5);
    expect(fired).toEqual(['a@10', 'b@20', 'c@30']);
  });

  it('should settle sleep() promises and the work awaiting them before the next timer', async () => {
    const clock = createFakeClock();
    const log: string[] = [];
    const worker = (async () => {
      await clock.sleep(100);
      log.push(`woke at ${clock.now()}`);
      await clock.sleep(100);
      log.push(`woke again at ${clock.now()}`);
    })();
    await clock.advance(150);
    expect(log).toEqual(['woke at 100']);
    await clock.advance(50);
    await worker;
    expect(log).toEqual(['woke at 100', 'woke again at 200']);
  });

  it('should drive a store TTL (stores take `now`)', async () => {
    const clock = createFakeClock();
    const store = createMemoryStore({ now: clock.now });
    await store.take('calls:user-1', { amount: 1, limit: 1, ttlMs: 60_000 });
    expect((await store.take('calls:user-1', { amount: 1, limit: 1, ttlMs: 60_000 })).taken).toBe(false);
    await clock.advance(60_000);
    expect((await store.take('calls:user-1', { amount: 1, limit: 1, ttlMs: 60_000 })).taken).toBe(true);
  });

  it('should drive a cache TTL', async () => {
    const clock = createFakeClock();
    const interventions = createInterventions({ hooks: cache({ ttlMs: 1_000, now: clock.now }) });
    const model = scriptedModel(text('first'), text('second'));
    await interventions.generateText({ model, prompt: 'hi' });
    await clock.advance(1_000);
    expect((await interventions.generateText({ model, prompt: 'hi' })).text).toBe('second');
  });

  describe("handler timeoutMs (runs on the process timers: use the runner's fake timers)", () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it('should time out a hanging handler without waiting in real time', async () => {
      vi.useFakeTimers();
      const hanging = defineHandler({
        name: 'hanging-policy',
        timeoutMs: 5_000,
        onError: 'deny',
        beforeToolCall: () => new Promise<never>(() => {}),
      });
      const pending = runHandler(hanging, { lifecycle: 'beforeToolCall', toolCall: { toolName: 'deploy', input: {} } });
      await vi.advanceTimersByTimeAsync(5_000);
      const outcome = await pending;
      expect(outcome.action).toBe('deny');
      expect(outcome.record?.error).toBeInstanceOf(HandlerTimeoutError);
      expect(outcome.executed).toEqual([]);
    });
  });
});
