/**
 * Copies plain data (arrays and plain objects) deeply, so a draft can be
 * mutated without touching the original. Anything else (a `Uint8Array`, a
 * `URL`, a `Date`, a class instance) is kept by reference. A `__proto__` key
 * is copied as an own property, never as the copy's prototype.
 */
export function copyData<T>(value: T): T {
  if (Array.isArray(value)) return value.map(copyData) as T;
  if (value === null || typeof value !== 'object') return value;
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;

  const copy: Record<string, unknown> = prototype === null ? Object.create(null) : {};
  for (const key of Object.keys(value)) {
    const item = copyData((value as Record<string, unknown>)[key]);
    if (key === '__proto__') {
      Object.defineProperty(copy, key, {
        value: item,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else {
      copy[key] = item;
    }
  }
  return copy as T;
}
