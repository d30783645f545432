/**
 * Awaits `promise`, rejecting early when `timeoutMs` elapses (with
 * `onTimeout()`) or when `abortSignal` aborts (with its reason). The timer is
 * always cleared, so nothing is left pending once this settles, and a
 * rejection of `promise` after that is handled (never reported unhandled).
 */
export function settle<T>(
  promise: PromiseLike<T>,
  {
    timeoutMs,
    onTimeout,
    abortSignal,
  }: {
    timeoutMs: number | undefined;
    onTimeout: () => unknown;
    abortSignal: AbortSignal | undefined;
  },
): Promise<T> {
  if (timeoutMs == null && abortSignal == null) return Promise.resolve(promise);

  return new Promise<T>((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const cleanup = () => {
      if (timer !== undefined) clearTimeout(timer);
      abortSignal?.removeEventListener('abort', onAbort);
    };
    const onAbort = () => {
      cleanup();
      reject(abortSignal?.reason);
    };

    if (abortSignal?.aborted) {
      // nobody waits for it any more: its rejection is handled here, never left unhandled
      promise.then(undefined, () => undefined);
      reject(abortSignal.reason);
      return;
    }
    abortSignal?.addEventListener('abort', onAbort, { once: true });
    if (timeoutMs != null) {
      timer = setTimeout(() => {
        cleanup();
        reject(onTimeout());
      }, timeoutMs);
    }

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
