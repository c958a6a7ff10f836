/**
 * When a tile's changes (`feat-login +120 −8 · 4 files`) are counted again. Pure, on a clock:
 * once as the tile starts, again when its verdict changes (what a turn changed is news the moment
 * it ends), and every few seconds while it works — never two counts of one tile at once, and not
 * more often than a second apart whatever the verdict does. A tile at rest is not counted at all:
 * idle costs nothing.
 */

/** While the tile works, its changes are counted this often. */
export const CHANGES_EVERY_MS = 5000;
/** Two counts of one tile start at least this far apart. */
export const CHANGES_GAP_MS = 1000;

export interface RefreshState {
  /** A count runs now. */
  readonly running: boolean;
  /** Something happened (a verdict change, the start) that the last count does not show yet. */
  readonly wanted: boolean;
  /** When the last count started (null: none yet). */
  readonly lastStart: number | null;
}

export type RefreshStep =
  /** Start a count now. */
  | { readonly run: true }
  /** Nothing now; look again at `at` (null: not until something happens). */
  | { readonly run: false; readonly at: number | null };

export function nextRefresh(state: RefreshState, working: boolean, now: number): RefreshStep {
  if (state.running) return { run: false, at: null };
  const last = state.lastStart ?? -Infinity;
  const due = state.wanted ? last + CHANGES_GAP_MS : working ? last + CHANGES_EVERY_MS : null;
  if (due === null) return { run: false, at: null };
  return now >= due ? { run: true } : { run: false, at: due };
}
