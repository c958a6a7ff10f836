/**
 * "Did you mean": `belltower lss` is a typo for `belltower ls`, not a command named lss to run in a
 * tile. Pure: the caller says which names exist and whether the word is a program it could run.
 */

/** How far a word may be from a name and still be taken for a typo of it. */
export const MAX_TYPO_DISTANCE = 2;

/** Edit distance (insertions, deletions, substitutions, and swaps of neighbours). */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  const at = (i: number, j: number) => d[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, at(i - 2, j - 2) + 1);
      (d[i] as number[])[j] = best;
    }
  }
  return at(rows - 1, cols - 1);
}

/** The name `word` was most likely meant to be (closest first, then the order given), or null when
 * it is one of them or none is close. */
export function closestName(word: string, names: readonly string[]): string | null {
  if (names.includes(word)) return null;
  let best: { name: string; distance: number } | null = null;
  for (const name of names) {
    const distance = editDistance(word.toLowerCase(), name);
    if (distance <= MAX_TYPO_DISTANCE && (best === null || distance < best.distance)) best = { name, distance };
  }
  return best?.name ?? null;
}

/**
 * The first word of a SPEC is a mistyped name when it is close to one and is no program that could
 * run (`cat` is close to `wait` and is a program: it runs). Returns the suggestion, or null.
 */
export function mistypedName(firstWord: string, names: readonly string[], runnable: (word: string) => boolean): string | null {
  if (firstWord === '' || /[\s/]/.test(firstWord)) return null;
  const suggestion = closestName(firstWord, names);
  return suggestion !== null && !runnable(firstWord) ? suggestion : null;
}
