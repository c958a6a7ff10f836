/**
 * Issue 24, items 6 and 7: evidence is ordered by when the agent produced it, and an interrupt ends
 * its turn. Times are the tile's clock of real runs (Codex 0.171.0, Gemini CLI 0.61.0, offline
 * against the fake APIs of test/support), unless a comment says what was moved to make the race.
 */
import { describe, expect, it } from 'vitest';
import { stampSignal } from '../../src/verdict/index.js';
import { Scenario } from './scenario.js';

const begins = { type: 'turn-start', real: true, begins: true } as const;

describe('a record is as old as the agent wrote it, not as belltower read it (Codex rollout)', () => {
  it('stamping turns the record\'s own time into producedAt on the tile\'s clock, never after it was read', () => {
    // Recording started 2026-12-02T15:07:49.054Z; task_started written 15:07:50.731Z, read at 1766.
    const epoch = Date.parse('2026-12-02T15:07:49.054Z');
    const wall = Date.parse('2026-12-02T15:07:50.731Z');
    expect(stampSignal({ type: 'turn-start', real: true, source: 'transcript', wall }, 1766, 81, epoch)).toEqual({ type: 'turn-start', real: true, source: 'transcript', t: 1766, seq: 81, producedAt: 1677 });
    // A clock that stepped back cannot put a record after its reading.
    expect(stampSignal({ type: 'turn-start', real: true, source: 'transcript', wall: wall + 60_000 }, 1766, 81, epoch).producedAt).toBe(1766);
    // Without an epoch (or a time) there is no production time: the record counts as read.
    expect(stampSignal({ type: 'turn-start', real: true, source: 'transcript', wall }, 1766, 81)).toEqual({ type: 'turn-start', real: true, source: 'transcript', t: 1766, seq: 81 });
    expect(stampSignal({ type: 'working', source: 'psp' }, 10, 1, epoch)).toEqual({ type: 'working', source: 'psp', t: 10, seq: 1 });
  });

  it('the prompt record written before OSC 7501 blocked and read 26 ms after it leaves the tile blocked', () => {
    const s = new Scenario({ promptsFromHooks: false })
      .at(1_669, 'user', { type: 'prompt' })
      .at(1_671, 'psp', { type: 'working' })
      .at(1_838, 'psp', { type: 'blocked', kind: 'permission' })
      .at(1_864, 'transcript', { type: 'turn-start', real: true, producedAt: 1_677 } as never)
      .until(3_000);
    expect(s.states).toEqual(['working', 'blocked']);
    expect(s.state.why.at(-1)?.note).toMatch(/stale|blocked/);
  });

  it("the last turn's end, read after the next turn started, does not end that turn (a false done)", () => {
    // Turn 1 as recorded; the rollout's task_complete of turn 1 (written at 3478) is read only once
    // turn 2 runs — a slow read, moved from 3479 to 6050.
    const s = new Scenario({ promptsFromHooks: false })
      .at(1_669, 'user', { type: 'prompt' })
      .at(1_671, 'psp', { type: 'working' })
      .at(3_481, 'notify', { type: 'turn-end', detail: 'last message: 13 chars' })
      .at(3_499, 'psp', { type: 'turn-end' })
      .until(5_000);
    expect(s.now).toBe('done');
    s.at(6_000, 'user', { type: 'prompt' })
      .at(6_002, 'psp', { type: 'working' })
      .at(6_050, 'transcript', { type: 'turn-end', detail: 'turn took 1799 ms', producedAt: 3_478 } as never)
      .until(40_000); // past the stuck-screen settle, which would release a held end
    expect(s.states).toEqual(['working', 'done', 'idle', 'working']);
    expect(s.rings).toEqual(['done']);
  });

  it('a short turn whose rollout is read after its done: the records restate it, no second turn, no second ring', () => {
    // SessionStart (which names the rollout) late under load: the whole rollout is read at 2700.
    const s = new Scenario({ promptsFromHooks: false })
      .at(1_669, 'user', { type: 'prompt' })
      .at(1_671, 'psp', { type: 'working' })
      .at(1_900, 'notify', { type: 'turn-end' })
      .at(1_902, 'psp', { type: 'turn-end' })
      .until(2_690)
      .at(2_700, 'transcript', { type: 'turn-start', real: true, producedAt: 1_677 } as never)
      .at(2_701, 'transcript', { type: 'turn-end', producedAt: 1_899 } as never)
      .until(20_000);
    expect(s.states).toEqual(['working', 'done']);
    expect(s.rings).toEqual(['done']);
  });

  it('bookkeeping from a stale record still counts: a background job written before the blocked is tracked', () => {
    const s = new Scenario({ promptsFromHooks: false })
      .at(1_000, 'psp', { type: 'working' })
      .at(2_000, 'psp', { type: 'blocked', kind: 'permission' })
      .at(3_000, 'transcript', { type: 'child', id: 'call_1', open: true, producedAt: 1_500 } as never);
    expect(Object.keys(s.state.gate.children)).toEqual(['call_1']);
  });

  it('a record written after the verdict was decided is news, however late it is read', () => {
    // task_complete written at 2500, after OSC 7501 working (1000), read at 3000: the turn's end.
    const s = new Scenario({ promptsFromHooks: false })
      .at(1_000, 'psp', { type: 'working' })
      .at(3_000, 'transcript', { type: 'turn-end', producedAt: 2_500 } as never)
      .until(40_000); // the screen never read at rest: the stuck-screen settle releases it
    expect(s.states).toEqual(['working', 'done']);
  });
});

