import { describe, expect, it } from 'vitest';
import { Scenario, prompt, stop } from './scenario.js';

const shell = { id: 'b1', type: 'shell' } as const;

describe('the background gate', () => {
  it('a Stop whose background_tasks holds a running shell is not done: held, then released after the list empties and 10 s of quiet', () => {
    const s = new Scenario().at(5_000, 'hook', prompt).at(8_520, 'hook', stop([shell])).until(21_000);
    expect(s.count('done')).toBe(0);
    expect(s.state.hold?.gated).toBe(true);
    s.at(21_540, 'psp', { type: 'child', id: 'b1', open: false }).until(21_540 + 9_999);
    expect(s.count('done')).toBe(0);
    s.until(21_540 + 10_000);
    expect(s.times('done')).toEqual([31_540]);
    expect(s.rings).toEqual(['done']);
  });

  it('a gated done is cancelled by a new prompt before its release', () => {
    const s = new Scenario()
      .at(5_000, 'hook', prompt)
      .at(8_520, 'hook', stop([shell]))
      .at(21_540, 'psp', { type: 'child', id: 'b1', open: false })
      .at(25_330, 'hook', { type: 'turn-start', real: false })
      .until(100_000);
    expect(s.count('done')).toBe(0);
    expect(s.now).toBe('working');
    // …and the turn the task notification started ends in the one done.
    s.at(127_260, 'hook', stop([])).until(200_000);
    expect(s.count('done')).toBe(1);
  });

  it('the real sequence: Stop with a running shell, OSC 7501 working, the shell clears, the task notification turn, Stop []: one done', () => {
    const s = new Scenario()
      .at(5_000, 'hook', prompt)
      .at(8_520, 'hook', stop([shell]))
      .at(8_710, 'psp', { type: 'working', detail: '1 shell still running' })
      .at(8_720, 'psp', { type: 'child', id: 'b1', open: true })
      .at(21_540, 'psp', { type: 'child', id: 'b1', open: false })
      .at(25_330, 'hook', { type: 'turn-start', real: false })
      .at(27_260, 'hook', stop([]))
      .at(27_520, 'psp', { type: 'turn-end' })
      .until(100_000);
    expect(s.count('done')).toBe(1);
    expect(s.times('done')).toEqual([27_260 + 750]);
    expect(s.rings).toEqual(['done']);
  });

  it('a hook-less shell stops gating after its TTL (5 min)', () => {
    const s = new Scenario().at(5_000, 'hook', prompt).at(8_000, 'hook', stop([shell])).until(8_000 + 300_000 - 1);
    expect(s.count('done')).toBe(0);
    s.until(8_000 + 300_000 + 10_000);
    expect(s.times('done')).toEqual([8_000 + 300_000 + 10_000]);
  });

  it('the TTL is overridable', () => {
    const s = new Scenario({ timing: { hooklessBackgroundTtlMs: 1_000, heldReleaseQuietMs: 500 } }).at(0, 'hook', prompt).at(1_000, 'hook', stop([shell])).until(60_000);
    expect(s.times('done')).toEqual([2_500]);
  });

  it('the transcript end-of-turn marker is gated exactly like a Stop', () => {
    const s = new Scenario()
      .at(1_000, 'transcript', { type: 'turn-start', real: true })
      .at(6_000, 'transcript', { type: 'turn-end', pendingAgents: 1 })
      .until(100_000);
    expect(s.count('done')).toBe(0);
    expect(s.state.hold?.gated).toBe(true);
  });

  it('open OSC 7501 child records gate: a turn that ends while a child is open is not done until it clears', () => {
    const s = new Scenario({ promptsFromHooks: false })
      .at(1_000, 'user', { type: 'prompt' })
      .at(1_010, 'psp', { type: 'working' })
      .at(4_000, 'psp', { type: 'child', id: 'task-7', open: true })
      .at(4_100, 'psp', { type: 'working', detail: '1 shell still running' })
      .at(4_200, 'psp', { type: 'turn-end' })
      .until(30_000);
    expect(s.count('done')).toBe(0);
    s.at(30_000, 'psp', { type: 'child', id: 'task-7', open: false }).until(45_000);
    expect(s.times('done')).toEqual([40_000]);
  });

  it('the OSC 7501 state done alone is a done', () => {
    const s = new Scenario({ promptsFromHooks: false })
      .at(1_000, 'user', { type: 'prompt' })
      .at(1_010, 'psp', { type: 'working' })
      .at(4_200, 'psp', { type: 'turn-end' })
      .until(30_000);
    expect(s.times('done')).toEqual([4_950]);
    expect(s.state.verdict.source).toBe('psp');
  });
});

