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
  /** A bordered tile, a compact one-line row (the rows layout), or the rows layout's preview of
   * the selected row's tile (drawn as a tile above the rows while no tile is big; the tile keeps
   * its row too). */
  readonly kind?: 'tile' | 'row' | 'preview';
  /** The box, borders included (a row: the whole line). */
  readonly outer: Rect;
  /** The inside: where the agent's screen is painted, and its pty's size. For a row: where its
   * screen's last line is shown. */
  readonly body: Rect;
}

/** A folder's heading above its rows, when the tiles span several folders. */
export interface GroupHeading {
  readonly label: string;
  readonly y: number;
}

export type Layout =
  | {
      readonly kind: 'grid';
      /** Only the tiles that are shown (one when zoomed); rows come after the tiles. */
      readonly tiles: readonly TileRect[];
      readonly columns: number;
      readonly rows: number;
      readonly status: Rect;
      /** The rows layout: folder headings, and how many rows did not fit above and below. */
      readonly groups?: readonly GroupHeading[];
      readonly more?: { readonly above: number; readonly below: number; readonly y: number };
      /** The rows layout: every compact row's tile in drawn order, those scrolled out of view
       * included (moving up and down walks it), and the first line shown. */
      readonly rowOrder?: readonly number[];
      readonly rowsFirst?: number;
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

/** Below this a tile is not worth reading: the auto layout turns the rest into compact rows. */
export const USEFUL_BODY = { cols: 40, rows: 8 } as const;

export type LayoutMode = 'auto' | 'grid' | 'rows';
export const LAYOUT_MODES: readonly LayoutMode[] = ['auto', 'grid', 'rows'];

export interface LayoutInput {
  cols: number;
  rows: number;
  count: number;
  /** Show only this tile (by index), over the whole grid area. */
  zoomed?: number | null;
  /** auto: the grid while every tile is useful, else the rows layout. */
  mode?: LayoutMode;
  /** Tiles left out (hidden idle ones). */
  hidden?: ReadonlySet<number>;
  /** The rows layout: the tiles shown large (the selected one and those that need you). */
  large?: readonly number[];
  /** The rows layout: each tile's folder, to group rows by; null when all share one. */
  groups?: readonly string[] | null;
  /** The rows layout keeps this tile's row in view. */
  selected?: number;
  /** The rows layout's first line shown last time: it scrolls only as far as the selection needs,
   * so the rows stay put while the selection moves among those in view. */
  rowsFirst?: number;
}

export function layout(input: LayoutInput): Layout {
  const { cols, rows, count, zoomed = null, mode = 'grid', hidden } = input;
  const status: Rect = { x: 0, y: Math.max(0, rows - 1), width: Math.max(0, cols), height: rows > 0 ? 1 : 0 };
  const area = { width: Math.max(0, cols), height: Math.max(0, rows - 1) };
  if (count <= 0) return { kind: 'grid', tiles: [], columns: 0, rows: 0, status };

  if (zoomed !== null && zoomed >= 0 && zoomed < count) {
    const outer: Rect = { x: 0, y: 0, ...area };
    if (!fits(outer)) return { kind: 'too-small', need: needFor(1, 1), status };
    return { kind: 'grid', tiles: [{ index: zoomed, outer, body: inside(outer) }], columns: 1, rows: 1, status };
  }

  const shown = Array.from({ length: count }, (_, i) => i).filter((i) => !hidden?.has(i));
  if (shown.length === 0) return { kind: 'grid', tiles: [], columns: 0, rows: 0, status };
  if (mode === 'rows') return rowsLayout(input, shown, area, status);
  const grid = gridOf(area, shown, mode === 'auto' ? USEFUL_BODY : MIN_BODY);
  if (grid) return { kind: 'grid', ...grid, status };
  if (mode === 'auto') return rowsLayout(input, shown, area, status);
  return { kind: 'too-small', need: smallestGrowth(cols, rows, shown.length), status };
}

/** The best grid of `shown` tiles whose bodies are all at least `min`, or null. */
function gridOf(area: { width: number; height: number }, shown: readonly number[], min: { cols: number; rows: number }): { tiles: TileRect[]; columns: number; rows: number } | null {
  const count = shown.length;
  let best: { tiles: TileRect[]; columns: number; rows: number; score: number; smallest: number } | null = null;
  for (let columns = 1; columns <= count; columns++) {
    const gridRows = Math.ceil(count / columns);
    // A column count that leaves a whole row empty is the same grid as a smaller one.
    if (gridRows * columns - count >= columns) continue;
    const tiles = arrange(area, count, columns, gridRows).map((tile) => ({ ...tile, index: shown[tile.index] ?? tile.index }));
    if (!tiles.every((tile) => fits(tile.outer, min))) continue;
    const score = Math.min(...tiles.map((tile) => Math.min(tile.body.width / WIDTH_PER_ROW, tile.body.height)));
    const smallest = Math.min(...tiles.map((tile) => tile.body.width * tile.body.height));
    if (!best || score > best.score || (score === best.score && smallest > best.smallest)) {
      best = { tiles, columns, rows: gridRows, score, smallest };
    }
  }
  return best ? { tiles: best.tiles, columns: best.columns, rows: best.rows } : null;
}

/**
 * The rows layout, for more tiles than fit at a useful size: the tiles in `large` (the selected
 * one and those that need you) as a grid on top, every other tile as one compact row below —
 * grouped under a heading per folder when they span several, scrolled to keep the selected row in
 * view when there are more rows than room.
 */
function rowsLayout(input: LayoutInput, shown: readonly number[], area: { width: number; height: number }, status: Rect): Layout {
  const wanted = (input.large ?? []).filter((i) => shown.includes(i));
  // As many large tiles as fit usefully above at least a few rows, most important first.
  const minRows = Math.min(shown.length - 1, 3);
  let large = wanted.slice(0, 6);
  for (; large.length > 0; large = large.slice(0, -1)) {
    const rowCount = shown.length - large.length;
    const rowsHeight = Math.min(rowArea(input, shown, large).length, Math.max(minRows + (rowCount > minRows ? 1 : 0), Math.floor(area.height * 0.55)));
    const top = gridOf({ width: area.width, height: area.height - rowsHeight }, [...large].sort((a, b) => a - b), USEFUL_BODY);
    if (top) return finishRows(input, shown, large, top, area, rowsHeight, status);
  }
  // Nothing is big: the selected tile's screen fills the room above the rows, so the screen is not
  // left blank; the rows keep their order and place as the selection moves.
  const lineCount = rowArea(input, shown, []).length;
  const rowsHeight = Math.min(lineCount, Math.max(minRows + (shown.length > minRows ? 1 : 0), Math.floor(area.height * 0.55)));
  const selected = input.selected;
  if (selected !== undefined && shown.includes(selected)) {
    const outer: Rect = { x: 0, y: 0, width: area.width, height: area.height - rowsHeight };
    if (fits(outer, USEFUL_BODY)) {
      return finishRows(input, shown, [], { tiles: [{ index: selected, kind: 'preview', outer, body: inside(outer) }], columns: 1, rows: 1 }, area, rowsHeight, status);
    }
  }
  return finishRows(input, shown, [], { tiles: [], columns: 0, rows: 0 }, area, area.height, status);
}

type Line = { type: 'row'; index: number } | { type: 'group'; label: string };

/** The lines of the rows area: a heading per folder (when there are several), then its rows. */
function rowArea(input: LayoutInput, shown: readonly number[], large: readonly number[]): Line[] {
  const rest = shown.filter((i) => !large.includes(i));
  const groups = input.groups;
  if (!groups || new Set(rest.map((i) => groups[i])).size <= 1) return rest.map((index) => ({ type: 'row', index }));
  const order: string[] = [];
  for (const i of rest) if (!order.includes(groups[i] ?? '')) order.push(groups[i] ?? '');
  return order.flatMap((label) => [{ type: 'group' as const, label }, ...rest.filter((i) => (groups[i] ?? '') === label).map((index) => ({ type: 'row' as const, index }))]);
}

function finishRows(
  input: LayoutInput,
  shown: readonly number[],
  large: readonly number[],
  top: { tiles: TileRect[]; columns: number; rows: number },
  area: { width: number; height: number },
  rowsHeight: number,
  status: Rect,
): Layout {
  const lines = rowArea(input, shown, large);
  const y0 = area.height - rowsHeight;
  let first = 0;
  let visible = rowsHeight;
  if (lines.length > rowsHeight) {
    // One line says how many rows are not shown; keep the selected row in view, scrolling no
    // further than it needs (and its folder's heading with it when that fits).
    visible = Math.max(1, rowsHeight - 1);
    const at = lines.findIndex((l) => l.type === 'row' && l.index === input.selected);
    first = Math.max(0, Math.min(lines.length - visible, input.rowsFirst ?? 0));
    if (at >= 0 && at < first) first = at > 0 && lines[at - 1]?.type === 'group' ? at - 1 : at;
    else if (at >= first + visible) first = at - visible + 1;
  }
  const window = lines.slice(first, first + visible);
  const rowRects: TileRect[] = [];
  const groups: GroupHeading[] = [];
  window.forEach((line, k) => {
    const y = y0 + k;
    if (line.type === 'group') groups.push({ label: line.label, y });
    else rowRects.push({ index: line.index, kind: 'row', outer: { x: 0, y, width: area.width, height: 1 }, body: rowPreview(area.width, y) });
  });
  const hiddenRows = (from: number, to: number) => lines.slice(from, to).filter((l) => l.type === 'row').length;
  const more = lines.length > rowsHeight ? { above: hiddenRows(0, first), below: hiddenRows(first + visible, lines.length), y: y0 + visible } : undefined;
  const rowOrder = lines.flatMap((l) => (l.type === 'row' ? [l.index] : []));
  return { kind: 'grid', tiles: [...top.tiles, ...rowRects], columns: top.columns, rows: top.rows, status, groups, ...(more ? { more } : {}), rowOrder, rowsFirst: first };
}

/** Where a row shows its screen's last line: after the name, state and source columns. */
export const ROW_LABEL_WIDTH = 58;

/** A last line narrower than this says nothing (`│ro`): the row is its label alone. */
export const MIN_ROW_PREVIEW = 12;

function rowPreview(width: number, y: number): Rect {
  const x = Math.min(width, ROW_LABEL_WIDTH);
  const room = Math.max(0, width - x);
  return { x, y, width: room >= MIN_ROW_PREVIEW ? room : 0, height: 1 };
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

function fits(outer: Rect, min: { cols: number; rows: number } = MIN_BODY): boolean {
  return outer.width - 2 >= min.cols && outer.height - 2 >= min.rows;
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
 * Where a move goes from `from`, following what is drawn: among compact rows, up and down walk
 * the rows in order (scrolling those out of view in), up from the first row reaches the big tile
 * above it; among tiles, the neighbour as the eye sees it. Rows have nothing beside them.
 */
export function moveFrom(tiles: readonly TileRect[], rowOrder: readonly number[] | undefined, from: number, direction: Direction): number | null {
  const at = rowOrder?.indexOf(from) ?? -1;
  if (rowOrder && at >= 0) {
    if (direction === 'down') return rowOrder[at + 1] ?? null;
    if (direction === 'up') return at > 0 ? (rowOrder[at - 1] ?? null) : neighbour(tiles.filter((tile) => tile.kind !== 'row' || tile.index === from), from, 'up');
    return null;
  }
  return neighbour(tiles, from, direction);
}

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
