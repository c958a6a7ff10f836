import { describe, expect, it } from 'vitest';
import { finderKey, findTiles, newFinder } from '../../src/ui/tile-finder.js';
import type { TileFinder } from '../../src/ui/tile-finder.js';

const TILES = Array.from({ length: 20 }, (_, i) => ({ id: i + 1, name: ['api', 'web', 'docs', 'tests', 'notes'][i % 5]! + (i >= 5 ? `-${Math.floor(i / 5)}` : '') }));

function typed(text: string): TileFinder {
  let finder = newFinder();
  for (const ch of text) {
    const result = finderKey(finder, ch, TILES);
    if (!('finder' in result)) throw new Error('the finder closed');
    finder = result.finder;
  }
  return finder;
}

describe('jump by name', () => {
  it('reaches any number: the exact one first, then those it starts', () => {
    expect(findTiles(TILES, '17').map((i) => TILES[i]!.id)).toEqual([17]);
    expect(findTiles(TILES, '1').map((i) => TILES[i]!.id).slice(0, 3)).toEqual([1, 10, 11]);
    expect(finderKey(typed('17'), 'enter', TILES)).toEqual({ select: 16 });
  });

  it('matches names: a start before a middle before letters in order, ignoring case', () => {
    const ids = (text: string) => findTiles(TILES, text).map((i) => TILES[i]!.id);
    expect(ids('DOC')).toEqual([3, 8, 13, 18]);
    expect(ids('es')[0]).toBe(4); // "tests" holds it; "notes" too
    expect(ids('es')).toEqual(expect.arrayContaining([4, 5]));
    expect(ids('nt3')).toEqual([20]); // n…t…3 in "20 notes-3"
    expect(ids('zzz')).toEqual([]);
  });

  it('moves its pick with the arrows, selects with Enter, and Esc leaves', () => {
    let finder = typed('doc');
    const down = finderKey(finder, 'down', TILES);
    finder = 'finder' in down ? down.finder : finder;
    expect(finderKey(finder, 'enter', TILES)).toEqual({ select: 7 });
    expect(finderKey(finder, 'escape', TILES)).toEqual({ cancel: true });
    // Nothing matches: Enter keeps the finder open.
    expect(finderKey(typed('zzz'), 'enter', TILES)).toEqual({ finder: typed('zzz') });
  });
});
