/**
 * Held verdicts: a done the rules are not yet ready to show. A fresh turn end waits out the
 * conflict window (a racing "blocked" must win); a gated one waits for the background to finish
 * and then for quiet; a first-party one waits for the screen to read idle, or settles anyway when
 * the screen is stuck.
 */
import { describeGate, readGate } from './gate.js';
import type { EngineState, Hold } from './state.js';

export type HoldDecision =
  | { action: 'none' }
  | { action: 'cancel'; why: string }
  | { action: 'keep'; hold: Hold; wakeAt: number | null; why: string }
  | { action: 'release'; hold: Hold };

/** The release check, in the order DESIGN.md fixes: moved? newer? gated? queued? quiet? (then the screen). */
export function decideHold(state: EngineState, now: number): HoldDecision {
  const hold = state.hold;
  if (!hold) return { action: 'none' };
  const timing = state.options.timing;

  if (state.verdictVersion !== hold.verdictVersion) return { action: 'cancel', why: 'the state moved since the hold' };
  if (state.lastClaimSeq > hold.seq) return { action: 'cancel', why: 'newer evidence arrived' };

  const gate = readGate(state.gate, timing, now);
  if (gate.total > 0) {
    const held: Hold = { ...hold, gated: true, quietFrom: null };
    return { action: 'keep', hold: held, wakeAt: gate.nextExpiry, why: describeGate(gate) };
  }

  // A prompt queued behind the turn starts its own turn right away, unless the agent took it into
  // the turn that ended: until one or the other is known, the end is not a done. Bounded like a
  // stuck screen, so that evidence that never comes cannot hold a done for ever.
  if (hold.awaitsQueue && state.queuedPrompts > 0) {
    const settleAt = hold.since + timing.stuckScreenSettleMs;
    if (now < settleAt) return { action: 'keep', hold, wakeAt: settleAt, why: 'a queued prompt runs next' };
  }

  let current = hold;
  if (hold.gated && hold.quietFrom === null) current = { ...hold, quietFrom: now };
  const quietUntil = current.gated ? Math.max(current.notBefore, (current.quietFrom ?? now) + timing.heldReleaseQuietMs) : current.notBefore;
  if (now < quietUntil) {
    return { action: 'keep', hold: current, wakeAt: quietUntil, why: current.gated ? 'background finished; waiting for quiet' : 'conflict window' };
  }

  if (current.waitsForScreen && state.screen === 'working') {
    const settleAt = current.since + timing.stuckScreenSettleMs;
    if (now < settleAt) return { action: 'keep', hold: current, wakeAt: settleAt, why: 'the screen still reads working' };
  }
  return { action: 'release', hold: current };
}
