/** Properties of the engine over arbitrary evidence: what must hold whatever the agents send. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { advance, DEFAULT_TIMING, initialState, readGate, reduce } from '../../src/verdict/index.js';
import type { Effect, EngineState, Signal, SignalBody, SourceName } from '../../src/verdict/index.js';

const ids = fc.constantFrom('a1', 'a2', 'b1', 'b2');
const task = fc.record({ id: ids, type: fc.constantFrom('shell', 'subagent', 'teammate', 'other' as const), name: fc.constantFrom('ada', 'bob') });

const body: fc.Arbitrary<SignalBody> = fc.oneof(
  fc.record({ type: fc.constant('turn-start' as const), real: fc.boolean() }),
  fc.constant({ type: 'working' as const }),
  fc.record({ type: fc.constant('turn-end' as const), background: fc.option(fc.array(task, { maxLength: 3 }), { nil: undefined }) }),
  fc.constant({ type: 'at-rest' as const }),
  fc.record({ type: fc.constant('blocked' as const), kind: fc.constantFrom('permission', 'question' as const) }),
  fc.constant({ type: 'failed' as const }),
  fc.constant({ type: 'interrupted' as const }),
  fc.constant({ type: 'queue-absorbed' as const }),
  fc.record({ type: fc.constant('quiet-latch' as const), why: fc.constantFrom('clear', 'compact' as const), phase: fc.constantFrom('begin', 'end' as const) }),
  fc.record({ type: fc.constant('subagent-start' as const), id: ids }),
  fc.record({ type: fc.constant('subagent-stop' as const), id: ids }),
  fc.record({ type: fc.constant('teammate-idle' as const), name: fc.constantFrom('ada', 'bob', 'carol') }),
  fc.record({ type: fc.constant('child' as const), id: ids, open: fc.boolean() }),
  fc.constant({ type: 'banner' as const, text: '✻ Worked for 3s' }),
  fc.constant({ type: 'unknown' as const }),
  fc.record({ type: fc.constant('prompt' as const), local: fc.boolean() }),
  fc.constant({ type: 'seen' as const }),
);
const source = fc.constantFrom<SourceName>('hook', 'psp', 'transcript', 'title', 'banner', 'user');
const evidence = fc.array(fc.record({ gap: fc.integer({ min: 0, max: 40_000 }), source, body }), { maxLength: 40 });

interface Run {
  effects: { effect: Effect; state: EngineState; at: number }[];
  final: EngineState;
}

function run(items: { gap: number; source: SourceName; body: SignalBody }[], promptsFromHooks: boolean): Run {
  let state = initialState({ timing: { ...DEFAULT_TIMING }, promptsFromHooks });
  const effects: Run['effects'] = [];
  let t = 0;
  items.forEach((item, i) => {
    // Wake-ups delivered before this signal happened after the previous one: that is their floor.
    const previous = t;
    t += item.gap;
    const signal = { ...item.body, source: item.source, t, seq: i + 1 } as Signal;
    // What `step` does, in two parts, so each effect is paired with the state that produced it.
    const woken = advance(state, t);
    for (const effect of woken.effects) effects.push({ effect, state: woken.state, at: previous });
    const result = reduce(woken.state, signal, t);
    for (const effect of result.effects) effects.push({ effect, state: result.state, at: t });
    state = result.state;
  });
  const tail = advance(state, t + 3_600_000);
  for (const effect of tail.effects) effects.push({ effect, state: tail.state, at: t });
  return { effects, final: tail.state };
}

describe('engine properties', () => {
  it('never throws, and a verdict effect always changes the state (or its kind)', () => {
    fc.assert(
      fc.property(evidence, fc.boolean(), (items, hooks) => {
        for (const { effect } of run(items, hooks).effects) {
          if (effect.type === 'verdict' && effect.to !== 'exited') {
            expect(effect.from !== effect.to || effect.verdict.kind !== undefined).toBe(true);
          }
        }
      }),
      { numRuns: 400 },
    );
  });

  it('rings only on an edge into done, blocked or failed, right after that verdict', () => {
    fc.assert(
      fc.property(evidence, fc.boolean(), (items, hooks) => {
        const effects = run(items, hooks).effects.map((e) => e.effect);
        effects.forEach((effect, i) => {
          if (effect.type !== 'ring') return;
          const before = effects[i - 1];
          expect(before?.type).toBe('verdict');
          if (before?.type === 'verdict') {
            expect(before.to).toBe(effect.state);
            expect(before.from).not.toBe(before.to);
          }
        });
      }),
      { numRuns: 400 },
    );
  });

  it('never shows done while background work gates, or while the quiet latch holds', () => {
    fc.assert(
      fc.property(evidence, fc.boolean(), (items, hooks) => {
        for (const { effect, state } of run(items, hooks).effects) {
          if (effect.type !== 'verdict' || effect.to !== 'done') continue;
          expect(state.latched).toBe(false);
          expect(readGate(state.gate, state.options.timing, effect.verdict.since).total).toBe(0);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('the title alone never decides once first-party evidence exists, but for a request only it announces (Codex 0.150.1) and that request\'s end', () => {
    // The agent's own "Action Required" title, and the title leaving it: nothing first-party says either.
    const titleRequest = (v: { state: string; reason: string }) =>
      v.state === 'blocked' || v.reason === 'the title works again: you answered' || v.reason === 'the title is at rest: the request is gone';
    fc.assert(
      fc.property(evidence, fc.boolean(), (items, hooks) => {
        for (const { effect, state } of run(items, hooks).effects) {
          if (effect.type === 'verdict' && effect.verdict.source === 'title' && !titleRequest(effect.verdict)) expect(state.firstPartySeen).toBe(false);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('is deterministic: the same evidence gives the same timeline (replay reproduces live)', () => {
    fc.assert(
      fc.property(evidence, fc.boolean(), (items, hooks) => {
        const a = run(items, hooks).effects.map((e) => e.effect);
        const b = run(items, hooks).effects.map((e) => e.effect);
        expect(b).toEqual(a);
      }),
      { numRuns: 200 },
    );
  });

  it('a wake-up is never asked for in the past, and every hold resolves', () => {
    fc.assert(
      fc.property(evidence, fc.boolean(), (items, hooks) => {
        const result = run(items, hooks);
        for (const { effect, at } of result.effects) if (effect.type === 'wakeAt' && effect.t !== null) expect(effect.t).toBeGreaterThanOrEqual(at);
        expect(result.final.hold).toBeNull();
        expect(result.final.wakeAt).toBeNull();
      }),
      { numRuns: 300 },
    );
  });
});
