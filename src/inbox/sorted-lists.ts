import type { Store } from '../store/store.ts';
import { inTurn } from '../util/in-turn.ts';

/** A list as this instance last read it: its entries sorted, how many it had, and its last entry in list order. */
interface Known {
  readonly sorted: string[];
  readonly length: number;
  readonly last: string | undefined;
}

/**
 * The lists of a store as this instance last read them, each sorted: a read
 * fetches only the entries appended since the last one (the inbox's lists
 * only grow), or the whole list again when it is not the list read before
 * (its last known entry moved: deleted and written anew). A list of 10,000
 * entries is then read once per instance, not once per page.
 *
 * The array returned is never reordered: entries that sort after every
 * known one are appended to it (an iteration over its first entries is left
 * as it was), others give a new array.
 */
export function sortedLists(store: Store): (key: string) => Promise<readonly string[]> {
  const known = new Map<string, Known>();
  const reads = new Map<string, Promise<void>>();

  const refresh = async (key: string): Promise<readonly string[]> => {
    const before = known.get(key);
    if (before !== undefined && before.length > 0) {
      const tail = await store.list(key, { start: before.length - 1 });
      if (tail[0] === before.last) {
        const added = tail.slice(1);
        const sorted = added.length === 0 ? before.sorted : merged(before.sorted, added);
        known.set(key, { sorted, length: before.length + added.length, last: tail.at(-1) });
        return sorted;
      }
    }
    const entries = await store.list(key);
    const sorted = [...entries].sort();
    known.set(key, { sorted, length: entries.length, last: entries.at(-1) });
    return sorted;
  };

  return (key) => inTurn(reads, key, () => refresh(key));
}

/** `sorted` with `added`: appended in place when they all sort after it, else a new array. */
function merged(sorted: string[], added: readonly string[]): string[] {
  const fresh = [...added].sort();
  const last = sorted.at(-1);
  if (last === undefined || (fresh[0] as string) >= last) {
    sorted.push(...fresh);
    return sorted;
  }
  const all: string[] = [];
  let i = 0;
  let j = 0;
  while (i < sorted.length || j < fresh.length) {
    if (j === fresh.length || (i < sorted.length && (sorted[i] as string) <= (fresh[j] as string))) all.push(sorted[i++] as string);
    else all.push(fresh[j++] as string);
  }
  return all;
}

/**
 * The entries of sorted lists, greatest (newest) first, each once (an entry
 * in two of the lists is given once), from the last one before `before` on.
 */
export function* newestFirst(lists: readonly (readonly string[])[], before: string | undefined): Generator<string> {
  const ends = lists.map((entries) => (before === undefined ? entries.length : countBefore(entries, before)));
  let previous: string | undefined;
  for (;;) {
    let newest = -1;
    let entry: string | undefined;
    for (const [at, entries] of lists.entries()) {
      const candidate = entries[(ends[at] ?? 0) - 1];
      if (candidate !== undefined && (entry === undefined || candidate > entry)) {
        newest = at;
        entry = candidate;
      }
    }
    if (entry === undefined) return;
    ends[newest] = (ends[newest] ?? 0) - 1;
    if (entry !== previous) yield entry;
    previous = entry;
  }
}

/** How many entries of `sorted` come before `value`. */
function countBefore(sorted: readonly string[], value: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((sorted[middle] as string) < value) low = middle + 1;
    else high = middle;
  }
  return low;
}
