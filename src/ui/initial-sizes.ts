/**
 * The size each tile's program runs at before and beside the grid's frames: what a tile's body
 * will be, and what a compact row's program runs at. Kept apart from the grid's shell so starting
 * belltower can size the tiles before the UI's modules (Ink, React) have loaded.
 */
import { layout } from './layout.js';
import type { Layout } from './layout.js';

/** The size a compact row's program runs at: the largest tile body shown, or half the screen. */
export function compactSize(l: Layout, cols: number, rows: number): { width: number; height: number } {
  let best = { width: Math.max(20, cols - 2), height: Math.max(3, Math.floor((rows - 1) / 2) - 2) };
  if (l.kind !== 'grid') return best;
  const large = l.tiles.filter((t) => t.kind !== 'row');
  if (large.length > 0) best = large.reduce((a, t) => (t.body.width * t.body.height > a.width * a.height ? { width: t.body.width, height: t.body.height } : a), { width: 0, height: 0 });
  return best;
}

/** The size each tile's program starts at, before the grid's first frame. */
export function initialSizes(cols: number, rows: number, count: number): { width: number; height: number }[] {
  const l = layout({ cols, rows, count, mode: 'auto', large: [0], selected: 0 });
  const row = compactSize(l, cols, rows);
  return Array.from({ length: count }, (_, i) => {
    const tile = l.kind === 'grid' ? l.tiles.find((t) => t.index === i) : undefined;
    if (!tile || tile.kind === 'row') return row;
    return { width: tile.body.width, height: tile.body.height };
  });
}
