const REDACTED = '[REDACTED]';

/**
 * `value` with `redact` applied to every string in it (object keys too) and
 * the values of `sensitiveKeys` replaced whole. Returns `value` itself when
 * nothing changed, a new value otherwise; `value` is never mutated. Plain
 * objects and arrays are copied (shared references and cycles included). An
 * `Error` is copied as an error of the same class with its own properties
 * redacted (message, stack, cause, and fields such as an HTTP error's
 * response body), since its text is what the model and the UI read. Any
 * other object (a `Date`, a class instance) is kept as is unless its JSON,
 * which is what the model would read, has something to redact. For
 * example, `redactData({ note: 'mail a@b.io', password: 'x' }, emailRedactor.redact, /password$/i)`
 * is `{ note: 'mail [EMAIL]', password: '[REDACTED]' }`.
 */
export function redactData(value: unknown, redact: (text: string) => string, sensitiveKeys?: RegExp): unknown {
  const copies = new Map<object, unknown>();
  let changes = 0;

  const visit = (item: unknown, sensitive: boolean): unknown => {
    if (typeof item === 'string') {
      const next = sensitive && item.length > 0 ? REDACTED : redact(item);
      if (next !== item) changes++;
      return next;
    }
    if (item === null || typeof item !== 'object') return item;
    if (copies.has(item)) return copies.get(item);

    if (Array.isArray(item)) {
      const copy: unknown[] = new Array<unknown>(item.length);
      copies.set(item, copy);
      for (let index = 0; index < item.length; index++) copy[index] = visit(item[index], sensitive);
      return copy;
    }

    const prototype: unknown = Object.getPrototypeOf(item);
    if (prototype === Object.prototype || prototype === null) {
      const copy: Record<string, unknown> = prototype === null ? Object.create(null) : {};
      copies.set(item, copy);
      for (const key of Object.keys(item)) {
        let target = redact(key);
        if (target !== key) changes++;
        // two keys redacted to the same text: keep both values
        for (let suffix = 2; Object.hasOwn(copy, target); suffix++) {
          target = `${redact(key)} (${suffix})`;
        }
        const entry = visit((item as Record<string, unknown>)[key], sensitiveKeys?.test(key) ?? false);
        // defined, never assigned: a `__proto__` key stays an own property
        Object.defineProperty(copy, target, { value: entry, enumerable: true, writable: true, configurable: true });
      }
      return copy;
    }

    if (item instanceof Error) {
      // a real error (not a look-alike) of the same class, without running its constructor
      const copy = Reflect.construct(Error, []) as Error;
      Object.setPrototypeOf(copy, prototype as object);
      copies.set(item, copy);
      const before = changes;
      for (const key of Reflect.ownKeys(item)) {
        const { enumerable = false, configurable = true } = Object.getOwnPropertyDescriptor(item, key) ?? {};
        // `stack` is an accessor on V8 errors: copy its value
        let entry: unknown;
        try {
          entry = Reflect.get(item, key);
        } catch {
          continue;
        }
        entry = visit(entry, typeof key === 'string' && (sensitiveKeys?.test(key) ?? false));
        Object.defineProperty(copy, key, { value: entry, enumerable, writable: true, configurable });
      }
      const result = changes === before ? item : copy;
      copies.set(item, result);
      return result;
    }

    // anything else reaches the model as its JSON: redact that if needed
    let json: string | undefined;
    try {
      json = JSON.stringify(item);
    } catch {
      json = undefined;
    }
    if (json === undefined) {
      copies.set(item, item);
      return item;
    }
    const before = changes;
    const parsed = visit(JSON.parse(json) as unknown, sensitive);
    const result = changes === before ? item : parsed;
    copies.set(item, result);
    return result;
  };

  const result = visit(value, false);
  return changes === 0 ? value : result;
}
