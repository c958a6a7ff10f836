/**
 * Tests that close the gaps a mutation pass over src/verdict found: each one fails when the rule it
 * names (DESIGN.md "The rules the engine must keep") is removed or bent, where no other test did.
 */
import { describe, expect, it } from 'vitest';
import { initialState, readGate, reduce } from '../../src/verdict/index.js';
import type { SignalBody, TileStateName } from '../../src/verdict/index.js';
import { Scenario, prompt, stop } from './scenario.js';

const spin = { type: 'working', detail: '◐' } as const;
const rest = { type: 'at-rest', detail: '✳' } as const;
const banner = { type: 'banner', text: '✻ Churned for 7s · done 9:44 AM' } as const;
const shell = (id = 'b1') => ({ id, type: 'shell' }) as const;
const team = (...names: string[]) => names.map((name) => ({ id: name, type: 'teammate' as const, name }));
const blocked = (kind: 'permission' | 'question' = 'permission') => ({ type: 'blocked', kind }) as const;

/** A finished, seen turn: the starting point for the latch tests. */
function afterOneTurn(): Scenario {
  return new Scenario().at(1_000, 'hook', prompt).at(2_000, 'hook', stop()).until(10_000).at(11_000, 'user', { type: 'seen' });
}

describe('quiet latch: each trigger latches on its own', () => {
  const triggers: [string, SignalBody][] = [
    ['SessionEnd(clear)', { type: 'quiet-latch', why: 'clear', phase: 'begin' }],
    // "A /compact right after /clear fires PreCompact only."
    ['PreCompact', { type: 'quiet-latch', why: 'compact', phase: 'begin' }],
    // The SessionEnd of a /clear can be lost; the SessionStart(clear) alone must still latch.
    ['SessionStart(clear)', { type: 'quiet-latch', why: 'clear', phase: 'end' }],
    ['SessionStart(compact)', { type: 'quiet-latch', why: 'compact', phase: 'end' }],
  ];
  for (const [name, trigger] of triggers) {
    it(`${name} alone: an OSC 7501 done after it is no done`, () => {
      const s = afterOneTurn()
        .at(20_000, 'hook', trigger)
        .at(20_100, 'psp', { type: 'working' })
        .at(22_000, 'psp', { type: 'turn-end' })
        .until(100_000);
      expect(s.count('done')).toBe(1); // only the real turn
      expect(s.rings).toEqual(['done']);
      expect(s.now).toBe('idle');
      expect(s.state.latched).toBe(true);
    });
  }
});

describe('quiet latch: screen sources', () => {
  it('a latch resets the screen: a spinner read before /clear does not make the next turn wait for the stuck-screen settle', () => {
    const s = new Scenario()
      .at(500, 'title', spin) // the screen reads working
      .at(1_000, 'hook', { type: 'quiet-latch', why: 'clear', phase: 'begin' })
      .at(5_000, 'hook', prompt)
      .at(6_000, 'hook', stop())
      .until(60_000);
    expect(s.times('done')).toEqual([6_750]);
  });

  it('the title is muted while latched: a spinner painted during /clear is not a screen reading', () => {
    const s = new Scenario()
      .at(1_000, 'hook', { type: 'quiet-latch', why: 'clear', phase: 'begin' })
      .at(1_500, 'hook', { type: 'quiet-latch', why: 'clear', phase: 'end' })
      .at(1_600, 'title', spin)
      .at(5_000, 'hook', prompt)
      .at(6_000, 'hook', stop())
      .until(60_000);
    expect(s.times('done')).toEqual([6_750]);
  });

  it('a banner while compacting is no done: the banner is muted by the latch', () => {
    const s = afterOneTurn()
      .at(20_000, 'hook', { type: 'quiet-latch', why: 'compact', phase: 'begin' })
      .at(20_500, 'banner', { type: 'banner', text: '✻ Compacted for 3s' })
      .until(60_000);
    expect(s.count('done')).toBe(1);
    expect(s.rings).toEqual(['done']);
    expect(s.now).toBe('working');
  });

  it('a turn the agent started itself (<task-notification>) does not lift the latch: its Stop is no done', () => {
    const s = new Scenario()
      .at(1_000, 'hook', { type: 'quiet-latch', why: 'clear', phase: 'end' })
      .at(2_000, 'hook', { type: 'turn-start', real: false })
      .at(5_000, 'hook', stop())
      .until(60_000);
    expect(s.count('done')).toBe(0);
    expect(s.state.latched).toBe(true);
  });
});

