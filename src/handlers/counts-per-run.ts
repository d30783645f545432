/** The built-in handlers that keep their count per run. */
const perRun = new WeakSet<object>();

/**
 * Marks a built-in's `handler` as keeping its count per run (`callBudget` /
 * `rateLimit` with `per: 'run'`): it needs a run id, so a path without runs
 * refuses it (the `'perRun'` row of the capability table) rather than let it
 * deny every call. Returns `handler`.
 */
export function markCountsPerRun<HANDLER extends object>(handler: HANDLER): HANDLER {
  perRun.add(handler);
  return handler;
}

/** Whether `handler` keeps its count per run. */
export function countsPerRun(handler: object): boolean {
  return perRun.has(handler);
}
