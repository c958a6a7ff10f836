import { describe, expect, it } from 'vitest';
import { shouldRing } from '../../src/ui/bell.js';
import { age, nextAgeChange, provenance, showsAge } from '../../src/ui/format.js';

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