describe('duplicate Stop: the 500 ms boundary', () => {
  it('a Stop 499 ms after the last is the same Stop: its list is not read', () => {
    const s = new Scenario().at(1_000, 'hook', prompt).at(2_000, 'hook', stop([shell()])).at(2_499, 'hook', stop([])).until(100_000);
    expect(s.count('done')).toBe(0);
    expect(s.state.lastStopAt).toBe(2_000);
  });

  it('a Stop 500 ms after the last is a new Stop: its empty list ends the gate', () => {
    const s = new Scenario().at(1_000, 'hook', prompt).at(2_000, 'hook', stop([shell()])).at(2_500, 'hook', stop([])).until(100_000);
    expect(s.times('done')).toEqual([12_500]);
    expect(s.state.lastStopAt).toBe(2_500);
  });
});

describe('background gate: gaps', () => {
  it('a hook-less task of another kind (a monitor) gates like a shell, until its TTL', () => {
    const s = new Scenario().at(1_000, 'hook', prompt).at(2_000, 'hook', stop([{ id: 'm1', type: 'other' }])).until(2_000 + 300_000 - 1);
    expect(s.count('done')).toBe(0);
    s.until(400_000);
    expect(s.times('done')).toEqual([2_000 + 300_000 + 10_000]);
  });

  it('gates on the larger of counted and declared subagents, not their sum', () => {
    const s = new Scenario()
      .at(1_000, 'hook', prompt)
      .at(2_000, 'hook', { type: 'subagent-start', id: 'a1' })
      .at(2_100, 'hook', { type: 'subagent-start', id: 'a2' })
      .at(6_000, 'hook', stop([{ id: 'a1', type: 'subagent' }]));
    expect(readGate(s.state.gate, s.state.options.timing, 6_000).subagents).toBe(2);
    s.at(7_000, 'hook', { type: 'subagent-stop', id: 'zz', background: [1, 2, 3].map((i) => ({ id: `d${i}`, type: 'subagent' as const })) });
    expect(readGate(s.state.gate, s.state.options.timing, 7_000).subagents).toBe(3);
  });

  it('evidence without a list (an OSC 7501 done) does not clear what a Stop declared', () => {
    const s = new Scenario()
      .at(1_000, 'hook', prompt)
      .at(6_000, 'hook', stop([{ id: 'x', type: 'subagent' }]))
      .at(6_300, 'psp', { type: 'turn-end' })
      .until(100_000);
    expect(s.count('done')).toBe(0);
  });

  it('a SubagentStop without a list does not clear the declared shells', () => {
    const s = new Scenario()
      .at(1_000, 'hook', prompt)
      .at(2_000, 'hook', { type: 'subagent-start', id: 'a1' })
      .at(3_000, 'hook', stop([shell(), { id: 'a1', type: 'subagent' }]))
      .at(4_000, 'hook', { type: 'subagent-stop', id: 'a1' })
      .until(100_000);
    expect(s.count('done')).toBe(0);
  });

  it('the newest declaration replaces the last: hooks only, the next Stop\'s empty list ends the shell', () => {
    const s = new Scenario()
      .at(5_000, 'hook', prompt)
      .at(8_520, 'hook', stop([shell()]))
      .at(25_330, 'hook', { type: 'turn-start', real: false })
      .at(27_260, 'hook', stop([]))
      .until(100_000);
    expect(s.times('done')).toEqual([27_260 + 750]);
  });

  it('teammates stop gating 90 s after the last teammate evidence, not after the Stop', () => {
    const s = new Scenario()
      .at(1_000, 'hook', prompt)
      .at(5_000, 'hook', stop(team('ada', 'bob')))
      .at(80_000, 'hook', { type: 'teammate-idle', name: 'ada' })
      .until(200_000);
    expect(s.times('done')).toEqual([80_000 + 90_000 + 10_000]);
  });

  it('teammates already idle stay drained when the list is declared again', () => {
    const s = new Scenario()
      .at(1_000, 'hook', prompt)
      .at(5_000, 'hook', stop(team('ada', 'bob')))
      .at(6_000, 'hook', { type: 'teammate-idle', name: 'ada' })
      .at(7_000, 'hook', stop(team('ada', 'bob')))
      .at(8_000, 'hook', { type: 'teammate-idle', name: 'bob' })
      .until(60_000);
    expect(s.times('done')).toEqual([18_000]);
  });

  it('an open OSC 7501 child record stops gating after the hook-less TTL (5 min)', () => {
    const s = new Scenario({ promptsFromHooks: false })
      .at(1_000, 'user', { type: 'prompt' })
      .at(1_010, 'psp', { type: 'working' })
      .at(4_000, 'psp', { type: 'child', id: 'task-7', open: true })
      .at(4_200, 'psp', { type: 'turn-end' })
      .until(4_000 + 300_000 - 1);
    expect(s.count('done')).toBe(0);
    s.until(400_000);
    expect(s.times('done')).toEqual([4_000 + 300_000 + 10_000]);
  });

  it('a declared subagent the hooks never started stops gating after the subagent TTL (30 min), to the millisecond', () => {
    const s = new Scenario()
      .at(1_000, 'hook', prompt)
      .at(6_000, 'hook', stop([{ id: 'x', type: 'subagent' }]))
      .until(6_000 + 30 * 60_000 + 10_000 - 1);
    expect(s.count('done')).toBe(0);
    s.until(6_000 + 30 * 60_000 + 60_000);
    expect(s.times('done')).toEqual([6_000 + 30 * 60_000 + 10_000]);
  });

  it('a counted subagent\'s TTL runs from its first SubagentStart', () => {
    const s = new Scenario()
      .at(1_000, 'hook', prompt)
      .at(2_000, 'hook', { type: 'subagent-start', id: 'a1' })
      .at(6_000, 'hook', stop([]))
      .at(600_000, 'hook', { type: 'subagent-start', id: 'a1' })
      .until(2_000 + 30 * 60_000 + 60_000);
    expect(s.times('done')).toEqual([2_000 + 30 * 60_000 + 10_000]);
  });
});

