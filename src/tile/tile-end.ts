/**
 * How a tile's process ended, and what it left behind: the facts the exit verdict and belltower's
 * exit status are made of.
 */
import { listProcesses, markedOutside, sessionMembers } from '../platform/processes.js';
import type { ProcessEntry } from '../platform/processes.js';
import type { Evidence } from '../record/format.js';

export interface TileEnd {
  code: number | null;
  signal: string | null;
  /** Why it never started. */
  error?: string;
  /** belltower ended it (the user closed the tile, or quit). */
  closed: boolean;
  /** Processes of its session still running when it was reported. */
  remaining: number;
  /** Processes that left its session (daemons) and run on. */
  detached: number;
}

export interface Leftovers {
  /** Live processes of the session. */
  remaining: ProcessEntry[];
  /** Live processes outside it that carry the tile's marker (they left it: setsid, a daemon). */
  detached: ProcessEntry[];
}

/** What runs now of session `sid`, and what left it carrying `marker` (nothing without /proc). */
export function leftovers(sid: number, marker: string): Leftovers {
  const all = listProcesses() ?? [];
  return { remaining: sessionMembers(all, sid), detached: markedOutside(all, marker, sid) };
}

/** The recording's exit line for an end (optional fields only when they say something). */
export function exitEvidence(end: TileEnd): Evidence {
  return {
    type: 'exit',
    code: end.code,
    signal: end.signal,
    ...(end.error !== undefined ? { error: end.error } : {}),
    ...(end.closed ? { closed: true } : {}),
    ...(end.remaining > 0 ? { remaining: end.remaining } : {}),
    ...(end.detached > 0 ? { detached: end.detached } : {}),
  };
}
