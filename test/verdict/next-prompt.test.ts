/**
 * The next prompt against the turn before it (DESIGN.md: "Next prompt", "Queued prompt"): a prompt
 * that comes inside the conflict window proves the turn ended, and a prompt typed while the agent
 * still works makes the end of that turn no done.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_TIMING } from '../../src/verdict/index.js';
import { Scenario, prompt, stop } from './scenario.js';

const WINDOW = DEFAULT_TIMING.conflictWindowMs;
const shell = { id: 'b1', type: 'shell' } as const;
const banner = { type: 'banner', text: '✻ Churned for 3s · done 3:04 AM' } as const;
const userPrompt = { type: 'prompt' } as const;
const doneSources = (s: Scenario): string[] => s.effects.flatMap((e) => (e.type === 'verdict' && e.to === 'done' ? [e.verdict.source] : []));

describe('a prompt inside the conflict window', () => {
  it('releases the held done as its own edge, without a ring, before the new turn works (UserPromptSubmit)', () => {
    const s = new Scenario().at(1_000, 'hook', prompt).at(2_000, 'hook', stop()).at(2_300, 'hook', prompt).at(4_000, 'hook', stop()).until(60_000);
    expect(s.states).toEqual(['working', 'done', 'working', 'done']);
    expect(s.times('done')).toEqual([2_300, 4_000 + WINDOW]);
    // One ring: the second turn's. The first done came while the user typed.
    expect(s.rings).toEqual(['done']);
    expect(doneSources(s)).toEqual(['hook', 'hook']);
  });

  it("the user's own submit through belltower releases it too; the done is then seen", () => {
    const s = new Scenario().at(1_000, 'hook', prompt).at(2_000, 'psp', { type: 'turn-end' }).at(2_300, 'user', userPrompt).at(2_310, 'hook', prompt).until(60_000);
    expect(s.states).toEqual(['working', 'done', 'idle', 'working']);
    expect(s.rings).toEqual([]);
    expect(doneSources(s)).toEqual(['psp']);
  });

  it('three turns, each next prompt 300 ms after the Stop: one done per turn, the last one rings', () => {
    const s = new Scenario();
    for (const start of [1_000, 2_300, 3_600]) s.at(start, 'hook', prompt).at(start + 1_000, 'hook', stop());
    s.until(60_000);
    expect(s.times('done')).toEqual([2_300, 3_600, 4_600 + WINDOW]);
    expect(s.rings).toEqual(['done']);
  });

  it('a slash command typed in the window: the done first, then the latch', () => {
    const s = new Scenario().at(1_000, 'hook', prompt).at(2_000, 'hook', stop()).at(2_300, 'user', { type: 'prompt', local: true }).until(60_000);
    expect(s.states).toEqual(['working', 'done', 'idle']);
    expect(s.state.latched).toBe(true);
    expect(s.rings).toEqual([]);
  });

  it('a blocked claim from the agent in the window still wins over the done', () => {
    const s = new Scenario().at(1_000, 'hook', prompt).at(2_000, 'hook', stop()).at(2_200, 'psp', { type: 'blocked', kind: 'permission' }).at(2_300, 'user', userPrompt).until(60_000);
    expect(s.count('done')).toBe(0);
    expect(s.states).toEqual(['working', 'blocked', 'working']);
  });

  it('a working claim from the agent in the window still cancels it', () => {
    const s = new Scenario().at(1_000, 'hook', prompt).at(2_000, 'hook', stop()).at(2_200, 'hook', { type: 'working', detail: 'Bash' }).at(2_300, 'hook', prompt).until(60_000);
    expect(s.count('done')).toBe(0);
  });

  it('a gated hold (background work still running) is not released by a prompt', () => {
    const s = new Scenario().at(1_000, 'hook', prompt).at(2_000, 'hook', stop([shell])).at(2_300, 'hook', prompt).until(4_000);
    expect(s.count('done')).toBe(0);
    expect(s.now).toBe('working');
  });

  it('nor once the background finished and the hold waits for quiet: it was gated', () => {
    const s = new Scenario()
      .at(1_000, 'hook', prompt)
      .at(2_000, 'hook', stop([shell]))
      .at(5_000, 'psp', { type: 'child', id: 'b1', open: false })
      .at(6_000, 'hook', prompt)
      .until(20_000);
    expect(s.count('done')).toBe(0);
  });

  it('a held title rest is not released by a prompt: the title is no proof that the turn ended', () => {
    const s = new Scenario({ promptsFromHooks: false })
      .at(1_000, 'title', { type: 'working', detail: '◐' })
      .at(5_000, 'title', { type: 'at-rest', detail: '✳' })
      .at(5_300, 'user', userPrompt)
      .until(60_000);
    expect(s.count('done')).toBe(0);
  });

  it('a transcript turn start (an agent without hooks) releases it the same way', () => {
    const s = new Scenario({ promptsFromHooks: false }).at(1_000, 'transcript', prompt).at(2_000, 'notify', { type: 'turn-end' }).at(2_300, 'transcript', prompt).until(60_000);
    expect(s.states).toEqual(['working', 'done', 'working']);
    expect(s.rings).toEqual([]);
  });
});

describe('a prompt queued while the agent works', () => {
  /** Claude with hooks: UserPromptSubmit at once for the prompt typed mid-turn. */
  function queued(): Scenario {
    return new Scenario().at(1_369, 'hook', prompt).at(3_025, 'user', userPrompt).at(3_040, 'hook', prompt);
  }

  it('the end of the turn it waits behind is no done, nor is that turn\'s banner; the queued turn\'s end is', () => {
    const s = queued()
      .at(4_712, 'hook', stop())
      .at(4_771, 'title', { type: 'working', detail: '◑' })
      .at(4_776, 'banner', banner)
      .at(4_830, 'transcript', { type: 'turn-end' })
      .at(4_831, 'transcript', prompt)
      .at(7_075, 'hook', stop())
      .at(7_098, 'title', { type: 'at-rest', detail: '✳' })
      .at(7_100, 'banner', banner)
      .until(60_000);
    expect(s.states).toEqual(['working', 'done']);
    expect(s.times('done')).toEqual([7_075 + WINDOW]);
    expect(s.rings).toEqual(['done']);
  });

  it('the transcript saying the queued prompt started ends the wait: a queued turn longer than the settle is no done', () => {
    const s = queued().at(4_712, 'hook', stop()).at(4_831, 'transcript', prompt).at(40_000, 'hook', stop()).until(120_000);
    expect(s.times('done')).toEqual([40_000 + WINDOW]);
  });

  it('without the transcript, the second Stop is the queued turn ending', () => {
    const s = queued().at(4_712, 'hook', stop()).at(7_075, 'hook', stop()).until(60_000);
    expect(s.times('done')).toEqual([7_075 + WINDOW]);
    expect(s.state.queuedPrompts).toBe(0);
  });

  it('taken into the running turn (queue-operation remove) before its Stop: that Stop is the done', () => {
    const s = queued().at(4_874, 'transcript', { type: 'queue-absorbed' }).at(4_892, 'hook', stop()).at(4_917, 'banner', banner).until(60_000);
    expect(s.times('done')).toEqual([4_892 + WINDOW]);
    expect(s.rings).toEqual(['done']);
  });

  it('taken into the running turn, read after its Stop: the done comes as soon as that is known', () => {
    const s = queued().at(4_892, 'hook', stop()).until(6_000).at(6_100, 'transcript', { type: 'queue-absorbed' }).until(60_000);
    expect(s.times('done')).toEqual([6_100]);
  });

  it('evidence that never comes cannot hold it for ever: the stuck-screen settle releases it', () => {
    const s = queued().at(4_712, 'hook', stop()).until(600_000);
    expect(s.times('done')).toEqual([4_712 + DEFAULT_TIMING.stuckScreenSettleMs]);
  });

  it('an interrupt empties the queue: the next turn ends in a done as usual', () => {
    const s = queued().at(4_000, 'transcript', { type: 'interrupted' }).at(6_000, 'hook', prompt).at(7_000, 'hook', stop()).until(60_000);
    expect(s.times('done')).toEqual([7_000 + WINDOW]);
  });

  it('a transcript turn start while the turn still runs is a restatement, not the queued prompt starting', () => {
    const s = queued().at(3_200, 'transcript', prompt).at(4_712, 'hook', stop()).until(10_000);
    expect(s.state.queuedPrompts).toBe(1);
    expect(s.count('done')).toBe(0);
  });
});
