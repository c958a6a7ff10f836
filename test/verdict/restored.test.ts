/**
 * A restored tile: what it showed before belltower restarted (an unseen done or failed turn, a
 * finished command) survives the restart without ringing again, and the usual rules take over.
 */
import { describe, expect, it } from 'vitest';
import { prompt, Scenario, stop } from './scenario.js';

const unseenDone = { state: 'done', reason: 'turn ended', source: 'hook', ended: false } as const;

describe('a restored verdict', () => {
  it('shows the unseen done from its first instant and does not ring for it', () => {
    const s = new Scenario({ restored: unseenDone });
    expect(s.now).toBe('done');
    expect(s.state.verdict.reason).toBe('restored: turn ended');
    expect(s.state.verdict.source).toBe('hook');
    // The resumed agent settles at its prompt: OSC 7501 idle, a surviving `done` record, its title.
    s.at(100, 'process', { type: 'spawned' })
      .at(900, 'psp', { type: 'at-rest' })
      .at(950, 'psp', { type: 'turn-end' })
      .at(1_000, 'title', { type: 'at-rest' })
      .until(30_000);
    expect(s.now).toBe('done');
    expect(s.rings).toEqual([]);
    expect(s.states).toEqual([]);
  });

  it('becomes idle when the user looks at it, or when a prompt is typed', () => {
    const looked = new Scenario({ restored: unseenDone }).at(500, 'psp', { type: 'at-rest' }).at(2_000, 'user', { type: 'seen' });
    expect(looked.now).toBe('idle');
    const typed = new Scenario({ restored: unseenDone }).at(2_000, 'user', { type: 'prompt' });
    expect(typed.now).toBe('idle');
    expect([...looked.rings, ...typed.rings]).toEqual([]);
  });

  it('the next turn works and rings as any turn does', () => {
    const s = new Scenario({ restored: unseenDone })
      .at(2_000, 'user', { type: 'prompt' })
      .at(2_010, 'hook', prompt)
      .at(5_000, 'hook', stop())
      .until(30_000);
    expect(s.states).toEqual(['idle', 'working', 'done']);
    expect(s.rings).toEqual(['done']);
  });

  it('a restored failed turn stays failed at the prompt and does not ring', () => {
    const s = new Scenario({ restored: { state: 'failed', reason: 'API error', source: 'hook', ended: false } })
      .at(500, 'psp', { type: 'at-rest' })
      .at(600, 'title', { type: 'at-rest' })
      .until(30_000);
    expect(s.now).toBe('failed');
    expect(s.rings).toEqual([]);
  });

  it('a finished command is ended: nothing is news but the user looking at it', () => {
    const s = new Scenario({
      exitIsOutcome: true,
      restored: { state: 'done', reason: 'exited with code 0', source: 'process', exit: { code: 0, signal: null }, ended: true },
    })
      .at(100, 'psp', { type: 'working' })
      .at(200, 'process', { type: 'exit', code: 1, signal: null });
    expect(s.now).toBe('done');
    expect(s.state.verdict.exit).toEqual({ code: 0, signal: null });
    s.at(300, 'user', { type: 'seen' });
    expect(s.now).toBe('exited');
    expect(s.rings).toEqual([]);
  });
});
