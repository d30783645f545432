import { UnknownOptionError } from '../errors/unknown-option-error.ts';
import { closestName } from './closest-name.ts';

/** Every key of every member of a union (`keyof` of a union keeps only the common ones). */
type KeysOfUnion<T> = T extends unknown ? keyof T & string : never;

/**
 * A key of an options object that the options do not take: where it is
 * (`path`: `''` at the top, `approvers`, `approval.approvers`), the key, the
 * known key closest to it (when one is close enough to be what was meant),
 * and every key known there.
 */
export interface UnknownKey {
  readonly path: string;
  readonly option: string;
  readonly suggestion: string | undefined;
  readonly known: readonly string[];
}

/**
 * The keys an options type takes, checked at run time for JavaScript
 * callers (and casts), in the option objects it nests too: `check` throws an
 * {@link UnknownOptionError} for an own key that is not one of them.
 */
export interface KnownOptions {
  readonly keys: readonly string[];
  /**
   * The first unknown key of `options` (its own, then its nested option
   * objects'), or `undefined`. Anything but a plain object is left to the
   * caller's own checks (an instance of a class keeps fields and helpers of
   * its own).
   */
  find(options: unknown): UnknownKey | undefined;
  /** Throws for the first unknown key of `options`, naming `owner` (and the nested object: `humanApproval "x" approvers`). */
  check(options: unknown, owner: string): void;
}

/**
 * The one place an options type's keys are listed: `keys` must name every
 * key of `OPTIONS` (of every member, for a union) and nothing else, so a key
 * added to the type is a compile error here until it is listed. A key whose
 * value is an options object of its own gives that object's
 * {@link KnownOptions} instead of `true`, and is checked too. For example,
 * `knownOptions<CacheOptions>({ maxEntries: true, ttlMs: true, key: true,
 * now: true }).check({ ttl: 1000 }, 'cache')` throws: cache has no option
 * "ttl" (did you mean ttlMs?).
 */
export function knownOptions<OPTIONS>(keys: { readonly [KEY in KeysOfUnion<OPTIONS>]: true | KnownOptions }): KnownOptions {
  const list = Object.keys(keys);
  const nested = Object.entries(keys as Record<string, true | KnownOptions>).filter(
    (entry): entry is [string, KnownOptions] => entry[1] !== true,
  );
  const find = (options: unknown): UnknownKey | undefined => {
    if (!isPlainObject(options)) return undefined;
    for (const option of Object.keys(options)) {
      if (!list.includes(option)) return { path: '', option, suggestion: suggestionFor(option, list), known: list };
    }
    for (const [key, inner] of nested) {
      const found = inner.find((options as Record<string, unknown>)[key]);
      if (found !== undefined) return { ...found, path: found.path === '' ? key : `${key}.${found.path}` };
    }
    return undefined;
  };
  return {
    keys: list,
    find,
    check(options, owner) {
      const found = find(options);
      if (found === undefined) return;
      throw new UnknownOptionError({ ...found, owner: found.path === '' ? owner : `${owner} ${found.path}` });
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
