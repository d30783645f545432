/** Whether `value` is a promise or any other thenable (cross-realm safe). */
export function isThenable<T>(value: unknown): value is PromiseLike<T> {
  return (
    value != null && (typeof value === 'object' || typeof value === 'function') && typeof (value as { then?: unknown }).then === 'function'
  );
}