describe('subagents', () => {
  it('are counted by agent_id; the turn is done only after the last one stops', () => {
    const sub = { id: 'a1', type: 'subagent' } as const;
    const s = new Scenario()
      .at(1_000, 'hook', prompt)
      .at(2_000, 'hook', { type: 'subagent-start', id: 'a1' })
      .at(2_100, 'hook', { type: 'subagent-start', id: 'a2' })
      .at(6_750, 'hook', stop([sub, { id: 'a2', type: 'subagent' }]))
      .at(12_670, 'hook', { type: 'subagent-stop', id: 'a1', background: [{ id: 'a2', type: 'subagent' }] })
      .until(40_000);
    expect(s.count('done')).toBe(0);
    s.at(41_000, 'hook', { type: 'subagent-stop', id: 'a2', background: [] }).until(80_000);
    expect(s.times('done')).toEqual([51_000]);
  });

  it('a SubagentStop for an id never started changes no count', () => {
    const s = new Scenario()
      .at(1_000, 'hook', prompt)
      .at(2_000, 'hook', { type: 'subagent-start', id: 'a1' })
      .at(3_000, 'hook', { type: 'subagent-stop', id: 'ghost' })
      .at(6_000, 'hook', stop([]))
      .until(100_000);
    expect(s.count('done')).toBe(0);
    expect(Object.keys(s.state.gate.subagents)).toEqual(['a1']);
  });

  it('the larger of counted and declared wins: a declared subagent the hooks never started still gates', () => {
    const s = new Scenario()
      .at(1_000, 'hook', prompt)
      .at(6_000, 'hook', stop([{ id: 'x', type: 'subagent' }]))
      .until(100_000);
    expect(s.count('done')).toBe(0);
  });

  it('the larger of counted and declared wins: a counted subagent the Stop list forgot still gates', () => {
    const s = new Scenario()
      .at(1_000, 'hook', prompt)
      .at(2_000, 'hook', { type: 'subagent-start', id: 'a1' })
      .at(6_000, 'hook', stop([]))
      .until(100_000);
    expect(s.count('done')).toBe(0);
    // A lost SubagentStop stops gating after the subagent TTL (30 min).
    s.until(2_000 + 30 * 60_000 + 10_000);
    expect(s.count('done')).toBe(1);
  });
});

describe('teammates', () => {
  const team = (...names: string[]) => names.map((name) => ({ id: name, type: 'teammate' as const, name }));

  it('idle teammates are drained by count: done once every declared teammate is idle', () => {
    const s = new Scenario()
      .at(1_000, 'hook', prompt)
      .at(5_000, 'hook', stop(team('ada', 'bob')))
      .at(6_000, 'hook', { type: 'teammate-idle', name: 'ada' })
      .at(6_100, 'hook', { type: 'teammate-idle', name: 'ada' })
      .until(30_000);
    expect(s.count('done')).toBe(0);
    s.at(30_000, 'hook', { type: 'teammate-idle', name: 'bob' }).until(41_000);
    expect(s.times('done')).toEqual([40_000]);
  });

  it('a stale name never hides a live one', () => {
    const s = new Scenario()
      .at(1_000, 'hook', prompt)
      .at(5_000, 'hook', stop(team('ada', 'bob')))
      .at(6_000, 'hook', { type: 'teammate-idle', name: 'ada' })
      .at(7_000, 'hook', { type: 'teammate-idle', name: 'carol-from-last-week' })
      .until(7_000 + 80_000);
    expect(s.count('done')).toBe(0);
  });

  it('teammates stop gating after their TTL (90 s) without news', () => {
    const s = new Scenario().at(1_000, 'hook', prompt).at(5_000, 'hook', stop(team('ada'))).until(5_000 + 90_000 + 10_000);
    expect(s.times('done')).toEqual([5_000 + 90_000 + 10_000]);
  });
});

