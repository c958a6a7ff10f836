/**
 * belltower's exit statuses (README "Exit status"; a public contract like the command line).
 *
 * | status | when |
 * |---|---|
 * | 0 | every tile ended by itself with 0, or was closed by the user |
 * | 1 | a tile failed to start or ended with another status or a signal; or an unexpected error |
 * | 2 | a usage error: nothing started |
 * | 129, 130, 143 | belltower was ended by SIGHUP, SIGINT, SIGTERM (128 + the signal's number) |
 */
export const EXIT = {
  /** Every tile ended by itself with 0, or was closed by the user. */
  ok: 0,
  /** A tile failed to start or did not end well, or an unexpected error ended belltower. */
  failure: 1,
  /** A usage error: nothing started. */
  usage: 2,
  /** Ended by a signal: 128 + the signal's number. */
  sighup: 129,
  sigint: 130,
  sigterm: 143,
} as const;

/** The table as `belltower --help` prints it (the README has the same). */
export const EXIT_STATUS_HELP = `Exit status:
  0            every tile ended by itself with status 0, or you closed it
  1            a tile failed to start, or ended by itself with another status or
               a signal; or an unexpected error ended belltower
  2            a usage error: nothing started
  129 130 143  belltower was ended by SIGHUP, SIGINT (Ctrl-C), SIGTERM
  (wait exits 124 on timeout; replay --check exits 1 when a verdict differs)`;

export type EndingSignal = 'SIGINT' | 'SIGTERM' | 'SIGHUP';

/** The status for ending on `signal` (128 + its number, as shells report it). */
export function exitForSignal(signal: EndingSignal): number {
  return signal === 'SIGINT' ? EXIT.sigint : signal === 'SIGTERM' ? EXIT.sigterm : EXIT.sighup;
}

/** What the exit status needs to know of one tile's end. */
export interface TileOutcome {
  code: number | null;
  signal: string | null;
  /** Why it never started. */
  error?: string;
  /** belltower ended it because the user closed the tile or quit: never a failure. */
  closed: boolean;
}

/**
 * belltower's exit status once its tiles have ended: the signal that ended belltower, if one did;
 * otherwise 1 when any tile failed to start or ended by itself with a status other than 0 (or by
 * a signal belltower did not send), else 0. A tile still running (undefined) decides nothing.
 */
export function exitStatus(endedBy: EndingSignal | null, tiles: readonly (TileOutcome | undefined)[]): number {
  if (endedBy) return exitForSignal(endedBy);
  const failed = tiles.some((end) => end !== undefined && (end.error !== undefined || (!end.closed && (end.code !== 0 || end.signal !== null))));
  return failed ? EXIT.failure : EXIT.ok;
}