describe('held release: order and quiet', () => {
  it('a newer prompt cancels a gated done even while the gate is still busy (newer is checked before gated)', () => {
    const s = new Scenario()
      .at(5_000, 'hook', prompt)
      .at(8_520, 'hook', stop([shell()]))
      .at(20_000, 'hook', prompt) // a new turn while the shell still runs
      .at(30_000, 'hook', stop([shell()]))
      .at(40_000, 'psp', { type: 'child', id: 'b1', open: false })
      .until(100_000);
    // The second turn's own done, 10 s after the shell cleared.
    expect(s.times('done')).toEqual([50_000]);
  });

  it('the quiet restarts when the gate fills again before the release', () => {
    const s = new Scenario()
      .at(1_000, 'hook', prompt)
      .at(2_000, 'hook', stop([shell()]))
      .at(5_000, 'psp', { type: 'child', id: 'b1', open: false })
      .at(8_000, 'psp', { type: 'child', id: 'b2', open: true })
      .at(12_000, 'psp', { type: 'child', id: 'b2', open: false })
      .until(60_000);
    expect(s.times('done')).toEqual([22_000]);
  });

  it('a gated done still waits out the conflict window: a blocked inside it wins', () => {
    const s = new Scenario({ timing: { heldReleaseQuietMs: 100 } })
      .at(1_000, 'hook', prompt)
      .at(2_000, 'hook', stop([shell()]))
      .at(2_100, 'psp', { type: 'child', id: 'b1', open: false })
      .at(2_500, 'hook', blocked())
      .until(60_000);
    expect(s.count('done')).toBe(0);
    expect(s.now).toBe('blocked');
  });

  it('the state moving under a hold cancels it: a late OSC 7501 done after a title done, then seen', () => {
    const s = new Scenario({ promptsFromHooks: false }).at(1_000, 'title', spin).at(5_000, 'title', rest).until(6_500);
    expect(s.times('done')).toEqual([6_500]);
    s.at(7_000, 'psp', { type: 'turn-end' }).at(7_200, 'user', { type: 'seen' }).until(60_000);
    expect(s.now).toBe('idle');
    expect(s.count('done')).toBe(1);
    expect(s.rings).toEqual(['done']);
  });

  it('claims that repeat the current state still cancel a held done', () => {
    // A blocked menu painted after a Stop, while the tile already read blocked.
    const b = new Scenario().at(1_000, 'hook', prompt).at(2_000, 'hook', blocked()).at(2_100, 'hook', stop()).at(2_300, 'psp', blocked()).until(60_000);
    expect(b.count('done')).toBe(0);
    expect(b.now).toBe('blocked');
    // Esc racing the Stop: OSC 7501 idle, the Stop, then the transcript's interrupt marker.
    const i = new Scenario()
      .at(1_000, 'hook', prompt)
      .at(1_100, 'psp', { type: 'working' })
      .at(3_000, 'psp', { type: 'at-rest' })
      .at(3_050, 'hook', stop())
      .at(3_200, 'transcript', { type: 'interrupted' })
      .until(60_000);
    expect(i.count('done')).toBe(0);
    expect(i.rings).toEqual([]);
    // An error reported twice around a turn end.
    const f = new Scenario()
      .at(1_000, 'hook', prompt)
      .at(1_500, 'hook', { type: 'failed' })
      .at(1_510, 'psp', { type: 'turn-end' })
      .at(1_520, 'psp', { type: 'failed' })
      .until(60_000);
    expect(f.count('done')).toBe(0);
    expect(f.now).toBe('failed');
  });

  it('the reducer settles a matured hold before the signal it is handed (callers that skip advance)', () => {
    let state = initialState({ promptsFromHooks: true });
    state = reduce(state, { type: 'turn-start', real: true, source: 'hook', t: 1_000, seq: 1 }, 1_000).state;
    state = reduce(state, { type: 'turn-end', background: [], source: 'hook', t: 2_000, seq: 2 }, 2_000).state;
    const next = reduce(state, { type: 'turn-start', real: true, source: 'hook', t: 5_000, seq: 3 }, 5_000);
    const to = next.effects.flatMap((e) => (e.type === 'verdict' ? [e.to] : []));
    expect(to).toEqual<TileStateName[]>(['done', 'working']);
  });
});

