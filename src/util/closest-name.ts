/**
 * The name of `names` closest to `typo` (edit distance, ignoring case), if it
 * is close enough to be what was meant: by default at most a third of its
 * length away. For "did you mean …?" in error messages.
 */
export function closestName(typo: string, names: readonly string[], { within }: { readonly within?: number } = {}): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const name of names) {
    const distance = editDistance(typo.toLowerCase(), name.toLowerCase());
    if (distance < bestDistance) {
      best = name;
      bestDistance = distance;
    }
  }
  if (best === undefined) return undefined;
  return bestDistance <= (within ?? Math.max(1, Math.floor(best.length / 3))) ? best : undefined;
}

/**
 * Up to `max` names of `names` close to `typo` (at most half its length
 * away, ignoring case), the closest first: the candidates a "did you mean"
 * lists when there may be several.
 */
export function closestNames(typo: string, names: readonly string[], { max = 3 }: { readonly max?: number } = {}): string[] {
  const within = Math.max(2, Math.floor(typo.length / 2));
  return names
    .map((name) => ({ name, distance: editDistance(typo.toLowerCase(), name.toLowerCase()) }))
    .filter(({ distance }) => distance <= within)
    .sort((a, b) => a.distance - b.distance || a.name.localeCompare(b.name))
    .slice(0, max)
    .map(({ name }) => name);
}

/** Levenshtein distance: insertions, deletions and substitutions. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
