/**
 * Runs `work` once the work queued before it under `key` has settled
 * (fulfilled or rejected): one at a time per key, in the order queued.
 * `queues` holds each key's last work, and forgets a key whose queue is
 * empty.
 */
export function inTurn<T>(queues: Map<string, Promise<void>>, key: string, work: () => Promise<T>): Promise<T> {
  const done = (queues.get(key) ?? Promise.resolve()).then(work);
  const settled = done.then(
    () => undefined,
    () => undefined,
  );
  queues.set(key, settled);
  void settled.then(() => {
    if (queues.get(key) === settled) queues.delete(key);
  });
  return done;
}
