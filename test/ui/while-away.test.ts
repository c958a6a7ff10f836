import { describe, expect, it } from 'vitest';
import { missed, NO_ATTENTION, ringArrived } from '../../src/ui/attention.js';
import { whileAwayNote } from '../../src/ui/while-away.js';

const names: Record<number, string> = { 1: 'claude', 2: 'build', 3: 'codex', 4: 'a', 5: 'b', 6: 'c', 7: 'd', 8: 'e' };
const nameOf = (id: number) => names[id];

describe('what rang while no client was attached', () => {
  it('names each tile once, in its latest state, in tile order', () => {
    expect(
      whileAwayNote(
        [
          { id: 3, state: 'blocked' },
          { id: 1, state: 'done' },
          { id: 3, state: 'done' },
        ],
        nameOf,
      ),
    ).toBe('while away: 1 claude done · 3 codex done');
  });

  it('leaves out tiles closed since, and says nothing when none is left', () => {
    expect(whileAwayNote([{ id: 9, state: 'done' }], nameOf)).toBeNull();
    expect(whileAwayNote([{ id: 9, state: 'done' }, { id: 2, state: 'failed' }], nameOf)).toBe('while away: 2 build failed');
    expect(whileAwayNote([], nameOf)).toBeNull();
  });

  it('counts what it does not name', () => {
    const rings = [1, 2, 3, 4, 5, 6, 7, 8].map((id) => ({ id, state: 'done' as const }));
    expect(whileAwayNote(rings, nameOf)).toBe('while away: 1 claude done · 2 build done · 3 codex done · 4 a done · 5 b done · 6 c done · 2 more');
  });

  it('marks the tiles unseen once each, without a ring time, so their next ring is news', () => {
    const attention = missed({ ...NO_ATTENTION, unseen: [2] }, [3, 2, 3]);
    expect(attention.unseen).toEqual([2, 3]);
    expect(attention.lastRing).toEqual({});
    const next = ringArrived(attention, 3, { now: 1000, bell: 'all', notify: false, quietPeriodMs: 30_000, tileBell: true, tileNotify: true, tileIndex: 2, lookingAt: null, windowFocused: false });
    expect(next.bell).toBe(true);
  });
});
