/**
 * Every timing constant the engine uses: named, documented, overridable (CLI flags, the workspace
 * file, a recording's header). Values are milliseconds.
 */
import { durationProblem } from './duration.js';

export interface Timing {
  /** A fresh "at rest" claim (a Stop, an OSC 7501 done) is held this long so that a racing
   * "blocked" or "working" claim can win instead: a permission menu painted right after a Stop
   * must read blocked, not done. */
  conflictWindowMs: number;
  /** A Stop within this long of the previous Stop is the same Stop (hooks can fire twice). */
  duplicateStopMs: number;
  /** A title-only agent's idle glyph must hold this long after a working spell before it counts
   * as a finished turn: titles flicker between states during a turn. */
  titleStabiliseMs: number;
  /** A done that background work held back is released only after the gate empties and nothing
   * has happened for this long. */
  heldReleaseQuietMs: number;
  /** A first-party "turn ended" settles the tile after this long even when the screen never reads
   * idle (lost bytes, a restarted renderer, a glyph-free title). */
  stuckScreenSettleMs: number;
  /** A subagent counted by SubagentStart stops gating this long after it started when its
   * SubagentStop never arrives. */
  subagentTtlMs: number;
  /** Teammates stop gating this long after the last teammate evidence. */
  teammateTtlMs: number;
  /** Background work without hooks (declared shells, monitors, OSC 7501 child records) stops
   * gating this long after it was last declared. */
  hooklessBackgroundTtlMs: number;
  /** A command run at a shell prompt rings when it ends (done with exit status 0, failed with any
   * other) only if it ran at least this long: `ls` and `cd` never ring, a build or a test run does. */
  longCommandMs: number;
}

export const DEFAULT_TIMING: Readonly<Timing> = Object.freeze({
  conflictWindowMs: 750,
  duplicateStopMs: 500,
  titleStabiliseMs: 1_500,
  heldReleaseQuietMs: 10_000,
  stuckScreenSettleMs: 30_000,
  subagentTtlMs: 30 * 60_000,
  teammateTtlMs: 90_000,
  hooklessBackgroundTtlMs: 5 * 60_000,
  longCommandMs: 10_000,
});

export const TIMING_KEYS = Object.keys(DEFAULT_TIMING) as (keyof Timing)[];

/** Merge user overrides onto the defaults, refusing what is not a duration a timer can wait. */
export function resolveTiming(overrides: Partial<Record<string, unknown>> = {}): Timing {
  const timing: Timing = { ...DEFAULT_TIMING };
  for (const [key, value] of Object.entries(overrides)) {
    if (!(TIMING_KEYS as string[]).includes(key)) {
      throw new TimingError(`unknown timing setting "${key}" (known: ${TIMING_KEYS.join(', ')})`);
    }
    const problem = durationProblem(value);
    if (problem) throw new TimingError(`timing setting "${key}" ${problem}, got ${JSON.stringify(value)}`);
    timing[key as keyof Timing] = value as number;
  }
  return timing;
}

export class TimingError extends Error {
  override name = 'TimingError';
}
