/**
 * Jump by name (`/`): a filter over the tiles' numbers and names, as tmux's choose-tree or
 * zellij's session manager filter theirs. Pure: the tiles and a key in, the finder or its choice
 * out. It is how tiles past 9 are reached by number, and any tile by a few letters of its name.
 */
import { editText } from './tile-forms.js';

export interface TileFinder {
  readonly type: 'find';
  readonly text: string;
  /** Which of the matches is picked (↑ ↓ move it), counted from the best. */
  readonly pick: number;
}

export interface Findable {
  readonly id: number;
  readonly name?: string;
}

export function newFinder(): TileFinder {
  return { type: 'find', text: '', pick: 0 };
}

/**
 * The tiles that match, best first (indices into `tiles`): a number matches a tile whose number
 * it is (exactly first, then those it starts); words match names — a name that starts with the
 * text, then one that contains it, then one that holds its letters in order — ignoring case.
 */
export function findTiles(tiles: readonly Findable[], text: string): number[] {
  const query = text.trim().toLowerCase();
  const all = tiles.map((_, index) => index);
  if (query === '') return all;
  const rank = (tile: Findable): number | null => {
    const number = String(tile.id);
    const name = (tile.name ?? '').toLowerCase();
    const label = `${number} ${name}`;
    if (number === query) return 0;
    if (/^\d+$/.test(query) && number.startsWith(query)) return 1;
    if (name.startsWith(query) || label.startsWith(query)) return 2;
    if (name.includes(query)) return 3;
    return inOrder(label, query) ? 4 : null;
  };
  return all
    .map((index) => ({ index, rank: rank(tiles[index]!) }))
    .filter((m): m is { index: number; rank: number } => m.rank !== null)
    .sort((a, b) => a.rank - b.rank || tiles[a.index]!.id - tiles[b.index]!.id)
    .map((m) => m.index);
}

/** Whether `text` holds the letters of `query` in order (spaces in the query are ignored). */
function inOrder(text: string, query: string): boolean {
  let at = 0;
  for (const ch of query.replace(/\s+/g, '')) {
    at = text.indexOf(ch, at);
    if (at < 0) return false;
    at += ch.length;
  }
  return true;
}

export type FinderResult = { finder: TileFinder } | { cancel: true } | { select: number };

export function finderKey(finder: TileFinder, key: string, tiles: readonly Findable[]): FinderResult {
  const matches = findTiles(tiles, finder.text);
  if (key === 'escape') return { cancel: true };
  if (key === 'enter') {
    const index = matches[Math.min(finder.pick, matches.length - 1)];
    return index === undefined ? { finder } : { select: index };
  }
  if (key === 'down' || key === 'ctrl-n' || key === 'tab') return { finder: { ...finder, pick: Math.min(finder.pick + 1, Math.max(0, matches.length - 1)) } };
  if (key === 'up' || key === 'ctrl-p' || key === 'shift-tab') return { finder: { ...finder, pick: Math.max(0, finder.pick - 1) } };
  const text = editText(finder.text, key);
  return text === null || text.length > 64 ? { finder } : { finder: { ...finder, text, pick: 0 } };
}
