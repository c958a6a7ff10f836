import { describe, expect, it } from 'vitest';
import { Scenario, prompt, stop } from './scenario.js';

const spin = { type: 'working', detail: '◐' } as const;
const rest = { type: 'at-rest', detail: '✳' } as const;

describe('the quiet latch: /clear and /compact are not finished turns', () => {
  it('/clear then a title spinner and the idle glyph: no done, no ring; the title stays muted until UserPromptSubmit', () => {
    const s = new Scenario()
      .at(1_000, 'hook', prompt)
      .at(2_000, 'hook', stop())
      .until(10_000)
      .at(11_000, 'user', { type: 'seen' })
      .at(89_070, 'user', { type: 'prompt' })
      .at(89_090, 'hook', { type: 'quiet-latch', why: 'clear', phase: 'begin' })
      .at(89_100, 'title', spin)
      .at(89_300, 'title', rest)
      .at(89_480, 'hook', { type: 'quiet-latch', why: 'clear', phase: 'end' })
      .at(90_000, 'title', spin)
      .at(90_150, 'title', rest)
      .until(200_000);
    expect(s.count('done')).toBe(1); // only the real turn before /clear
    expect(s.rings).toEqual(['done']);
    expect(s.now).toBe('idle');
    expect(s.state.latched).toBe(true);
    // A user keystroke is not a real prompt when the agent reports prompts through hooks.
    s.at(200_100, 'user', { type: 'prompt' }).at(200_200, 'title', spin);
    expect(s.state.latched).toBe(true);
    s.at(201_000, 'hook', prompt).at(203_000, 'hook', stop()).until(300_000);
    expect(s.count('done')).toBe(2);
    expect(s.state.latched).toBe(false);
  });

  it('/clear with OSC 7501: working then idle, never done', () => {
    const s = new Scenario()
      .at(89_070, 'user', { type: 'prompt' })
      .at(89_090, 'hook', { type: 'quiet-latch', why: 'clear', phase: 'begin' })
      .at(89_120, 'psp', { type: 'working' })
      .at(89_340, 'psp', { type: 'at-rest' })
      .at(89_480, 'hook', { type: 'quiet-latch', why: 'clear', phase: 'end' })
      .until(200_000);
    expect(s.count('done')).toBe(0);
    expect(s.rings).toEqual([]);
  });

  it('/compact: PreCompact, SubagentStop without a start, SessionStart(compact), PostCompact, then OSC 7501 done: no done', () => {
    const s = new Scenario()
      .at(1_000, 'hook', prompt)
      .at(2_000, 'hook', stop())
      .until(10_000)
      .at(85_190, 'user', { type: 'prompt' })
      .at(85_260, 'psp', { type: 'working' })
      .at(85_270, 'hook', { type: 'quiet-latch', why: 'compact', phase: 'begin' })
      .at(85_440, 'hook', { type: 'subagent-stop', id: 'compact-agent', background: [] })
      .at(85_710, 'hook', { type: 'quiet-latch', why: 'compact', phase: 'end' })
      .at(85_730, 'hook', { type: 'quiet-latch', why: 'compact', phase: 'end' })
      .at(85_930, 'psp', { type: 'turn-end' })
      .until(200_000);
    expect(s.count('done')).toBe(1);
    expect(s.rings).toEqual(['done']);
    expect(s.now).toBe('idle');
    // The SubagentStop for an id never started changed no count.
    expect(s.state.gate.subagents).toEqual({});
  });

  it('/compact with the title only (no hooks): the busy→rest flash after the latch is no done', () => {
    const s = new Scenario({ promptsFromHooks: false })
      .at(1_000, 'title', rest)
      .at(150_000, 'hook', { type: 'quiet-latch', why: 'compact', phase: 'begin' })
      .at(150_150, 'title', spin)
      .at(150_740, 'title', rest)
      .until(200_000);
    expect(s.count('done')).toBe(0);
  });

  it('without hooks, the user submitting input lifts the latch', () => {
    const s = new Scenario({ promptsFromHooks: false })
      .at(1_000, 'psp', { type: 'quiet-latch', why: 'clear', phase: 'end' })
      .at(2_000, 'user', { type: 'prompt' })
      .at(2_100, 'psp', { type: 'working' })
      .at(5_000, 'psp', { type: 'turn-end' })
      .until(60_000);
    expect(s.count('done')).toBe(1);
  });

  it('a latch drops a done that was being held', () => {
    const s = new Scenario()
      .at(1_000, 'hook', prompt)
      .at(2_000, 'hook', stop())
      .at(2_100, 'hook', { type: 'quiet-latch', why: 'compact', phase: 'begin' })
      .until(60_000);
    expect(s.count('done')).toBe(0);
  });
});

describe('slash commands typed in belltower (agents without hooks)', () => {
  it('/clear at rest latches: the title flash and OSC 7501 done of /compact are no done', () => {
    const s = new Scenario({ promptsFromHooks: false })
      .at(100, 'title', rest)
      .at(1_000, 'user', { type: 'prompt', local: true })
      .at(1_050, 'title', spin)
      .at(1_200, 'title', rest)
      .until(10_000)
      .at(20_000, 'user', { type: 'prompt', local: true })
      .at(20_050, 'psp', { type: 'working' })
      .at(21_000, 'psp', { type: 'turn-end' })
      .until(40_000);
    expect(s.count('done')).toBe(0);
    // The next real prompt lifts the latch.
    s.at(50_000, 'user', { type: 'prompt' }).at(50_100, 'psp', { type: 'working' }).at(52_000, 'psp', { type: 'turn-end' }).until(60_000);
    expect(s.count('done')).toBe(1);
  });

  it('a slash command typed mid-turn is queued input, not a latch', () => {
    const s = new Scenario({ promptsFromHooks: false })
      .at(1_000, 'user', { type: 'prompt' })
      .at(1_050, 'psp', { type: 'working' })
      .at(2_000, 'user', { type: 'prompt', local: true })
      .at(5_000, 'psp', { type: 'turn-end' })
      .until(60_000);
    expect(s.count('done')).toBe(1);
  });

  it('with hooks, a slash command that runs a model turn (UserPromptSubmit) still ends in done', () => {
    const s = new Scenario()
      .at(1_000, 'user', { type: 'prompt', local: true })
      .at(1_100, 'hook', prompt)
      .at(3_000, 'hook', stop())
      .until(60_000);
    expect(s.count('done')).toBe(1);
  });
});
