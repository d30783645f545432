/**
 * TEMPORARY: the differences the wrappers still show today, each a defect
 * to fix (not a deliberate choice: those are in `known-differences.ts`).
 * The lead empties this list as the runtime is fixed.
 *
 * How the suite reads an entry:
 * - every case in `shownBy` must still show the difference (at least one
 *   finding matching `differences`) in each listed configuration and mode;
 *   once it is fixed the case fails with "remove it from pending.ts";
 * - in those cases, findings matching `differences` are tolerated;
 * - `scope: 'everywhere'`: tolerated in every fixed case and every random
 *   script of those configurations and modes (for defects every call
 *   shows, matched by precise paths);
 * - `excludes`: the random scripts of those configurations and modes leave
 *   these features out while the entry is here.
 * Removing an entry re-enables every check it relaxed.
 */
import type { Feature } from './arbitraries.ts';
import type { DifferencePattern } from './compare.ts';
import type { Mode, Wrapped } from './configurations.ts';

export interface PendingDifference {
  readonly id: string;
  /** What differs, observably. */
  readonly what: string;
  /** Where the cause probably is in `src/`. */
  readonly cause: string;
  readonly configurations: readonly Wrapped[];
  readonly modes: readonly Mode[];
  /** The findings this entry covers. An observable pattern without a path on `log:<event>` drops that event from `log order` too. */
  readonly differences: readonly DifferencePattern[];
  /** The fixed cases (`cases.ts`) that show it: `id` (in every mode of the entry) or `id@mode`. */
  readonly shownBy: readonly string[];
  readonly scope: 'shown-by' | 'everywhere';
  readonly excludes?: readonly Feature[];
}

export const PENDING: readonly PendingDifference[] = [];
