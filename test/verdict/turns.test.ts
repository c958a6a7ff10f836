import { describe, expect, it } from 'vitest';
import { Scenario, prompt, stop } from './scenario.js';

describe('a plain turn', () => {
  it('prompt then Stop: exactly one done and one ring, after the conflict window', () => {
    const s = new Scenario().at(5_890, 'hook', prompt).at(6_300, 'hook', stop()).until(60_000);
    expect(s.count('done')).toBe(1);
    expect(s.rings).toEqual(['done']);
    expect(s.times('done')).toEqual([6_300 + 750]);
    expect(s.state.verdict.source).toBe('hook');
    expect(s.state.verdict.confidence).toBe('first-party');
  });

  it('a duplicate Stop inside 500 ms is the same Stop: still one done, one ring', () => {
    const s = new Scenario()
      .at(1_000, 'hook', prompt)
      .at(2_000, 'hook', stop())
      .at(2_300, 'hook', stop())
      .until(2_000 + 1_400)
      .at(2_000 + 1_450, 'hook', stop())
      .until(60_000);
    // The third Stop is 1.45 s later: not a duplicate, but the tile is already done with no turn since.
    expect(s.count('done')).toBe(1);
    expect(s.rings).toEqual(['done']);
    const dup = s.state.why.find((w) => w.note.includes('duplicate'));
    expect(dup?.t).toBe(2_300);
  });

  it('the Stop hook and the OSC 7501 done of the same turn make one done', () => {
    const s = new Scenario()
      .at(5_840, 'psp', { type: 'working' })
      .at(5_890, 'hook', prompt)
      .at(6_300, 'hook', stop())
      .at(6_620, 'psp', { type: 'turn-end' })
      .until(60_000);
    expect(s.count('done')).toBe(1);
    expect(s.rings).toEqual(['done']);
  });

  it('a new prompt before the held done is released releases it first, without a ring: the user is right there', () => {
    const s = new Scenario().at(1_000, 'hook', prompt).at(2_000, 'hook', stop()).at(2_300, 'hook', prompt).until(60_000);
    expect(s.states).toEqual(['working', 'done', 'working']);
    expect(s.times('done')).toEqual([2_300]);
    expect(s.rings).toEqual([]);
    expect(s.now).toBe('working');
  });

  it('a done becomes idle once the user has seen it, and a new turn works again', () => {
    const s = new Scenario().at(1_000, 'hook', prompt).at(2_000, 'hook', stop()).until(5_000).at(6_000, 'user', { type: 'seen' });
    expect(s.now).toBe('idle');
    expect(s.state.verdict.source).toBe('user');
    s.at(7_000, 'hook', prompt);
    expect(s.now).toBe('working');
  });

  it('a user Stop hook that blocks: the first Stop is followed by more work, only the second is the end', () => {
    const s = new Scenario()
      .at(5_600, 'hook', prompt)
      .at(5_700, 'psp', { type: 'working' })
      .at(6_030, 'hook', stop())
      .at(6_370, 'hook', { type: 'working', detail: 'Bash' })
      .at(9_780, 'hook', stop())
      .at(10_150, 'psp', { type: 'turn-end' })
      .until(60_000);
    expect(s.count('done')).toBe(1);
    expect(s.times('done')).toEqual([9_780 + 750]);
  });

  it('an interrupt is not done and does not ring', () => {
    const s = new Scenario().at(1_000, 'hook', prompt).at(1_100, 'psp', { type: 'working' }).at(3_000, 'psp', { type: 'at-rest' }).until(60_000);
    expect(s.now).toBe('idle');
    expect(s.rings).toEqual([]);
    const t = new Scenario().at(1_000, 'hook', prompt).at(3_000, 'transcript', { type: 'interrupted' }).until(60_000);
    expect(t.now).toBe('idle');
    expect(t.rings).toEqual([]);
  });

  it("the end an agent still reports after the user's interrupt is no done (Gemini: Esc, then AfterAgent)", () => {
    const s = new Scenario().at(1_000, 'hook', prompt).at(4_000, 'transcript', { type: 'interrupted' }).at(4_010, 'hook', stop()).until(60_000);
    expect(s.states).toEqual(['working', 'idle']);
    expect(s.rings).toEqual([]);
    // The next turn ends in a done as usual.
    s.at(70_000, 'hook', prompt).at(71_000, 'hook', stop()).until(100_000);
    expect(s.times('done')).toEqual([71_750]);
  });

  it('an agent error is failed, and rings', () => {
    const s = new Scenario().at(1_000, 'hook', prompt).at(2_000, 'hook', { type: 'failed', detail: 'API Error: 400' }).until(60_000);
    expect(s.now).toBe('failed');
    expect(s.rings).toEqual(['failed']);
    const p = new Scenario().at(1_000, 'psp', { type: 'working' }).at(2_000, 'psp', { type: 'failed' });
    expect(p.rings).toEqual(['failed']);
  });

  it('an exit ends the tile with its code, and drops a held done', () => {
    const s = new Scenario().at(1_000, 'hook', prompt).at(2_000, 'hook', stop()).at(2_100, 'process', { type: 'exit', code: 0, signal: null }).until(60_000);
    expect(s.now).toBe('exited');
    expect(s.state.verdict.exit).toEqual({ code: 0, signal: null });
    expect(s.count('done')).toBe(0);
  });
});

