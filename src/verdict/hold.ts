/**
 * Held verdicts: a done the rules are not yet ready to show. A fresh turn end waits out the
 * conflict window (a racing "blocked" must win); a gated one waits for the background to finish
 * and then for quiet (or only the conflict window, when the agent's own record closed the gate and
 * the agent starts no turn of its own then); a first-party one waits for the screen to read idle, or settles anyway when
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
    const { settledByAgent: _settled, ...rest } = hold;
    const held: Hold = { ...rest, gated: true, quietFrom: null };
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
  const quietMs = current.settledByAgent ? timing.conflictWindowMs : timing.heldReleaseQuietMs;
  const quietUntil = current.gated ? Math.max(current.notBefore, (current.quietFrom ?? now) + quietMs) : current.notBefore;
  if (now < quietUntil) {
    const why = !current.gated ? 'conflict window' : current.settledByAgent ? 'the agent recorded its last job\'s end; conflict window' : 'background finished; waiting for quiet';
    return { action: 'keep', hold: current, wakeAt: quietUntil, why };
  }

  if (current.waitsForScreen && state.screen === 'working') {
    const settleAt = current.since + timing.stuckScreenSettleMs;
    if (now < settleAt) return { action: 'keep', hold: current, wakeAt: settleAt, why: 'the screen still reads working' };
  }
  return { action: 'release', hold: current };
}
