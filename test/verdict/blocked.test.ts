import { describe, expect, it } from 'vitest';
import { Scenario, prompt, stop } from './scenario.js';

describe('blocked against done: the conflict window', () => {
  it('Stop then PermissionRequest inside the window: blocked, not done', () => {
    const s = new Scenario()
      .at(1_000, 'hook', prompt)
      .at(2_000, 'hook', stop())
      .at(2_400, 'hook', { type: 'blocked', kind: 'permission' })
      .until(60_000);
    expect(s.count('done')).toBe(0);
    expect(s.now).toBe('blocked');
    expect(s.state.verdict.kind).toBe('permission');
    expect(s.rings).toEqual(['blocked']);
  });

  it('Stop then an OSC 7501 blocked inside the window: blocked, not done', () => {
    const s = new Scenario()
      .at(1_000, 'hook', prompt)
      .at(2_000, 'hook', stop())
      .at(2_749, 'psp', { type: 'blocked', kind: 'question' })
      .until(60_000);
    expect(s.count('done')).toBe(0);
    expect(s.state.verdict.kind).toBe('question');
  });

  it('after the window: done, then blocked, each rung once', () => {
    const s = new Scenario()
      .at(1_000, 'hook', prompt)
      .at(2_000, 'hook', stop())
      .at(2_750, 'hook', { type: 'blocked', kind: 'permission' })
      .at(8_750, 'hook', { type: 'blocked', kind: 'permission' }) // Notification(permission_prompt) 6 s later
      .until(60_000);
    expect(s.states).toEqual(['working', 'done', 'blocked']);
    expect(s.rings).toEqual(['done', 'blocked']);
  });

  it('a conflict window set to 2 s lets a later blocked win', () => {
    const s = new Scenario({ timing: { conflictWindowMs: 2_000 } })
      .at(1_000, 'hook', prompt)
      .at(2_000, 'hook', stop())
      .at(3_500, 'hook', { type: 'blocked', kind: 'permission' })
      .until(60_000);
    expect(s.count('done')).toBe(0);
  });

  it('a permission prompt mid-turn: blocked with its kind, then working after approval, then one done', () => {
    const s = new Scenario()
      .at(5_000, 'hook', prompt)
      .at(12_170, 'hook', { type: 'blocked', kind: 'permission' })
      .at(12_200, 'psp', { type: 'blocked', kind: 'permission' })
      .at(18_250, 'hook', { type: 'blocked', kind: 'permission' })
      .at(24_790, 'psp', { type: 'working' })
      .at(30_000, 'hook', stop())
      .at(30_300, 'psp', { type: 'turn-end' })
      .until(60_000);
    expect(s.states).toEqual(['working', 'blocked', 'working', 'done']);
    expect(s.rings).toEqual(['blocked', 'done']);
  });

  it('the user answering a blocked tile makes it working until the agent says more', () => {
    const s = new Scenario().at(1_000, 'hook', prompt).at(2_000, 'hook', { type: 'blocked', kind: 'permission' }).at(5_000, 'user', { type: 'prompt' });
    expect(s.now).toBe('working');
    expect(s.state.verdict.source).toBe('user');
  });
});

describe('OSC 7501 alone', () => {
  it('state=blocked kind=permission: blocked with its kind', () => {
    const s = new Scenario({ promptsFromHooks: false }).at(1_000, 'psp', { type: 'working' }).at(2_000, 'psp', { type: 'blocked', kind: 'permission' });
    expect(s.now).toBe('blocked');
    expect(s.state.verdict.kind).toBe('permission');
    expect(s.state.verdict.source).toBe('psp');
  });

  it('idle at start-up is idle, not done', () => {
    const s = new Scenario({ promptsFromHooks: false }).at(100, 'psp', { type: 'at-rest' }).until(60_000);
    expect(s.now).toBe('idle');
    expect(s.rings).toEqual([]);
  });
});

describe('an answer only the title shows (Gemini approving a confirmation fires no hook)', () => {
  const working = { type: 'working', detail: '✦  Working…' } as const;
  const hand = { type: 'unknown', detail: '✋  Action Required' } as const;
  const askThenAnswer = (s: Scenario) =>
    s
      .at(1_000, 'hook', prompt)
      .at(1_010, 'title', working)
      .at(1_500, 'hook', { type: 'blocked', kind: 'permission' })
      .at(1_580, 'title', hand)
      .at(6_000, 'title', working);

  it('the title working again after the dialog ends the blocked verdict, without a ring', () => {
    const s = askThenAnswer(new Scenario({ titleEndsBlocked: true }))
      .at(20_000, 'hook', { type: 'working', detail: 'run_shell_command' })
      .at(20_100, 'hook', stop())
      .until(60_000);
    expect(s.states).toEqual(['working', 'blocked', 'working', 'done']);
    expect(s.times('working')).toEqual([1_000, 6_000]);
    expect(s.rings).toEqual(['blocked', 'done']);
  });

  it('not for an agent that reports the answer itself: the title decides nothing there', () => {
    const s = askThenAnswer(new Scenario({ titleEndsBlocked: false })).until(10_000);
    expect(s.now).toBe('blocked');
  });

  it('a title that never left working since before the dialog is no answer', () => {
    const s = new Scenario({ titleEndsBlocked: true })
      .at(1_000, 'hook', prompt)
      .at(1_010, 'title', working)
      .at(1_500, 'hook', { type: 'blocked', kind: 'permission' })
      .at(1_600, 'title', working)
      .until(10_000);
    expect(s.now).toBe('blocked');
  });
});

