/**
 * The layout: terminal size + number of tiles → rectangles. Pure, so every arrangement is a unit
 * test. Each tile is a bordered box whose header sits in its top border; the body (the agent's
 * screen, and the size its pty is given) is the inside of the box. The last terminal row is the
 * status line.
 */

export interface Rect {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export interface TileRect {
  /** Position of the tile in the tile list. */
  readonly index: number;
  /** The box, borders included. */
  readonly outer: Rect;
  /** The inside: where the agent's screen is painted, and its pty's size. */
  readonly body: Rect;
}

export type Layout =
  | {
      readonly kind: 'grid';
      /** Only the tiles that are shown (one when zoomed). */
      readonly tiles: readonly TileRect[];
      readonly columns: number;
      readonly rows: number;
      readonly status: Rect;
    }
  | {
      readonly kind: 'too-small';
      /** The smallest terminal this many tiles need. */
      readonly need: { readonly cols: number; readonly rows: number };
      readonly status: Rect;
    };

/** Below this a tile's body is not worth showing: the terminal is too small instead. */
export const MIN_BODY = { cols: 20, rows: 3 } as const;

/** Terminal cells are about twice as tall as wide, and agents want width more than height: the
 * arrangement maximises min(body width / this, body height). */
const WIDTH_PER_ROW = 2.5;

export interface LayoutInput {
  cols: number;
  rows: number;
  count: number;
  /** Show only this tile (by index), over the whole grid area. */
  zoomed?: number | null;
}

export function layout({ cols, rows, count, zoomed = null }: LayoutInput): Layout {
  const status: Rect = { x: 0, y: Math.max(0, rows - 1), width: Math.max(0, cols), height: rows > 0 ? 1 : 0 };
  const area = { width: Math.max(0, cols), height: Math.max(0, rows - 1) };
  if (count <= 0) return { kind: 'grid', tiles: [], columns: 0, rows: 0, status };

  if (zoomed !== null && zoomed >= 0 && zoomed < count) {
    const outer: Rect = { x: 0, y: 0, ...area };
    if (!fits(outer)) return { kind: 'too-small', need: needFor(1, 1), status };
    return { kind: 'grid', tiles: [{ index: zoomed, outer, body: inside(outer) }], columns: 1, rows: 1, status };
  }

  let best: { tiles: TileRect[]; columns: number; rows: number; score: number; smallest: number } | null = null;
  for (let columns = 1; columns <= count; columns++) {
    const gridRows = Math.ceil(count / columns);
    // A column count that leaves a whole row empty is the same grid as a smaller one.
    if (gridRows * columns - count >= columns) continue;
    const tiles = arrange(area, count, columns, gridRows);
    if (!tiles.every((tile) => fits(tile.outer))) continue;
    const score = Math.min(...tiles.map((tile) => Math.min(tile.body.width / WIDTH_PER_ROW, tile.body.height)));
    const smallest = Math.min(...tiles.map((tile) => tile.body.width * tile.body.height));
    if (!best || score > best.score || (score === best.score && smallest > best.smallest)) {
      best = { tiles, columns, rows: gridRows, score, smallest };
    }
  }
  if (!best) return { kind: 'too-small', need: smallestGrowth(cols, rows, count), status };
  return { kind: 'grid', tiles: best.tiles, columns: best.columns, rows: best.rows, status };
}

/** `count` tiles in `gridRows` rows of `columns`; a short last row stretches its tiles to the full
 * width, and leftover cells go to the first columns and rows so the grid fills the area exactly. */
function arrange(area: { width: number; height: number }, count: number, columns: number, gridRows: number): TileRect[] {
  const heights = split(area.height, gridRows);
  const tiles: TileRect[] = [];
  let y = 0;
  for (let row = 0; row < gridRows; row++) {
    const inRow = Math.min(columns, count - row * columns);
    const widths = split(area.width, inRow);
    let x = 0;
    for (let col = 0; col < inRow; col++) {
      const outer: Rect = { x, y, width: widths[col] ?? 0, height: heights[row] ?? 0 };
      tiles.push({ index: row * columns + col, outer, body: inside(outer) });
      x += outer.width;
    }
    y += heights[row] ?? 0;
  }
  return tiles;
}

/** `total` cells into `parts` sizes that differ by at most one, larger first. */
export function split(total: number, parts: number): number[] {
  const base = Math.floor(total / parts);
  const extra = total - base * parts;
  return Array.from({ length: parts }, (_, i) => base + (i < extra ? 1 : 0));
}

function inside(outer: Rect): Rect {
  return { x: outer.x + 1, y: outer.y + 1, width: Math.max(0, outer.width - 2), height: Math.max(0, outer.height - 2) };
}

function fits(outer: Rect): boolean {
  return outer.width - 2 >= MIN_BODY.cols && outer.height - 2 >= MIN_BODY.rows;
}

function needFor(columns: number, gridRows: number): { cols: number; rows: number } {
  return { cols: columns * (MIN_BODY.cols + 2), rows: gridRows * (MIN_BODY.rows + 2) + 1 };
}

/** Of the terminal sizes that fit `count` tiles, the one that asks the user to grow the window least. */
function smallestGrowth(cols: number, rows: number, count: number): { cols: number; rows: number } {
  let best: { need: { cols: number; rows: number }; growth: number } | null = null;
  for (let columns = 1; columns <= count; columns++) {
    const need = needFor(columns, Math.ceil(count / columns));
    const growth = Math.max(0, need.cols - cols) + Math.max(0, need.rows - rows) * WIDTH_PER_ROW;
    if (!best || growth < best.growth) best = { need, growth };
  }
  return best?.need ?? needFor(1, 1);
}

/** The tile whose box contains the cell, if any (for moving the selection by direction). */
export function tileAt(tiles: readonly TileRect[], x: number, y: number): TileRect | undefined {
  return tiles.find(({ outer }) => x >= outer.x && x < outer.x + outer.width && y >= outer.y && y < outer.y + outer.height);
}

export type Direction = 'left' | 'right' | 'up' | 'down';

/**
 * The tile next to `from` in a direction, as the eye sees it: the nearest box on that side that
 * overlaps `from`'s span (the one whose centre is closest when several do). None at the edge.
 */
export function neighbour(tiles: readonly TileRect[], from: number, direction: Direction): number | null {
  const origin = tiles.find((tile) => tile.index === from);
  if (!origin) return null;
  const o = origin.outer;
  const horizontal = direction === 'left' || direction === 'right';
  let best: { index: number; distance: number; offset: number } | null = null;
  for (const tile of tiles) {
    if (tile.index === from) continue;
    const r = tile.outer;
    const ahead =
      direction === 'left' ? r.x + r.width <= o.x : direction === 'right' ? r.x >= o.x + o.width : direction === 'up' ? r.y + r.height <= o.y : r.y >= o.y + o.height;
    if (!ahead) continue;
    const overlaps = horizontal ? r.y < o.y + o.height && r.y + r.height > o.y : r.x < o.x + o.width && r.x + r.width > o.x;
    if (!overlaps) continue;
    const distance = horizontal ? Math.abs(r.x - o.x) : Math.abs(r.y - o.y);
    const offset = horizontal ? Math.abs(r.y + r.height / 2 - (o.y + o.height / 2)) : Math.abs(r.x + r.width / 2 - (o.x + o.width / 2));
    if (!best || distance < best.distance || (distance === best.distance && offset < best.offset)) best = { index: tile.index, distance, offset };
  }
  return best?.index ?? null;
}
