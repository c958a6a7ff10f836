import { describe, expect, it } from 'vitest';
import { bigOrder, nextBigSet } from '../../src/ui/big-set.js';
import type { BigSetFacts } from '../../src/ui/big-set.js';
import type { TileStateName } from '../../src/verdict/state.js';

const tiles = (states: TileStateName[]) => states.map((state, i) => ({ id: i + 1, state, sinceMs: 1_000 * (i + 1) }));
const facts = (states: TileStateName[], more: Partial<BigSetFacts> = {}): BigSetFacts => ({ tiles: tiles(states), unseen: [], pinned: [], selectedId: null, focusedId: null, ...more });

describe('the rows layout big set', () => {
  it('takes in the tiles that need you, those waiting longest first', () => {
    expect(nextBigSet([], facts(['working', 'done', 'blocked', 'idle', 'failed']))).toEqual([5, 3, 2]);
  });

  it('keeps its members in the order they joined: a newcomer goes last and displaces nobody', () => {
    const before = nextBigSet([], facts(['done', 'working', 'working']));
    expect(nextBigSet(before, facts(['done', 'working', 'blocked']))).toEqual([1, 3]);
    // The same facts again: the very same set (nothing to resize, nothing to repaint).
    expect(nextBigSet(before, facts(['done', 'working', 'working']))).toBe(before);
  });

  it('never changes when only the selection moves', () => {
    const before = nextBigSet([], facts(['done', 'working', 'blocked', 'working']));
    for (const selectedId of [1, 2, 3, 4]) expect(nextBigSet(before, facts(['done', 'working', 'blocked', 'working'], { selectedId }))).toBe(before);
  });

  it('lets a tile leave once it no longer needs you, but not while it is selected', () => {
    const before = nextBigSet([], facts(['done', 'blocked']));
    expect(nextBigSet(before, facts(['working', 'blocked'], { selectedId: 1 }))).toEqual([2, 1]);
    expect(nextBigSet(before, facts(['working', 'blocked'], { selectedId: 2 }))).toEqual([2]);
  });

  it('keeps a tile with a ring not looked at yet, a pinned tile and the focused tile', () => {
    expect(nextBigSet([], facts(['idle', 'working', 'idle'], { unseen: [1], pinned: [3], focusedId: 2 }))).toEqual([2, 3, 1]);
    expect(nextBigSet([2, 3, 1], facts(['idle', 'working', 'idle'], { unseen: [], pinned: [], focusedId: null }))).toEqual([]);
  });

  it('forgets tiles that are gone, and puts the focused tile first for the layout', () => {
    expect(nextBigSet([7, 1], facts(['done']))).toEqual([1]);
    expect(bigOrder([1, 2, 3], 3)).toEqual([3, 1, 2]);
    expect(bigOrder([1, 2, 3], null)).toEqual([1, 2, 3]);
  });
});
