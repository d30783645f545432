/**
 * Reads an own property only, so a name such as `constructor`, `toString` or
 * `__proto__` never resolves to something on `Object.prototype`.
 */
export function getOwn<T>(record: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return record != null && Object.hasOwn(record, key) ? record[key] : undefined;
}
