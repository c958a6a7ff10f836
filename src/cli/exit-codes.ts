/**
 * belltower's exit statuses (README "Exit status"; a public contract like the command line).
 */
export const EXIT = {
  /** Every tile ended by itself with 0, or was closed by the user. */
  ok: 0,
  /** A tile failed to start, or an unexpected error ended belltower. */
  failure: 1,
  /** A usage error: nothing started. */
  usage: 2,
  /** Ended by a signal: 128 + the signal's number. */
  sighup: 129,
  sigint: 130,
  sigterm: 143,
} as const;

/** The status for ending on `signal` (128 + its number, as shells report it). */
export function exitForSignal(signal: 'SIGINT' | 'SIGTERM' | 'SIGHUP'): number {
  return signal === 'SIGINT' ? EXIT.sigint : signal === 'SIGTERM' ? EXIT.sigterm : EXIT.sighup;
}
