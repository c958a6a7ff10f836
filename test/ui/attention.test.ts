import { describe, expect, it } from 'vitest';
import { DEFAULT_QUIET_PERIOD_MS, looked, NO_ATTENTION, ringArrived, toggleMute } from '../../src/ui/attention.js';
import type { RingContext } from '../../src/ui/attention.js';

const ctx = (over: Partial<RingContext> = {}): RingContext => ({
  now: 100_000,
  bell: 'all',
  notify: true,
  quietPeriodMs: DEFAULT_QUIET_PERIOD_MS,
  tileBell: true,
  tileNotify: true,
  tileIndex: 0,
  lookingAt: null,
  windowFocused: true,
  ...over,
});

describe('ringArrived', () => {
  it('rings, notifies, and marks the tile unseen', () => {
    const r = ringArrived(NO_ATTENTION, 3, ctx());
    expect([r.bell, r.notify]).toEqual([true, true]);
    expect(r.attention.unseen).toEqual([3]);
  });

  it('never marks the tile the user is focused on unseen, though it may still ring', () => {
    const r = ringArrived(NO_ATTENTION, 3, ctx({ tileIndex: 2, lookingAt: 2, windowFocused: false }));
    expect(r.attention.unseen).toEqual([]);
    expect(r.bell).toBe(true);
    expect(ringArrived(NO_ATTENTION, 3, ctx({ tileIndex: 2, lookingAt: 1 })).attention.unseen).toEqual([3]);
  });

  it('does not ring a tile twice within the quiet period, unless the user looked in between', () => {
    const first = ringArrived(NO_ATTENTION, 3, ctx({ now: 100_000 }));
    const again = ringArrived(first.attention, 3, ctx({ now: 100_000 + DEFAULT_QUIET_PERIOD_MS - 1 }));
    expect([again.bell, again.notify]).toEqual([false, false]);
    expect(again.why).toMatch(/quiet period/);
    expect(ringArrived(first.attention, 3, ctx({ now: 100_000 + DEFAULT_QUIET_PERIOD_MS })).bell).toBe(true);
    expect(ringArrived(looked(first.attention, 3), 3, ctx({ now: 100_001 })).bell).toBe(true);
    // Another tile is not held back by this one's ring.
    expect(ringArrived(first.attention, 4, ctx({ now: 100_001 })).bell).toBe(true);
  });

  it('a muted tile neither rings nor notifies, but is still unseen', () => {
    const r = ringArrived(toggleMute(NO_ATTENTION, 3), 3, ctx());
    expect([r.bell, r.notify]).toEqual([false, false]);
    expect(r.attention.unseen).toEqual([3]);
    expect(toggleMute(toggleMute(NO_ATTENTION, 3), 3).muted).toEqual([]);
  });

  it('never notifies about the tile in front of you while the window has focus', () => {
    expect(ringArrived(NO_ATTENTION, 1, ctx({ lookingAt: 0, tileIndex: 0 })).notify).toBe(false);
    expect(ringArrived(NO_ATTENTION, 1, ctx({ lookingAt: 0, tileIndex: 0, windowFocused: false })).notify).toBe(true);
    expect(ringArrived(NO_ATTENTION, 1, ctx({ lookingAt: 1, tileIndex: 0 })).notify).toBe(true);
  });

  it("follows the tile's own bell and notify settings", () => {
    expect(ringArrived(NO_ATTENTION, 1, ctx({ tileBell: false })).bell).toBe(false);
    expect(ringArrived(NO_ATTENTION, 1, ctx({ tileNotify: false })).notify).toBe(false);
    expect(ringArrived(NO_ATTENTION, 1, ctx({ notify: false })).notify).toBe(false);
  });
});

describe('looked', () => {
  it('clears the unseen mark', () => {
    const r = ringArrived(NO_ATTENTION, 3, ctx());
    expect(looked(r.attention, 3).unseen).toEqual([]);
  });
});