describe('screen readings from OSC 7501', () => {
  it('OSC 7501 working that never turns idle: a Stop settles only after the stuck-screen wait', () => {
    const s = new Scenario().at(1_000, 'hook', prompt).at(1_100, 'psp', { type: 'working' }).at(6_000, 'hook', stop()).until(60_000);
    expect(s.times('done')).toEqual([36_000]);
  });

  it('OSC 7501 idle after a Stop is the screen at rest: done after the conflict window', () => {
    const s = new Scenario()
      .at(1_000, 'hook', prompt)
      .at(1_100, 'psp', { type: 'working' })
      .at(6_000, 'hook', stop())
      .at(6_200, 'psp', { type: 'at-rest' })
      .until(60_000);
    expect(s.times('done')).toEqual([6_750]);
  });

  it('an OSC 7501 blocked menu is the screen at rest', () => {
    const s = new Scenario()
      .at(1_000, 'hook', prompt)
      .at(1_100, 'psp', { type: 'working' })
      .at(2_000, 'psp', blocked())
      .at(5_000, 'user', { type: 'prompt' })
      .at(6_000, 'hook', stop())
      .until(60_000);
    expect(s.times('done')).toEqual([6_750]);
  });
});

describe('title fallback', () => {
  it('the idle glyph means a finished turn only after a spinner: a held title done cancelled by the user is not re-armed by the next idle glyph', () => {
    const s = new Scenario({ promptsFromHooks: false })
      .at(1_000, 'title', spin)
      .at(5_000, 'title', rest)
      .at(5_500, 'user', { type: 'prompt' })
      .at(6_000, 'title', rest)
      .until(60_000);
    expect(s.count('done')).toBe(0);
  });
});

