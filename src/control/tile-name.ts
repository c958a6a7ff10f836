/**
 * What a tile's name may be, and the one message for each way it may not: the same words whether
 * the name came from `add --name` or `rename`, a control request or the workspace file.
 */

/** The longest tile name, in characters. */
export const MAX_TILE_NAME = 40;

/** Why `name` cannot name a tile (whoever else is called so), or null. */
export function tileNameProblem(name: string): string | null {
  const length = [...name].length;
  if (length === 0) return 'a tile name cannot be empty';
  if (length > MAX_TILE_NAME) return `a tile name is at most ${MAX_TILE_NAME} characters (got ${length})`;
  if (!/^[\p{L}\p{N}._-]+$/u.test(name)) return `a tile name is letters, digits, dots, dashes and underscores (got ${JSON.stringify(name)})`;
  if (/^\d+$/.test(name)) return `a tile name cannot be only digits: "${name}" would read as a tile number`;
  return null;
}