describe('an interrupt ends the turn: its late evidence is discarded (Gemini CLI 0.61)', () => {
  /** Esc while `sleep 6` ran: the chat file's "Request cancelled.", then the tool's AfterTool. */
  function interrupted(): Scenario {
    return new Scenario()
      .at(2_838, 'hook', { type: 'at-rest', detail: 'session startup' })
      .at(3_956, 'user', { type: 'prompt' })
      .at(4_029, 'hook', begins)
      .at(4_254, 'hook', { type: 'working', detail: 'run_shell_command' })
      .at(5_929, 'transcript', { type: 'interrupted' })
      .at(6_163, 'hook', { type: 'working', detail: 'run_shell_command' });
  }

  it("the interrupted tool's AfterTool after the interrupt leaves the tile idle", () => {
    const s = interrupted().until(8_000);
    expect(s.now).toBe('idle');
    expect(s.states).toEqual(['idle', 'working', 'idle']);
    expect(s.rings).toEqual([]);
  });

  it('the next prompt is a turn of its own: one done, and it rings', () => {
    const s = interrupted()
      .at(8_042, 'user', { type: 'prompt' })
      .at(8_326, 'hook', begins)
      .at(8_498, 'hook', { type: 'turn-end', detail: 'response: 14 chars' })
      .until(12_000);
    expect(s.states).toEqual(['idle', 'working', 'idle', 'working', 'done']);
    expect(s.times('done')).toEqual([9_248]);
    expect(s.rings).toEqual(['done']);
  });

  it("after the interrupt, the agent's live status (OSC 7501) still counts: it is no report of the old turn", () => {
    const s = new Scenario({ promptsFromHooks: false })
      .at(1_000, 'psp', { type: 'working' })
      .at(2_000, 'transcript', { type: 'interrupted' })
      .at(3_000, 'psp', { type: 'working' });
    expect(s.now).toBe('working');
  });

  it('an Esc with no record of it: the late AfterTool keeps the turn open, and the next BeforeAgent is still a turn of its own (not queued)', () => {
    // Seen on 0.55 and 0.61: AfterTool ~40 s after the Esc; no "Request cancelled." was read.
    const s = new Scenario()
      .at(2_838, 'hook', { type: 'at-rest', detail: 'session startup' })
      .at(3_956, 'user', { type: 'prompt' })
      .at(4_029, 'hook', begins)
      .at(4_254, 'hook', { type: 'working', detail: 'run_shell_command' })
      .at(44_000, 'hook', { type: 'working', detail: 'run_shell_command' })
      .at(50_000, 'user', { type: 'prompt' })
      .at(50_300, 'hook', begins)
      .at(50_500, 'hook', { type: 'turn-end', detail: 'response: 14 chars' })
      .until(52_000);
    expect(s.now).toBe('done');
    expect(s.times('done')).toEqual([51_250]);
    expect(s.rings).toEqual(['done']);
  });

  it("Claude's UserPromptSubmit (no `begins`) mid-turn is still a queued prompt", () => {
    const s = new Scenario()
      .at(1_000, 'hook', { type: 'turn-start', real: true })
      .at(2_000, 'hook', { type: 'turn-start', real: true })
      .at(3_000, 'hook', { type: 'turn-end' })
      .until(5_000);
    expect(s.now).toBe('working');
    expect(s.state.queuedPrompts).toBe(1);
  });
});