describe('background TTLs count from the latest declaration', () => {
  it('a shell re-declared by a later Stop keeps gating past the first TTL', () => {
    const s = new Scenario()
      .at(5_000, 'hook', prompt)
      .at(8_000, 'hook', stop([shell]))
      .at(200_000, 'hook', prompt)
      .at(250_000, 'hook', stop([shell]))
      .until(250_000 + 300_000 - 1);
    expect(s.count('done')).toBe(0);
    s.until(250_000 + 300_000 + 10_000);
    expect(s.times('done')).toEqual([560_000]);
  });

  it('an OSC 7501 child re-reported as running keeps gating', () => {
    const s = new Scenario({ promptsFromHooks: false }).at(1_000, 'user', { type: 'prompt' }).at(1_010, 'psp', { type: 'working' }).at(4_000, 'psp', { type: 'child', id: 'upload', open: true }).at(4_200, 'psp', { type: 'turn-end' });
    for (let t = 10_000; t <= 400_000; t += 10_000) s.at(t, 'psp', { type: 'child', id: 'upload', open: true });
    s.until(400_000 + 300_000 - 1);
    expect(s.count('done')).toBe(0);
    s.until(400_000 + 300_000 + 10_000);
    expect(s.count('done')).toBe(1);
  });
});

describe('what the gate tracks is bounded', () => {
  // Any program in a tile can print OSC 7501 child records: 16,000 unique ids (~640 KB of output)
  // took 45 s to process and held `ls` for seconds, because each record copied every open id.
  it('20,000 unique OSC 7501 child ids keep the 64 newest open; the oldest expire, noted in "why"', () => {
    const s = new Scenario().at(0, 'hook', prompt);
    for (let i = 0; i < 20_000; i++) s.at(1 + i, 'psp', { type: 'child', id: `c${i}`, open: true });
    const open = Object.keys(s.state.gate.children);
    expect(open).toHaveLength(64);
    expect(open).toContain('c19999');
    expect(open).not.toContain('c19935');
    expect(s.state.why.at(-1)?.note).toMatch(/child c19935 expired: more than 64 open children/);
    // The newest still gate a turn end; clearing them all releases it.
    s.at(30_000, 'hook', stop([])).until(40_000);
    expect(s.count('done')).toBe(0);
    for (let i = 19_936; i < 20_000; i++) s.at(40_000 + i, 'psp', { type: 'child', id: `c${i}`, open: false });
    s.until(100_000);
    expect(s.count('done')).toBe(1);
  });

  it('a child re-reported is the newest again: it is not the one that expires', () => {
    const s = new Scenario().at(0, 'hook', prompt);
    for (let i = 0; i < 64; i++) s.at(1 + i, 'psp', { type: 'child', id: `c${i}`, open: true });
    s.at(100, 'psp', { type: 'child', id: 'c0', open: true });
    s.at(101, 'psp', { type: 'child', id: 'new', open: true });
    expect(Object.keys(s.state.gate.children)).toContain('c0');
    expect(Object.keys(s.state.gate.children)).not.toContain('c1');
  });

  it('counted subagents and declared background tasks are bounded the same way', () => {
    const s = new Scenario().at(0, 'hook', prompt);
    for (let i = 0; i < 200; i++) s.at(1 + i, 'hook', { type: 'subagent-start', id: `a${i}` });
    expect(Object.keys(s.state.gate.subagents)).toHaveLength(64);
    const shells = Array.from({ length: 200 }, (_, i) => ({ id: `b${i}`, type: 'shell' as const }));
    s.at(1_000, 'hook', stop(shells));
    expect(Object.keys(s.state.gate.shells)).toHaveLength(64);
    expect(s.state.why.at(-1)?.note).toMatch(/136 declared background tasks not tracked: more than 64/);
  });
});

