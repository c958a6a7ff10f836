/**
 * What rang while no client was attached, said once on the status line of the client that
 * attaches: each tile once, in its latest state, in tile order — `while away: 1 build done ·
 * 3 claude blocked`. Pure: the rings and the tiles' names are inputs.
 */
import type { RingState } from '../tile/workspace-view.js';

/** Tiles named at most; the rest are counted. */
const MAX_NAMED = 6;

export function whileAwayNote(rings: readonly { id: number; state: RingState }[], nameOf: (id: number) => string | undefined): string | null {
  const latest = new Map<number, RingState>();
  for (const { id, state } of rings) {
    if (nameOf(id) === undefined) continue; // closed since
    latest.delete(id);
    latest.set(id, state);
  }
  if (latest.size === 0) return null;
  const ids = [...latest.keys()].sort((a, b) => a - b);
  const named = ids.slice(0, MAX_NAMED).map((id) => `${id} ${nameOf(id)} ${latest.get(id)}`);
  const more = ids.length - named.length;
  return `while away: ${named.join(' · ')}${more > 0 ? ` · ${more} more` : ''}`;
}
