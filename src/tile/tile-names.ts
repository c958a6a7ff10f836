/** Tile names within one set: a name must be valid (tileNameProblem) and not taken; a default name is made unique with a number. */
import { tileNameProblem } from '../control/tile-name.js';

/** Why `name` cannot name a tile beside the names `taken`, or null. */
export function nameProblem(name: string, taken: readonly string[]): string | null {
  const problem = tileNameProblem(name);
  if (problem) return problem;
  if (taken.includes(name)) return `another tile is already called "${name}"`;
  return null;
}

/** `base`, or `base-2`, `base-3`, … : the first that is not taken. */
export function uniqueName(base: string, taken: readonly string[]): string {
  if (!taken.includes(base)) return base;
  for (let n = 2; ; n++) if (!taken.includes(`${base}-${n}`)) return `${base}-${n}`;
}
