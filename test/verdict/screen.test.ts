import { describe, expect, it } from 'vitest';
import { Scenario, prompt, stop } from './scenario.js';

const spin = (glyph = '◐') => ({ type: 'working', detail: glyph }) as const;
const rest = { type: 'at-rest', detail: '✳' } as const;

describe('a title-only agent (fallback)', () => {
  it('spinner then the idle glyph held 1.5 s: done at fallback confidence', () => {
    const s = new Scenario({ promptsFromHooks: false })
      .at(100, 'title', rest)
      .at(5_000, 'user', { type: 'prompt' })
      .at(5_050, 'title', spin('◐'))
      .at(6_010, 'title', spin('◑'))
      .at(42_000, 'title', rest)
      .until(43_499);
    expect(s.count('done')).toBe(0);
    s.until(43_500);
    expect(s.times('done')).toEqual([43_500]);
    expect(s.state.verdict.source).toBe('title');
    expect(s.state.verdict.confidence).toBe('fallback');
    expect(s.rings).toEqual(['done']);
  });

  it('an idle glyph that flickers back to the spinner within 1.5 s is no done', () => {
    const s = new Scenario({ promptsFromHooks: false })
      .at(5_050, 'title', spin())
      .at(6_000, 'title', rest)
      .at(7_000, 'title', spin('◑'))
      .until(7_400);
    expect(s.count('done')).toBe(0);
    expect(s.now).toBe('working');
  });

  it('an unknown glyph: unknown, never done', () => {
    const s = new Scenario({ promptsFromHooks: false })
      .at(5_050, 'title', spin())
      .at(6_000, 'title', { type: 'unknown', detail: '☂' })
      .until(60_000);
    expect(s.now).toBe('unknown');
    expect(s.count('done')).toBe(0);
    s.at(61_000, 'title', rest).until(120_000);
    expect(s.count('done')).toBe(0);
    expect(s.now).toBe('idle');
  });

  it('the idle glyph at start-up is idle', () => {
    const s = new Scenario({ promptsFromHooks: false }).at(100, 'title', rest).until(60_000);
    expect(s.now).toBe('idle');
  });
});

describe('precedence: first-party beats the title', () => {
  it('a title at rest while hooks say working changes nothing', () => {
    const s = new Scenario().at(1_000, 'hook', prompt).at(1_100, 'title', spin()).at(3_000, 'title', rest).until(60_000);
    expect(s.now).toBe('working');
    expect(s.count('done')).toBe(0);
  });

  it('a title spinner after a first-party done changes nothing', () => {
    const s = new Scenario().at(1_000, 'hook', prompt).at(2_000, 'hook', stop()).at(2_100, 'title', rest).until(10_000).at(11_000, 'title', spin());
    expect(s.now).toBe('done');
  });
});

describe('the banner (accelerator)', () => {
  const banner = { type: 'banner', text: '✻ Churned for 7s · done 9:44 AM' } as const;

  it('while first-party evidence says working: ignored', () => {
    const s = new Scenario().at(1_000, 'hook', prompt).at(1_100, 'psp', { type: 'working' }).at(8_000, 'banner', banner).until(60_000);
    expect(s.now).toBe('working');
    expect(s.count('done')).toBe(0);
  });

  it('with no first-party evidence: done at once (accelerator), sooner than the title', () => {
    const s = new Scenario({ promptsFromHooks: false }).at(1_000, 'title', spin()).at(8_000, 'title', rest).at(8_040, 'banner', banner);
    expect(s.times('done')).toEqual([8_040]);
    expect(s.state.verdict.source).toBe('banner');
    expect(s.state.verdict.confidence).toBe('accelerator');
  });

  it('a later first-party working takes it back without ringing again', () => {
    const s = new Scenario({ promptsFromHooks: false })
      .at(1_000, 'title', spin())
      .at(8_000, 'banner', banner)
      .at(8_200, 'psp', { type: 'working', detail: '1 shell still running' })
      .at(20_000, 'psp', { type: 'turn-end' })
      .until(60_000);
    expect(s.states).toEqual(['working', 'done', 'working', 'done']);
    expect(s.rings).toEqual(['done']);
    // …but the next turn's done rings again.
    s.at(70_000, 'user', { type: 'prompt' }).at(70_100, 'psp', { type: 'working' }).at(75_000, 'psp', { type: 'turn-end' }).until(100_000);
    expect(s.rings).toEqual(['done', 'done']);
  });

  it('is muted after /clear until the next real prompt', () => {
    const s = new Scenario()
      .at(1_000, 'hook', { type: 'quiet-latch', why: 'clear', phase: 'begin' })
      .at(1_100, 'title', spin())
      .at(1_200, 'banner', banner)
      .until(60_000);
    expect(s.count('done')).toBe(0);
  });

  it('is dropped while background work still runs', () => {
    const s = new Scenario({ promptsFromHooks: false })
      .at(1_000, 'title', spin())
      .at(2_000, 'psp', { type: 'child', id: 'b1', open: true })
      .at(8_000, 'banner', { type: 'banner', text: '✻ Worked for 7s · 1 shell still running' })
      .until(60_000);
    expect(s.count('done')).toBe(0);
  });
});

describe('stuck screens', () => {
  it('a first-party done held 30 s while the screen never reads idle settles the tile', () => {
    const s = new Scenario().at(1_000, 'hook', prompt).at(1_050, 'title', spin()).at(6_000, 'hook', stop()).until(35_999);
    expect(s.count('done')).toBe(0);
    expect(s.now).toBe('working');
    s.until(36_000);
    expect(s.times('done')).toEqual([36_000]);
    expect(s.state.verdict.source).toBe('hook');
  });

  it('when the screen does read idle, the done comes after the conflict window', () => {
    const s = new Scenario().at(1_000, 'hook', prompt).at(1_050, 'title', spin()).at(6_000, 'hook', stop()).at(6_200, 'title', rest).until(60_000);
    expect(s.times('done')).toEqual([6_750]);
  });

  it('when the screen reads idle late, the done comes then', () => {
    const s = new Scenario().at(1_000, 'hook', prompt).at(1_050, 'title', spin()).at(6_000, 'hook', stop()).at(9_000, 'title', rest).until(60_000);
    expect(s.times('done')).toEqual([9_000]);
  });
});

describe('first-party evidence arriving while the title holds a done', () => {
  it('drops the title hold: Codex start-up (spinner, folder name, then OSC 7501 idle) is no done', () => {
    const s = new Scenario({ promptsFromHooks: false })
      .at(736, 'title', { type: 'working', detail: '⠋ project' })
      .at(736, 'title', { type: 'at-rest', detail: 'project' })
      .at(778, 'psp', { type: 'at-rest' })
      .until(60_000);
    expect(s.count('done')).toBe(0);
    expect(s.now).toBe('idle');
    expect(s.state.verdict.source).toBe('psp');
  });
});
