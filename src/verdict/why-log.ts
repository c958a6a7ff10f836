/**
 * The tile's "why?" list: the last signals and what the engine made of them. Pure.
 *
 * A run of the same user event is one entry with a count: every key typed into a tile is a `seen`,
 * and after a drop 10 of the 16 entries `why` keeps were `user seen`, pushing out the signals that
 * decided (issue 28).
 */
import type { WhyEntry } from './state.js';

/** `why` with `entry` added (the oldest dropped beyond `depth`). */
export function addWhy(why: readonly WhyEntry[], entry: WhyEntry, depth: number): WhyEntry[] {
  const last = why.at(-1);
  if (last && entry.source === 'user' && last.source === 'user' && last.signal === entry.signal && last.note === entry.note) {
    return [...why.slice(0, -1), { ...last, count: (last.count ?? 1) + 1, lastT: entry.t }];
  }
  return [...why, entry].slice(-depth);
}

/** An entry's note with its repeats: `seen ×12 (to 14.200s)`. */
export function whyNote(entry: WhyEntry): string {
  if (entry.count === undefined || entry.count < 2) return entry.note;
  return `${entry.note} ×${entry.count}${entry.lastT !== undefined ? ` (to ${(entry.lastT / 1000).toFixed(3)}s)` : ''}`;
}
