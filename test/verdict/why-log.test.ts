/**
 * The "why?" list keeps the signals that decided: a run of the same user event (a `seen` per key
 * typed into the tile) is one line with a count (issue 28: after a drop, 10 of the 16 lines `why`
 * kept were `user seen`).
 */
import { describe, expect, it } from 'vitest';
import { addWhy, whyNote } from '../../src/verdict/why-log.js';
import type { WhyEntry } from '../../src/verdict/state.js';
import { Scenario, prompt, stop } from './scenario.js';

describe('the why list', () => {
  it('a remote tile that dropped, then typed into 40 times: the drop and the turn stay listed', () => {
    const s = new Scenario({ remote: true }).at(1_000, 'hook', prompt).at(5_000, 'hook', stop()).at(9_000, 'process', { type: 'exit', code: 255, signal: null });
    for (let i = 0; i < 40; i++) s.at(10_000 + i * 100, 'user', { type: 'seen' });
    const why = s.state.why;
    const seen = why.filter((entry) => entry.source === 'user' && entry.signal === 'seen');
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ t: 10_000, count: 40, lastT: 13_900 });
    expect(why.some((entry) => entry.signal === 'exit' && /connection lost/.test(entry.note))).toBe(true);
    expect(why.some((entry) => entry.source === 'hook' && entry.signal === 'turn-start')).toBe(true);
    expect(whyNote(seen[0]!)).toBe(`${seen[0]!.note} ×40 (to 13.900s)`);
  });

  it('collapses only a run of the same user event; anything between starts a new line', () => {
    const user = (t: number, note = 'seen'): WhyEntry => ({ t, seq: t, source: 'user', signal: 'seen', note });
    let why: WhyEntry[] = [];
    for (const entry of [user(1), user(2), { t: 3, seq: 3, source: 'psp', signal: 'at-rest', note: 'idle' } as WhyEntry, user(4), user(5, 'ignored: other'), user(6, 'ignored: other')]) {
      why = addWhy(why, entry, 16);
    }
    expect(why.map((e) => [e.t, e.count ?? 1])).toEqual([[1, 2], [3, 1], [4, 1], [5, 2]]);
    // Not the user's: a run of the same engine or agent signal stays one line each (each may decide).
    const psp = (t: number): WhyEntry => ({ t, seq: t, source: 'psp', signal: 'at-rest', note: 'idle' });
    expect(addWhy([psp(1)], psp(2), 16)).toHaveLength(2);
    // The depth still holds.
    let many: WhyEntry[] = [];
    for (let t = 0; t < 30; t++) many = addWhy(many, psp(t), 16);
    expect(many).toHaveLength(16);
    expect(whyNote(psp(1))).toBe('idle');
  });
});