describe('ordering', () => {
  it('two signals in the same millisecond are ordered by sequence number: the prompt after the Stop ends that turn and starts the next', () => {
    const s = new Scenario().at(1_000, 'hook', prompt).at(2_000, 'hook', stop(), 5).at(2_000, 'hook', prompt, 6).until(60_000);
    expect(s.states).toEqual(['working', 'done', 'working']);
    expect(s.rings).toEqual([]);
    expect(s.now).toBe('working');
  });

  it('a Stop with the lower sequence number that arrives late is stale, whatever its timestamp', () => {
    // Arrival order: the prompt (seq 6) first, then the Stop (seq 5) stamped later in time.
    const s = new Scenario().at(1_000, 'hook', prompt, 4).at(2_000, 'hook', prompt, 6).at(2_000, 'hook', stop(), 5).until(60_000);
    expect(s.count('done')).toBe(0);
    expect(s.now).toBe('working');
    expect(s.state.why.at(-1)?.note).toMatch(/stale/);
  });

  it('a Stop with the higher sequence number in the same millisecond as a prompt is a done', () => {
    const s = new Scenario().at(1_000, 'hook', prompt, 4).at(2_000, 'hook', prompt, 5).at(2_000, 'hook', stop(), 6).until(60_000);
    expect(s.count('done')).toBe(1);
  });
});

describe('duplicate Stops are back to back only', () => {
  it('a Stop within 500 ms of the last one but after new work is a new Stop', () => {
    const s = new Scenario()
      .at(6_000, 'hook', prompt)
      .at(6_030, 'hook', stop())
      .at(6_370, 'hook', { type: 'working', detail: 'Bash' })
      .at(6_450, 'hook', stop())
      .until(60_000);
    expect(s.times('done')).toEqual([6_450 + 750]);
  });

  it('a turn end after a failed turn does not turn it into a done', () => {
    const s = new Scenario().at(1_000, 'hook', prompt).at(1_500, 'hook', { type: 'failed' }).at(1_600, 'psp', { type: 'turn-end' }).until(60_000);
    expect(s.now).toBe('failed');
    expect(s.rings).toEqual(['failed']);
  });
});

describe('after the exit', () => {
  it('late evidence (a SessionEnd hook, a transcript record) changes nothing', () => {
    const s = new Scenario()
      .at(1_000, 'hook', prompt)
      .at(2_000, 'process', { type: 'exit', code: 0, signal: null })
      .at(2_050, 'hook', { type: 'session-end', reason: 'prompt_input_exit' })
      .at(2_060, 'transcript', { type: 'turn-end' })
      .until(60_000);
    expect(s.states).toEqual(['working', 'exited']);
  });
});
