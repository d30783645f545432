/**
 * `promise`, except that once `abortSignal` aborts, it rejects with the
 * signal's reason if `promise` has not settled `graceMs` later: what was
 * aborted gets the time to end as it normally would (its callbacks and
 * errors unchanged), and something that ignores the signal cannot hold the
 * caller forever. The timer is cleared as soon as either settles.
 */
export function settleAfterAbort<T>(promise: PromiseLike<T>, abortSignal: AbortSignal | undefined, graceMs: number): Promise<T> {
  if (abortSignal === undefined) return Promise.resolve(promise);
  return new Promise<T>((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onAbort = () => {
      timer = setTimeout(() => reject(abortSignal.reason), graceMs);
    };
    const cleanup = () => {
      if (timer !== undefined) clearTimeout(timer);
      abortSignal.removeEventListener('abort', onAbort);
    };
    if (abortSignal.aborted) onAbort();
    else abortSignal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        cleanup();
        resolve(value);
      },
      (error: unknown) => {
        cleanup();
        reject(error);
      },
    );
  });
}
