import { describe, expect, it } from 'vitest';
import { shouldRing } from '../../src/ui/bell.js';
import { age, nextAgeChange, nextTickedAgeChange, provenance, showsAge, tickedAge } from '../../src/ui/format.js';

describe('age', () => {
  it('reads seconds, then minutes and seconds, then minutes, then hours', () => {
    expect(age(0)).toBe('0s');
    expect(age(59_999)).toBe('59s');
    expect(age(130_000)).toBe('2m10s');
    expect(age(12 * 60_000 + 5000)).toBe('12m');
    expect(age(3 * 3600_000 + 5 * 60_000)).toBe('3h05m');
  });

  it('says when the shown age next changes, so nothing ticks faster than it reads', () => {
    expect(nextAgeChange(1500)).toBe(500);
    expect(nextAgeChange(600_000)).toBe(60_000);
    expect(nextAgeChange(600_000 + 59_000)).toBe(1000);
  });

  it('moves every shown age on the same whole second, so tiles that started apart repaint together', () => {
    // Two tiles whose states began 300 ms apart: exact ages change 300 ms apart, ticked ones at once.
    const started = [0, 300];
    const changesAt = (now: number) => started.map((t) => now + nextTickedAgeChange(now - t, now));
    expect(new Set(changesAt(1_250)).size).toBe(1);
    expect(new Set(started.map((t) => 1_250 + nextAgeChange(1_250 - t))).size).toBe(2);
    // Whatever the phases, the next change falls on a whole second, and until then the shown age
    // reads the same; at it, it reads differently — for seconds, minutes and hours.
    for (const since of [0, 1, 299, 999, 1_000, 59_700, 599_400, 600_250, 659_999, 3_599_900]) {
      for (const lag of [0, 1, 250, 999]) {
        const now = 10_000_000 + lag;
        const wait = nextTickedAgeChange(since, now);
        expect((now + wait) % 1000, `since ${since}, lag ${lag}`).toBe(0);
        const shownAt = (dt: number) => age(tickedAge(since + dt, now + dt));
        expect(shownAt(wait - 1), `since ${since}, lag ${lag}`).toBe(shownAt(0));
        expect(shownAt(wait), `since ${since}, lag ${lag}`).not.toBe(shownAt(0));
        // Never ahead of the exact age, and never a second behind it.
        expect(tickedAge(since, now)).toBeLessThanOrEqual(since);
        expect(since - tickedAge(since, now)).toBeLessThan(1000);
      }
    }
  });

  it('shows an age only where it is worth a glance', () => {
    expect(['working', 'blocked', 'done', 'failed'].every((s) => showsAge(s as never))).toBe(true);
    expect(['idle', 'exited', 'starting', 'unknown'].some((s) => showsAge(s as never))).toBe(false);
  });

  it('names sources in words a user understands', () => {
    expect(provenance('psp', 'done')).toBe('OSC 7501');
    expect(provenance('process', 'exited')).toBe('exit');
    expect(provenance('hook', 'blocked')).toBe('hook');
  });
});

describe('shouldRing', () => {
  it('all rings for every tile, the one in front of you included; off never rings', () => {
    expect(shouldRing('all', { tileIndex: 0, lookingAt: 0, windowFocused: true })).toBe(true);
    expect(shouldRing('off', { tileIndex: 1, lookingAt: 0, windowFocused: false })).toBe(false);
  });

  it('background skips the tile you are looking at only while the window has focus', () => {
    expect(shouldRing('background', { tileIndex: 0, lookingAt: 0, windowFocused: true })).toBe(false);
    expect(shouldRing('background', { tileIndex: 0, lookingAt: 0, windowFocused: false })).toBe(true);
    expect(shouldRing('background', { tileIndex: 1, lookingAt: 0, windowFocused: true })).toBe(true);
    expect(shouldRing('background', { tileIndex: 0, lookingAt: null, windowFocused: true })).toBe(true);
  });
});
