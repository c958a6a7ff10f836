/**
 * Stepping the engine over time, the same way live and in replay: before a signal at time t, every
 * wake-up the engine asked for at or before t is delivered at the time it asked for. Live timers
 * fire late and replay has none, so neither may decide when a wake-up "really" happened.
 */
import type { Effect } from './effects.js';
import { reduce } from './reducer.js';
import type { Step } from './reducer.js';
import type { Signal } from './signals.js';
import type { EngineState } from './state.js';

/** Deliver every wake-up due at or before `until`. */
export function advance(state: EngineState, until: number): Step {
  const effects: Effect[] = [];
  let current = state;
  // Each wake may ask for another; a hold resolves in a bounded number of steps, the bound guards
  // against a rule that keeps asking for the same instant.
  for (let guard = 0; guard < 1000 && current.wakeAt !== null && current.wakeAt <= until; guard++) {
    const at: number = current.wakeAt;
    const step = reduce(current, { type: 'wake', source: 'engine', t: at, seq: current.lastSeq }, at);
    effects.push(...step.effects);
    current = step.state;
    if (current.wakeAt === at) break;
  }
  return { state: current, effects };
}

/** Apply one signal at its own time, after the wake-ups that came due before it. */
export function step(state: EngineState, signal: Signal): Step {
  const before = advance(state, signal.t);
  const after = reduce(before.state, signal, signal.t);
  return { state: after.state, effects: [...before.effects, ...after.effects] };
}
