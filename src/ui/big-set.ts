/**
 * The rows layout's big tiles: which tiles are drawn large above the compact rows. Pure, over the
 * tiles' states and the user's choices, with the previous set as input, because the set must be
 * stable: with twenty busy tiles a set recomputed from scratch reshuffled every second or two, and
 * the tile being read dropped to a row while another grew.
 *
 * - A tile joins when it needs you (blocked, failed, done, or a ring not looked at yet), when it
 *   is focused, or when the user pins it (`p`).
 * - It leaves only when none of that holds any more and it is not selected: nothing leaves the set
 *   under the user's eyes, and moving the selection never changes it.
 * - Members keep the order they joined in; the layout shows as many as fit, first joined first,
 *   except that the focused tile is always shown.
 */
import type { TileStateName } from '../verdict/state.js';

export interface BigSetFacts {
  readonly tiles: readonly { readonly id: number; readonly state: TileStateName; readonly sinceMs: number }[];
  /** Tile ids with a ring the user has not looked at. */
  readonly unseen: readonly number[];
  /** Tile ids the user pinned big. */
  readonly pinned: readonly number[];
  readonly selectedId: number | null;
  /** The tile the keyboard is in (focus mode), if any. */
  readonly focusedId: number | null;
}

const NEEDS_YOU: ReadonlySet<TileStateName> = new Set(['blocked', 'failed', 'done']);

/** Whether a tile asks for the user: its state, or a ring not looked at yet. */
export function needsUser(tile: { readonly id: number; readonly state: TileStateName }, unseen: readonly number[]): boolean {
  return NEEDS_YOU.has(tile.state) || unseen.includes(tile.id);
}

/** The big set after a change of states or choices: previous members first, in their order. */
export function nextBigSet(previous: readonly number[], facts: BigSetFacts): number[] {
  const byId = new Map(facts.tiles.map((tile) => [tile.id, tile]));
  const belongs = (id: number): boolean => {
    const tile = byId.get(id);
    return tile !== undefined && (facts.pinned.includes(id) || id === facts.focusedId || needsUser(tile, facts.unseen));
  };
  const kept = previous.filter((id) => byId.has(id) && (belongs(id) || id === facts.selectedId));
  // Newcomers in a fixed order: what the user asked for first, then who waited longest.
  const waiting = facts.tiles
    .filter((tile) => needsUser(tile, facts.unseen))
    .sort((a, b) => b.sinceMs - a.sinceMs || a.id - b.id)
    .map((tile) => tile.id);
  const joining = [...(facts.focusedId !== null ? [facts.focusedId] : []), ...facts.pinned, ...waiting].filter((id) => byId.has(id) && belongs(id));
  const next = [...kept];
  for (const id of joining) if (!next.includes(id)) next.push(id);
  return next.length === previous.length && next.every((id, i) => id === previous[i]) ? (previous as number[]) : next;
}

/** The order the layout tries them in: the focused tile first (it must show), then join order. */
export function bigOrder(big: readonly number[], focusedId: number | null): number[] {
  return focusedId !== null && big.includes(focusedId) ? [focusedId, ...big.filter((id) => id !== focusedId)] : [...big];
}
