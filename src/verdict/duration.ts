/**
 * The one range check for every duration belltower waits: the engine's timing settings, `wait
 * --timeout`, `demo --seconds`, a control request's timeout. Node's timers hold at most 2^31−1 ms
 * (24.8 days); a longer one fires at once, with a TimeoutOverflowWarning on stderr — a `wait
 * --timeout 30d` that returned at once as a timeout, and a warning through the user's terminal.
 */

/** The longest wait belltower accepts, in milliseconds (2^31−1, about 24.8 days). */
export const MAX_DURATION_MS = 2 ** 31 - 1;

/** Why `ms` is not a duration belltower can wait (a finite number from 0 to MAX_DURATION_MS), or null. */
export function durationProblem(ms: unknown): string | null {
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) return 'must be a non-negative number of milliseconds';
  if (ms > MAX_DURATION_MS) return `must be at most ${MAX_DURATION_MS} ms (24.8 days, the longest a timer can wait)`;
  return null;
}

/** `ms` the way people write a duration (20s, 1h30m, 300ms, 1.5s): for a duration nobody wrote. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms}ms`;
  if (ms % 1000 !== 0) return `${ms / 1000}s`;
  const seconds = ms / 1000;
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return `${h ? `${h}h` : ''}${m ? `${m}m` : ''}${s ? `${s}s` : ''}`;
}
