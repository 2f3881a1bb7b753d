/**
 * "Did you mean ...?": the nearest of a few known names to a mistyped one (settings keys, CLI flags and commands).
 * Hand-written: a handful of short names, where the plain dynamic programme is enough and a dependency is not.
 */

/** Levenshtein distance, case-insensitive. */
function editDistance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const row = [i];
    for (let j = 1; j <= y.length; j++)
      row.push(Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1)));
    prev = row;
  }
  return prev[y.length]!;
}

/**
 * The closest candidate within a small distance (a third of the key's length, at least 2), or null. A dotted
 * candidate (`permissions.deny`) also matches on its last part.
 */
export function closest(key: string, candidates: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const last = c.split('.').pop()!;
    const d = Math.min(editDistance(key, last), editDistance(key, c));
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best !== null && bestDistance <= Math.max(2, Math.floor(key.length / 3)) ? best : null;
}