describe('noise: what is not the tile’s own turn end never rings', () => {
  it('subagents starting and stopping, and teammates going idle, ring nothing; the real Stop rings once', () => {
    const s = new Scenario()
      .at(1_000, 'hook', prompt)
      .at(1_500, 'hook', { type: 'subagent-start', id: 'a1' })
      .at(1_600, 'hook', { type: 'subagent-start', id: 'a2' })
      .at(4_000, 'hook', { type: 'subagent-stop', id: 'a1', background: [] })
      .at(5_000, 'hook', { type: 'teammate-idle', name: 'reviewer' })
      .at(6_000, 'hook', { type: 'subagent-stop', id: 'a2', background: [] })
      .until(60_000);
    expect(s.rings).toEqual([]);
    expect(s.count('done')).toBe(0);
    s.at(61_000, 'hook', stop([])).until(120_000);
    expect(s.rings).toEqual(['done']);
  });
});

describe('an agent that starts no turn when its background work ends (Codex)', () => {
  // Codex 0.171 (fixtures/codex-0.171.0/background-job.jsonl): the turn ends (task_complete, notify,
  // OSC 7501 done) while a job still runs; the job's item_completed in the rollout is the end of all
  // the work. No turn follows it, so the quiet period only delayed the done (10 s).
  const codex = { promptsFromHooks: false, backgroundEndWakesAgent: false } as const;
  const job = (open: boolean) => ({ type: 'child', id: 'call_1', open }) as const;
  const turn = (s: Scenario) =>
    s
      .at(1_386, 'psp', { type: 'working' })
      .at(2_175, 'transcript', job(true))
      .at(2_233, 'notify', { type: 'turn-end' })
      .at(2_234, 'transcript', { type: 'turn-end' })
      .at(2_239, 'psp', { type: 'turn-end' });

  it('is done a conflict window after its own record of the job\'s end, not after the quiet period', () => {
    const s = turn(new Scenario(codex).at(1_385, 'user', { type: 'prompt' })).until(7_000);
    expect(s.count('done')).toBe(0);
    s.at(7_521, 'transcript', job(false)).until(60_000);
    expect(s.times('done')).toEqual([7_521 + 750]);
    expect(s.rings).toEqual(['done']);
  });

  it('working evidence inside that window still wins: no done', () => {
    const s = turn(new Scenario(codex).at(1_385, 'user', { type: 'prompt' }))
      .at(7_521, 'transcript', job(false))
      .at(7_900, 'psp', { type: 'working' })
      .until(60_000);
    expect(s.count('done')).toBe(0);
    expect(s.now).toBe('working');
  });

  it('a job that stops gating by its TTL, without a record of its end, still waits out the quiet period', () => {
    const s = turn(new Scenario({ ...codex, timing: { hooklessBackgroundTtlMs: 5_000 } }).at(1_385, 'user', { type: 'prompt' })).until(60_000);
    expect(s.times('done')).toEqual([2_175 + 5_000 + 10_000]);
  });

  it('an agent that does start a turn then (Claude, the default) keeps the quiet period', () => {
    const s = turn(new Scenario({ promptsFromHooks: false }).at(1_385, 'user', { type: 'prompt' }))
      .at(7_521, 'transcript', job(false))
      .until(60_000);
    expect(s.times('done')).toEqual([7_521 + 10_000]);
  });
});
