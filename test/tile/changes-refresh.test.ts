/** When a tile's changes are counted again (changes-refresh.ts), on a clock passed in. */
import { describe, expect, it } from 'vitest';
import { CHANGES_EVERY_MS, CHANGES_GAP_MS, nextRefresh } from '../../src/tile/changes-refresh.js';

describe('counting a tile\'s changes again', () => {
  it('counts at once when asked and none ran yet (the tile starts)', () => {
    expect(nextRefresh({ running: false, wanted: true, lastStart: null }, false, 0)).toEqual({ run: true });
  });

  it('never starts a second count of the tile while one runs, whatever is asked', () => {
    expect(nextRefresh({ running: true, wanted: true, lastStart: 0 }, true, 60_000)).toEqual({ run: false, at: null });
  });

  it('a verdict change counts again, but not sooner than the gap after the last start', () => {
    expect(nextRefresh({ running: false, wanted: true, lastStart: 10_000 }, false, 10_000 + CHANGES_GAP_MS - 1)).toEqual({ run: false, at: 10_000 + CHANGES_GAP_MS });
    expect(nextRefresh({ running: false, wanted: true, lastStart: 10_000 }, false, 10_000 + CHANGES_GAP_MS)).toEqual({ run: true });
  });

  it('while the tile works, counts every few seconds', () => {
    expect(nextRefresh({ running: false, wanted: false, lastStart: 10_000 }, true, 12_000)).toEqual({ run: false, at: 10_000 + CHANGES_EVERY_MS });
    expect(nextRefresh({ running: false, wanted: false, lastStart: 10_000 }, true, 10_000 + CHANGES_EVERY_MS)).toEqual({ run: true });
  });

  it('a tile at rest with nothing new is not counted at all, and sets no timer', () => {
    expect(nextRefresh({ running: false, wanted: false, lastStart: 10_000 }, false, 10_000_000)).toEqual({ run: false, at: null });
  });
});
