/**
 * A controllable clock: `now()` only moves when you `advance` it, and the
 * clock's own timers fire as it passes their time.
 *
 * @example
 * ```ts
 * const clock: FakeClock = createFakeClock();
 * const store = createMemoryStore({ now: clock.now });
 * await store.set('approved:delete_file', 'yes', { ttlMs: 60_000 });
 * await clock.advance(60_000);
 * expect(await store.get('approved:delete_file')).toBeUndefined();
 * ```
 */
export interface FakeClock {
  /** The current time in milliseconds. Bound: pass it as it is (`{ now: clock.now }`). */
  readonly now: () => number;
  /**
   * Moves time forward by `ms`, firing the clock's due timers in time order;
   * after each, pending promise callbacks run before the next fires.
   */
  readonly advance: (ms: number) => Promise<void>;
  /** A timer on this clock (not the process's); returns its id. */
  readonly setTimeout: (callback: () => void, ms?: number) => number;
  readonly clearTimeout: (id: number | undefined) => void;
  /** A promise that settles when the clock has advanced `ms`. */
  readonly sleep: (ms: number) => Promise<void>;
  /** How many of the clock's timers have not fired yet. */
  readonly pending: () => number;
}

/** How many promise-callback turns `advance` lets run after each timer. */
const SETTLE_TURNS = 25;

/**
 * A fake clock for limits, budgets, TTLs and your own timers. Pass `now` to
 * whatever takes a clock (`createMemoryStore({ now })`, `cache({ now })`),
 * and `setTimeout` / `sleep` to code that takes a timer; then `advance` it.
 *
 * Handler `timeoutMs` runs on the process's timers, not on this clock: test
 * it with your test runner's fake timers, e.g. in vitest
 * `vi.useFakeTimers()`, start the call without awaiting it, then
 * `await vi.advanceTimersByTimeAsync(timeoutMs)` and await the call (call
 * `vi.useRealTimers()` afterwards). The kit does not import a test runner.
 *
 * @example
 * ```ts
 * const clock = createFakeClock({ start: Date.UTC(2026, 0, 1) });
 * const responses = cache({ ttlMs: 1_000, now: clock.now });
 * const interventions = createInterventions({ hooks: responses });
 * await interventions.generateText({ model, prompt: 'hi' }); // stored
 * await clock.advance(1_000);
 * await interventions.generateText({ model, prompt: 'hi' }); // expired: the provider is called again
 * ```
 */
export function createFakeClock({ start = 0 }: { readonly start?: number } = {}): FakeClock {
  let time = start;
  let nextId = 1;
  const timers = new Map<number, { readonly at: number; readonly callback: () => void }>();

  const setTimeout = (callback: () => void, ms = 0): number => {
    const id = nextId++;
    timers.set(id, { at: time + Math.max(0, ms), callback });
    return id;
  };

  const advance = async (ms: number): Promise<void> => {
    if (!(ms >= 0)) throw new RangeError(`createFakeClock: cannot advance by ${String(ms)} ms.`);
    const until = time + ms;
    await settle();
    for (;;) {
      let due: [number, { readonly at: number; readonly callback: () => void }] | undefined;
      // the earliest due timer; ties fire in the order they were set (Map order)
      for (const entry of timers) if (entry[1].at <= until && (due === undefined || entry[1].at < due[1].at)) due = entry;
      if (due === undefined) break;
      timers.delete(due[0]);
      time = due[1].at;
      due[1].callback();
      await settle();
    }
    time = until;
  };

  return {
    now: () => time,
    advance,
    setTimeout,
    clearTimeout: (id) => {
      if (id !== undefined) timers.delete(id);
    },
    sleep: (ms) => new Promise<void>((resolve) => void setTimeout(resolve, ms)),
    pending: () => timers.size,
  };
}

/** Lets pending promise callbacks (and the ones they queue) run. */
async function settle(): Promise<void> {
  for (let turn = 0; turn < SETTLE_TURNS; turn++) await Promise.resolve();
}