describe('the banner: gaps', () => {
  it('a stale banner after the next UserPromptSubmit is ignored: the prompt itself says working', () => {
    const s = afterOneTurn().at(20_000, 'hook', prompt).at(20_100, 'banner', banner).until(60_000);
    expect(s.now).toBe('working');
    expect(s.count('done')).toBe(1);
  });

  it('OSC 7501 working alone (no hooks) drops a banner', () => {
    const s = new Scenario({ promptsFromHooks: false })
      .at(1_000, 'user', { type: 'prompt' })
      .at(1_010, 'psp', { type: 'working' })
      .at(5_000, 'banner', banner)
      .until(60_000);
    expect(s.now).toBe('working');
    expect(s.count('done')).toBe(0);
  });

  it('a banner on an idle tile is no done', () => {
    const s = new Scenario({ promptsFromHooks: false }).at(100, 'title', rest).at(2_000, 'banner', banner).until(60_000);
    expect(s.now).toBe('idle');
    expect(s.rings).toEqual([]);
  });

  it('a banner during a held first-party done neither pre-empts nor cancels it', () => {
    const s = new Scenario().at(1_000, 'hook', prompt).at(2_000, 'hook', stop()).at(2_050, 'banner', banner).until(60_000);
    expect(s.times('done')).toEqual([2_750]);
    expect(s.state.verdict.source).toBe('hook');
    expect(s.rings).toEqual(['done']);
    const b = new Scenario().at(1_000, 'hook', prompt).at(2_000, 'hook', stop()).at(2_050, 'banner', banner).at(2_400, 'hook', blocked()).until(60_000);
    expect(b.count('done')).toBe(0);
    expect(b.rings).toEqual(['blocked']);
  });

  // An early done: working again after the user answered, no claim of working, the screen at rest.
  const answered = (options: { promptsFromHooks: boolean }) =>
    new Scenario(options).at(500, 'psp', { type: 'blocked', kind: 'question' }).at(1_000, 'user', { type: 'prompt' });

  it('after an early done, the next turn started by the user (no hooks) rings again', () => {
    const s = answered({ promptsFromHooks: false })
      .at(8_000, 'banner', banner)
      .at(20_000, 'user', { type: 'prompt' })
      .at(20_100, 'psp', { type: 'working' })
      .at(25_000, 'psp', { type: 'turn-end' })
      .until(60_000);
    expect(s.times('done')).toEqual([8_000, 25_750]);
    expect(s.rings).toEqual(['blocked', 'done', 'done']);
  });

  it('after an early done, the next turn started by a real prompt hook rings again', () => {
    const s = answered({ promptsFromHooks: true })
      .at(8_000, 'banner', banner)
      .at(20_000, 'hook', prompt)
      .at(25_000, 'hook', stop())
      .at(25_100, 'title', rest)
      .until(60_000);
    expect(s.times('done')).toEqual([8_000, 25_750]);
    expect(s.rings).toEqual(['blocked', 'done', 'done']);
  });
});

describe('ordering and rings: gaps', () => {
  it('a signal that repeats an applied sequence number is stale', () => {
    const s = new Scenario().at(1_000, 'hook', prompt, 1).at(2_000, 'hook', stop(), 2).at(2_100, 'hook', blocked(), 2).until(60_000);
    expect(s.now).toBe('done');
    expect(s.count('blocked')).toBe(0);
  });

  it('a late OSC 7501 done after a title done is the same done: one verdict, one ring', () => {
    const s = new Scenario({ promptsFromHooks: false }).at(1_000, 'title', spin).at(5_000, 'title', rest).at(7_000, 'psp', { type: 'turn-end' }).until(60_000);
    expect(s.states).toEqual(['working', 'done']);
    expect(s.rings).toEqual(['done']);
  });

  it('blocked to blocked of another kind is no new edge: no second ring', () => {
    const s = new Scenario().at(1_000, 'hook', prompt).at(2_000, 'hook', blocked('permission')).at(2_100, 'psp', blocked('question'));
    expect(s.now).toBe('blocked');
    expect(s.state.verdict.kind).toBe('question');
    expect(s.rings).toEqual(['blocked']);
  });

  it('exited and unknown do not ring', () => {
    const e = new Scenario().at(1_000, 'hook', prompt).at(2_000, 'process', { type: 'exit', code: 1, signal: null });
    expect(e.now).toBe('exited');
    expect(e.rings).toEqual([]);
    const u = new Scenario({ promptsFromHooks: false }).at(1_000, 'title', spin).at(2_000, 'title', { type: 'unknown', detail: '☂' });
    expect(u.now).toBe('unknown');
    expect(u.rings).toEqual([]);
  });

  it('an unseen done or failed stays on an idle screen', () => {
    const d = new Scenario().at(1_000, 'hook', prompt).at(2_000, 'hook', stop()).until(5_000).at(6_000, 'psp', { type: 'at-rest' });
    expect(d.now).toBe('done');
    const f = new Scenario().at(1_000, 'hook', prompt).at(1_500, 'hook', { type: 'failed' }).at(1_520, 'psp', { type: 'at-rest' });
    expect(f.now).toBe('failed');
  });
});
