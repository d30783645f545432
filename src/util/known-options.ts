import { UnknownOptionError } from '../errors/unknown-option-error.ts';
import { closestName } from './closest-name.ts';

/** Every key of every member of a union (`keyof` of a union keeps only the common ones). */
type KeysOfUnion<T> = T extends unknown ? keyof T & string : never;

/**
 * The keys an options type takes, checked at run time for JavaScript
 * callers (and casts): `check` throws an {@link UnknownOptionError} for an
 * own key that is not one of them.
 */
export interface KnownOptions {
  readonly keys: readonly string[];
  /**
   * Throws for the first unknown key of `options`. Anything but a plain
   * object is left to the caller's own checks (an instance of a class keeps
   * fields and helpers of its own).
   */
  check(options: unknown, owner: string): void;
}

/**
 * The one place an options type's keys are listed: `keys` must name every
 * key of `OPTIONS` (of every member, for a union) and nothing else, so a key
 * added to the type is a compile error here until it is listed. For
 * example, `knownOptions<CacheOptions>({ maxEntries: true, ttlMs: true,
 * key: true, now: true }).check({ ttl: 1000 }, 'cache')` throws: cache has
 * no option "ttl" (did you mean ttlMs?).
 */
export function knownOptions<OPTIONS>(keys: { readonly [KEY in KeysOfUnion<OPTIONS>]: true }): KnownOptions {
  const list = Object.keys(keys);
  return {
    keys: list,
    check(options, owner) {
      if (!isPlainObject(options)) return;
      for (const option of Object.keys(options)) {
        if (list.includes(option)) continue;
        throw new UnknownOptionError({ owner, option, suggestion: suggestionFor(option, list), known: list });
      }
    },
  };
}

/** An object literal (or `Object.create(null)`): not an array, not an instance of a class. */
export function isPlainObject(value: unknown): value is object {
  if (value === null || typeof value !== 'object') return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** The known key a typo meant: the closest by edit distance, or one it is the start of (`ttl` for `ttlMs`). */
function suggestionFor(option: string, keys: readonly string[]): string | undefined {
  const near = closestName(option, keys);
  if (near !== undefined || option.length < 3) return near;
  const lower = option.toLowerCase();
  return keys.find((key) => key.toLowerCase().startsWith(lower));
}