describe("a reminder of the request (Claude's Notification)", () => {
  it('keeps the kind of the request that stands: a question stays a question (Claude 2.1.332 says "needs your permission" 6 s later)', () => {
    const s = new Scenario()
      .at(1_000, 'hook', prompt)
      .at(2_000, 'hook', { type: 'blocked', kind: 'permission', detail: 'approve AskUserQuestion' })
      .at(2_050, 'psp', { type: 'blocked', kind: 'question', detail: 'answer: Which database?' })
      .at(8_300, 'hook', { type: 'blocked', kind: 'permission', detail: 'Claude needs your permission', reminder: true })
      .until(60_000);
    expect(s.state.verdict.kind).toBe('question');
    expect(s.state.verdict.reason).toBe('answer: Which database?');
    expect(s.rings).toEqual(['blocked']);
  });

  it('is the request when nothing else announced it (Claude Code 1.0.x has no PermissionRequest)', () => {
    const s = new Scenario().at(1_000, 'hook', prompt).at(7_000, 'hook', { type: 'blocked', kind: 'permission', detail: 'Claude needs your permission', reminder: true }).until(60_000);
    expect(s.now).toBe('blocked');
    expect(s.state.verdict.kind).toBe('permission');
  });
});

describe("a request only the agent's title announces (Codex 0.150.1: no OSC 7501, no hook at an approval)", () => {
  // Codex's codex-rs TUI: "[ ! ] / [ . ] Action Required" each second while a view that waits on the user is open.
  const spinner = { type: 'working', detail: 'title "⠋ belltower"' } as const;
  const folder = { type: 'at-rest', detail: 'title "belltower"' } as const;
  const asks = { type: 'blocked', kind: 'other', detail: 'codex title "Action Required"' } as const;
  const turnEnd = { type: 'turn-end', detail: 'last message: 13 chars' } as const;
  const codex = () => new Scenario({ promptsFromHooks: false, titleRestIsDone: true });

  it('the first turn (only the title, then notify): blocked and rung once however often it blinks; the spinner after the answer is working; done', () => {
    const s = codex()
      .at(400, 'title', folder)
      .at(2_500, 'user', { type: 'prompt' })
      .at(2_520, 'title', spinner)
      .at(3_500, 'title', asks)
      .at(4_500, 'title', asks)
      .at(5_500, 'title', asks)
      .at(6_000, 'title', spinner)
      .at(6_100, 'title', folder)
      .at(6_850, 'notify', turnEnd)
      .until(60_000);
    expect(s.states).toEqual(['idle', 'working', 'blocked', 'working', 'done']);
    expect(s.state.verdict.source).toBe('notify');
    expect(s.rings).toEqual(['blocked', 'done']);
  });

  it('a later turn, its rollout followed (first-party evidence seen): still blocked, and the answer ends it', () => {
    const s = codex()
      .at(1_000, 'transcript', { type: 'turn-start', real: true })
      .at(1_010, 'title', spinner)
      .at(2_000, 'title', asks)
      .at(2_030, 'transcript', { type: 'turn-start', real: true }) // a record written before the question, read after it
      .at(5_000, 'title', spinner)
      .at(5_600, 'transcript', turnEnd)
      .until(60_000);
    expect(s.states).toEqual(['working', 'blocked', 'working', 'done']);
    expect(s.rings).toEqual(['blocked', 'done']);
  });

  it('dismissed (the title at rest again, the turn over): idle, not a done', () => {
    const s = codex().at(1_000, 'transcript', { type: 'turn-start', real: true }).at(2_000, 'title', asks).at(4_000, 'title', folder).until(60_000);
    expect(s.states).toEqual(['working', 'blocked', 'idle']);
    expect(s.rings).toEqual(['blocked']);
  });

  it('an agent that speaks OSC 7501 (Codex 0.171) has said blocked first: the title changes nothing, and a late frame cannot undo the answer', () => {
    const s = codex()
      .at(1_000, 'psp', { type: 'working' })
      .at(1_240, 'psp', { type: 'blocked', kind: 'permission' })
      .at(2_000, 'title', asks)
      .at(9_000, 'psp', { type: 'working' })
      .at(9_010, 'title', asks)
      .at(9_100, 'psp', turnEnd)
      .until(60_000);
    expect(s.states.slice(0, 3)).toEqual(['working', 'blocked', 'working']);
    expect(s.state.verdict.kind).not.toBe('other');
    expect(s.count('blocked')).toBe(1);
  });

  it('never at rest: a title that asks while the tile is idle or done is no request of a turn', () => {
    const s = codex().at(1_000, 'transcript', { type: 'turn-start', real: true }).at(2_000, 'notify', turnEnd).until(5_000).at(6_000, 'title', asks).until(60_000);
    expect(s.states).toEqual(['working', 'done']);
  });
});
