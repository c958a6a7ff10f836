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

  it('while the title still says working, with no first-party evidence: no done, no ring (the title contradicts it)', () => {
    // A banner-shaped line printed mid-turn rang a false done, undone 0.5 s later by the spinner.
    const s = new Scenario({ promptsFromHooks: false }).at(1_000, 'title', spin()).at(8_000, 'banner', banner).at(8_500, 'title', spin('◑')).until(60_000);
    expect(s.count('done')).toBe(0);
    expect(s.rings).toEqual([]);
    expect(s.state.why.find((w) => w.signal === 'banner')?.note).toMatch(/ignored: the title still says working/);
    // The real end: the title rests, then the banner confirms it at once.
    s.at(20_000, 'title', rest).at(20_005, 'banner', { type: 'banner', text: '✻ Brewed for 19s' }).until(60_000);
    expect(s.times('done')).toEqual([20_005]);
    expect(s.rings).toEqual(['done']);
  });

  it('a later first-party working takes it back without ringing again', () => {
    // Working again after the user answered a question: no claim says working, the screen rests.
    const s = new Scenario({ promptsFromHooks: false })
      .at(1_000, 'psp', { type: 'blocked', kind: 'question' })
      .at(2_000, 'user', { type: 'prompt' })
      .at(8_000, 'banner', banner)
      .at(8_200, 'psp', { type: 'working', detail: '1 shell still running' })
      .at(20_000, 'psp', { type: 'turn-end' })
      .until(60_000);
    expect(s.states).toEqual(['blocked', 'working', 'done', 'working', 'done']);
    expect(s.rings).toEqual(['blocked', 'done']);
    // …but the next turn's done rings again.
    s.at(70_000, 'user', { type: 'prompt' }).at(70_100, 'psp', { type: 'working' }).at(75_000, 'psp', { type: 'turn-end' }).until(100_000);
    expect(s.rings).toEqual(['blocked', 'done', 'done']);
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

describe("a title whose idle glyph also shows at prompts and errors (Claude's ✳)", () => {
  const claudeTitle = { promptsFromHooks: false, titleRestIsDone: false };

  it('settles at idle without a banner: no done, no ring (a permission prompt, an API error)', () => {
    const s = new Scenario(claudeTitle).at(5_000, 'title', spin()).at(12_000, 'title', rest).until(60_000);
    expect(s.count('done')).toBe(0);
    expect(s.rings).toEqual([]);
    expect(s.times('idle')).toEqual([13_500]);
  });

  it('is a done when the banner confirms it', () => {
    const s = new Scenario(claudeTitle)
      .at(5_000, 'title', spin())
      .at(12_000, 'title', rest)
      .at(12_020, 'banner', { type: 'banner', text: '✻ Brewed for 7s · done 9:44 AM' })
      .until(60_000);
    expect(s.times('done')).toEqual([12_020]);
    expect(s.state.verdict.source).toBe('banner');
  });
});

describe('with hooks, the transcript restating work decides nothing', () => {
  it('a late transcript prompt record does not pull a blocked tile back to working', () => {
    const s = new Scenario()
      .at(1_000, 'hook', prompt)
      .at(1_610, 'hook', { type: 'blocked', kind: 'permission' })
      .at(1_670, 'transcript', { type: 'turn-start', real: true })
      .at(1_675, 'transcript', { type: 'working', detail: 'tool_use Bash' })
      .until(10_000);
    expect(s.now).toBe('blocked');
    expect(s.rings).toEqual(['blocked']);
  });

  it('without prompt hooks (Codex), a prompt record read after OSC 7501 blocked does not pull it back to working', () => {
    const s = new Scenario({ promptsFromHooks: false })
      .at(2_922, 'psp', { type: 'working' })
      .at(3_326, 'psp', { type: 'blocked', kind: 'permission' })
      .at(3_369, 'transcript', { type: 'turn-start', real: true })
      .until(6_000);
    expect(s.now).toBe('blocked');
    expect(s.rings).toEqual(['blocked']);
    // The answer: the agent's own working, then its turn's end.
    s.at(7_000, 'psp', { type: 'working' }).at(8_000, 'psp', { type: 'turn-end' }).until(20_000);
    expect(s.now).toBe('done');
  });

  it('a late tool record does not cancel the held done of a Stop; its turn end joins it', () => {
    const s = new Scenario()
      .at(1_000, 'hook', prompt)
      .at(3_000, 'hook', stop())
      .at(3_040, 'transcript', { type: 'working', detail: 'tool_result' })
      .at(3_090, 'transcript', { type: 'turn-end' })
      .until(10_000);
    expect(s.times('done')).toEqual([3_750]);
    expect(s.state.verdict.source).toBe('hook');
  });

  it('a failed turn rings once', () => {
    const s = new Scenario().at(1_000, 'hook', prompt).at(1_657, 'hook', { type: 'failed' }).at(1_684, 'transcript', { type: 'working' }).at(1_697, 'transcript', { type: 'failed' });
    expect(s.rings).toEqual(['failed']);
  });

  it('without hooks the transcript still reports work', () => {
    const s = new Scenario({ promptsFromHooks: false }).at(1_000, 'transcript', { type: 'turn-start', real: true });
    expect(s.now).toBe('working');
  });
});
