/**
 * The verdict on one wrapped run: which differences from the raw run are
 * deliberate (`known-differences.ts`), which are pending defects
 * (`pending.ts`), and which are unexpected (a failure).
 */
import type { Feature } from './arbitraries.ts';
import { compare, type Finding, matches } from './compare.ts';
import type { Mode, Wrapped } from './configurations.ts';
import { KNOWN_DIFFERENCES, type KnownDifference } from './known-differences.ts';
import { PENDING, type PendingDifference } from './pending.ts';
import type { Observation } from './run-script.ts';

export interface Scope {
  readonly configuration: Wrapped;
  readonly mode: Mode;
  /** A fixed case's id; `undefined` for a random script. */
  readonly caseId?: string | undefined;
}

export interface Verdict {
  /** Findings neither known nor pending: each one fails the run. */
  readonly unexpected: readonly Finding[];
  /** Pending entries this case must show but did not (fixed: remove them from pending.ts). */
  readonly fixed: readonly PendingDifference[];
}

export function knownFor(scope: Scope, known: readonly KnownDifference[] = KNOWN_DIFFERENCES): KnownDifference[] {
  return known.filter(
    (entry) =>
      entry.configurations.includes(scope.configuration) &&
      (entry.cases === undefined || (scope.caseId !== undefined && entry.cases.includes(scope.caseId))),
  );
}

/** The pending entries that relax the comparison in this scope. */
export function pendingFor(scope: Scope, pending: readonly PendingDifference[] = PENDING): PendingDifference[] {
  return pending.filter(
    (entry) =>
      entry.configurations.includes(scope.configuration) &&
      entry.modes.includes(scope.mode) &&
      (entry.scope === 'everywhere' || shows(entry, scope)),
  );
}

/** Whether a fixed case (in this mode) is one of an entry's `shownBy` (`id`, or `id@mode`). */
function shows(entry: PendingDifference, scope: Scope): boolean {
  return scope.caseId !== undefined && (entry.shownBy.includes(scope.caseId) || entry.shownBy.includes(`${scope.caseId}@${scope.mode}`));
}

/** The features random scripts leave out in a configuration and mode. */
export function excludedFeatures(configuration: Wrapped, mode: Mode, pending: readonly PendingDifference[] = PENDING): Set<Feature> {
  const features = new Set<Feature>();
  for (const entry of KNOWN_DIFFERENCES) {
    if (entry.configurations.includes(configuration)) for (const feature of entry.excludes ?? []) features.add(feature);
  }
  for (const entry of pending) {
    if (entry.configurations.includes(configuration) && entry.modes.includes(mode)) {
      for (const feature of entry.excludes ?? []) features.add(feature);
    }
  }
  return features;
}

export function judge(
  raw: Observation,
  wrapped: Observation,
  scope: Scope,
  { known = KNOWN_DIFFERENCES, pending = PENDING }: { known?: readonly KnownDifference[]; pending?: readonly PendingDifference[] } = {},
): Verdict {
  const tolerated = [...knownFor(scope, known), ...pendingFor(scope, pending).flatMap((entry) => entry.differences)];
  const dropEvents = new Set(
    tolerated
      .filter((pattern) => pattern.observable.startsWith('log:') && !pattern.observable.includes('*') && pattern.path === undefined)
      .map((pattern) => pattern.observable.slice('log:'.length)),
  );
  const unexpected = compare(raw, wrapped, dropEvents).filter((finding) => !tolerated.some((pattern) => matches(pattern, finding)));

  const fixed: PendingDifference[] = [];
  if (scope.caseId !== undefined) {
    const all = compare(raw, wrapped);
    for (const entry of pending) {
      const shown = shows(entry, scope) && entry.configurations.includes(scope.configuration) && entry.modes.includes(scope.mode);
      if (shown && !all.some((finding) => entry.differences.some((pattern) => matches(pattern, finding)))) fixed.push(entry);
    }
  }
  return { unexpected, fixed };
}
