import { describe, expect, it } from 'vitest';
import { layout, MIN_BODY, moveFrom, neighbour, split } from '../../src/ui/layout.js';
import type { Layout, Rect } from '../../src/ui/layout.js';

function grid(l: Layout) {
  if (l.kind !== 'grid') throw new Error(`expected a grid, got ${l.kind}`);
  return l;
}

/** Every cell of the area above the status line belongs to exactly one tile. */
function coverage(rects: Rect[], cols: number, rows: number): number[] {
  const cells = new Array<number>(cols * rows).fill(0);
  for (const r of rects) for (let y = r.y; y < r.y + r.height; y++) for (let x = r.x; x < r.x + r.width; x++) cells[y * cols + x]! += 1;
  return cells;
}

describe('layout', () => {
  it('puts four tiles in a 2×2 grid that fills the terminal above the status line', () => {
    const l = grid(layout({ cols: 120, rows: 41, count: 4 }));
    expect([l.columns, l.rows]).toEqual([2, 2]);
    expect(l.tiles.map((t) => t.outer)).toEqual([
      { x: 0, y: 0, width: 60, height: 20 },
      { x: 60, y: 0, width: 60, height: 20 },
      { x: 0, y: 20, width: 60, height: 20 },
      { x: 60, y: 20, width: 60, height: 20 },
    ]);
    expect(l.tiles[0]!.body).toEqual({ x: 1, y: 1, width: 58, height: 18 });
    expect(l.status).toEqual({ x: 0, y: 40, width: 120, height: 1 });
  });

  it('puts two tiles side by side on a wide terminal, stacked on a tall one', () => {
    expect(grid(layout({ cols: 200, rows: 50, count: 2 })).columns).toBe(2);
    expect(grid(layout({ cols: 80, rows: 100, count: 2 })).columns).toBe(1);
  });

  it('stretches a short last row across the whole width', () => {
    const l = grid(layout({ cols: 100, rows: 31, count: 3 }));
    expect([l.columns, l.rows]).toEqual([2, 2]);
    expect(l.tiles[2]!.outer).toEqual({ x: 0, y: 15, width: 100, height: 15 });
  });

  it('covers every cell exactly once for any count, odd sizes included', () => {
    for (const [cols, rows] of [[80, 24], [121, 43], [240, 65], [199, 57]] as const) {
      for (let count = 1; count <= 12; count++) {
        const l = layout({ cols, rows, count });
        if (l.kind !== 'grid') continue;
        expect(l.tiles.map((t) => t.index)).toEqual(Array.from({ length: count }, (_, i) => i));
        expect(new Set(coverage(l.tiles.map((t) => t.outer), cols, rows - 1))).toEqual(new Set([1]));
      }
    }
  });

  it('says the terminal is too small, and how large it must be, instead of drawing garbage', () => {
    const l = layout({ cols: 40, rows: 10, count: 4 });
    expect(l.kind).toBe('too-small');
    if (l.kind !== 'too-small') return;
    // 2×2 tiles of the minimum body need 44×11: the smallest growth from 40×10.
    expect(l.need).toEqual({ cols: 44, rows: 11 });
    expect(layout({ cols: 44, rows: 11, count: 4 }).kind).toBe('grid');
    expect(layout({ cols: 43, rows: 11, count: 4 }).kind).toBe('too-small');
    // Every body it draws is at least the minimum.
    for (const t of grid(layout({ cols: 44, rows: 11, count: 2 })).tiles) {
      expect(t.body.width).toBeGreaterThanOrEqual(MIN_BODY.cols);
      expect(t.body.height).toBeGreaterThanOrEqual(MIN_BODY.rows);
    }
  });

  it('zooms one tile over the whole grid area', () => {
    const l = grid(layout({ cols: 100, rows: 30, count: 6, zoomed: 4 }));
    expect(l.tiles).toEqual([{ index: 4, outer: { x: 0, y: 0, width: 100, height: 29 }, body: { x: 1, y: 1, width: 98, height: 27 } }]);
  });

  it('splits evenly, larger parts first', () => {
    expect(split(10, 3)).toEqual([4, 3, 3]);
    expect(split(9, 3)).toEqual([3, 3, 3]);
  });
});

describe('neighbour', () => {
  // 2×2 plus a stretched fifth: [0 1] [2 3] [4 4]
  const tiles = grid(layout({ cols: 100, rows: 46, count: 5 })).tiles;

  it('moves by direction as the eye sees the grid', () => {
    expect(grid(layout({ cols: 100, rows: 46, count: 5 })).columns).toBe(2);
    expect(neighbour(tiles, 0, 'right')).toBe(1);
    expect(neighbour(tiles, 1, 'left')).toBe(0);
    expect(neighbour(tiles, 0, 'down')).toBe(2);
    expect(neighbour(tiles, 3, 'up')).toBe(1);
    expect(neighbour(tiles, 3, 'down')).toBe(4);
    expect(neighbour(tiles, 2, 'down')).toBe(4);
  });

  it('stays put at an edge', () => {
    expect(neighbour(tiles, 0, 'left')).toBeNull();
    expect(neighbour(tiles, 0, 'up')).toBeNull();
    expect(neighbour(tiles, 4, 'down')).toBeNull();
  });
});

describe('layout: many tiles', () => {
  it('auto keeps the grid while every tile is readable (40×8 or more)', () => {
    const l = grid(layout({ cols: 200, rows: 50, count: 6, mode: 'auto' }));
    expect(l.tiles.every((t) => t.kind !== 'row')).toBe(true);
    expect(l.tiles.every((t) => t.body.width >= 40 && t.body.height >= 8)).toBe(true);
    // Two tiles in 80×24 stack rather than fall below 40 columns each.
    expect(grid(layout({ cols: 80, rows: 24, count: 2, mode: 'auto' })).columns).toBe(1);
  });

  it('at twenty tiles in 120×40, shows the selected and those that need you large, every other as a row', () => {
    const l = grid(layout({ cols: 120, rows: 40, count: 20, mode: 'auto', large: [7, 2, 15], selected: 7 }));
    const big = l.tiles.filter((t) => t.kind !== 'row');
    const rows = l.tiles.filter((t) => t.kind === 'row');
    expect(big.map((t) => t.index).sort((a, b) => a - b)).toEqual([2, 7, 15]);
    expect(big.every((t) => t.body.width >= 40 && t.body.height >= 8)).toBe(true);
    // Every tile is somewhere, once.
    expect([...l.tiles.map((t) => t.index)].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(rows).toHaveLength(17);
    expect(new Set(rows.map((r) => r.outer.y)).size).toBe(17);
    expect(rows.every((r) => r.outer.y < 39 && r.outer.height === 1)).toBe(true);
    expect(l.more).toBeUndefined();
  });

  it('groups rows under a heading per folder when tiles span several', () => {
    const groups = Array.from({ length: 10 }, (_, i) => (i < 4 ? 'api' : i < 7 ? 'web' : 'docs'));
    const l = grid(layout({ cols: 120, rows: 40, count: 10, mode: 'rows', large: [0], groups }));
    expect(l.groups?.map((g) => g.label)).toEqual(['api', 'web', 'docs']);
    const rowsOf = (label: string) => {
      const heading = l.groups!.find((g) => g.label === label)!;
      return l.tiles.filter((t) => t.kind === 'row' && t.outer.y > heading.y);
    };
    expect(rowsOf('docs').map((t) => t.index)).toEqual([7, 8, 9]);
  });

  it('scrolls a long list of rows to keep the selected one in view, and says how many are hidden', () => {
    const l = grid(layout({ cols: 100, rows: 20, count: 60, mode: 'rows', large: [40], selected: 40 }));
    const rows = l.tiles.filter((t) => t.kind === 'row');
    expect(l.more).toBeDefined();
    const big = l.tiles.filter((t) => t.kind !== 'row').length;
    expect(l.more!.above + l.more!.below + rows.length + big).toBe(60);
    expect(l.tiles.some((t) => t.index === 40)).toBe(true);
    const l2 = grid(layout({ cols: 100, rows: 20, count: 60, mode: 'rows', large: [], selected: 55 }));
    expect(l2.tiles.some((t) => t.index === 55)).toBe(true);
  });

  it('leaves hidden tiles out', () => {
    const l = grid(layout({ cols: 120, rows: 40, count: 4, hidden: new Set([1, 2]) }));
    expect(l.tiles.map((t) => t.index)).toEqual([0, 3]);
  });
});

describe('moving through the rows layout', () => {
  // Twenty tiles at 80×24: two need you (large), the rest are rows, more than fit.
  const at = (selected: number, rowsFirst?: number) => grid(layout({ cols: 80, rows: 24, count: 20, mode: 'auto', large: [4, 11], selected, ...(rowsFirst !== undefined ? { rowsFirst } : {}) }));

  it('walks down every row in drawn order, those scrolled out of view included, and back up to the big tiles', () => {
    let l = at(0);
    const big = l.tiles.filter((t) => t.kind !== 'row').map((t) => t.index);
    expect(big.length).toBeGreaterThan(0);
    expect(l.rowOrder).toHaveLength(20 - big.length);
    const visited: number[] = [];
    let selected = l.rowOrder![0]!;
    for (;;) {
      visited.push(selected);
      const next = moveFrom(l.tiles, l.rowOrder, selected, 'down');
      if (next === null) break;
      selected = next;
      l = at(selected, l.rowsFirst);
      // The selected row is always drawn.
      expect(l.tiles.some((t) => t.index === selected && t.kind === 'row')).toBe(true);
    }
    expect(visited).toEqual(l.rowOrder);
    // Back up, row by row, and from the first row into the big tile above it.
    for (let i = visited.length - 1; i > 0; i--) {
      selected = moveFrom(l.tiles, l.rowOrder, selected, 'up')!;
      l = at(selected, l.rowsFirst);
    }
    expect(selected).toBe(visited[0]);
    expect(big).toContain(moveFrom(l.tiles, l.rowOrder, selected, 'up'));
    // A row has nothing beside it.
    expect(moveFrom(l.tiles, l.rowOrder, selected, 'right')).toBeNull();
  });

  it('scrolls no further than the selection needs: moving among rows in view moves no row', () => {
    const first = at(0);
    const second = at(first.rowOrder![1]!, first.rowsFirst);
    const ys = (l: ReturnType<typeof at>) => l.tiles.filter((t) => t.kind === 'row').map((t) => `${t.index}@${t.outer.y}`);
    expect(ys(second)).toEqual(ys(first));
  });

  it('goes down from a big tile to the first row drawn under it', () => {
    const l = at(4);
    const down = moveFrom(l.tiles, l.rowOrder, 4, 'down');
    expect(l.rowOrder).toContain(down);
  });
});

describe('the rows layout with nothing big', () => {
  it('previews the selected tile above the rows, which keep their order and place as the selection moves', () => {
    const at = (selected: number) => grid(layout({ cols: 120, rows: 40, count: 20, mode: 'auto', large: [], selected }));
    const first = at(0);
    const preview = first.tiles.filter((t) => t.kind === 'preview');
    expect(preview.map((t) => t.index)).toEqual([0]);
    expect(preview[0]!.body.width >= 40 && preview[0]!.body.height >= 8).toBe(true);
    // Every tile keeps its row, the previewed one too.
    expect(first.rowOrder).toEqual(Array.from({ length: 20 }, (_, i) => i));
    const rows = (l: ReturnType<typeof at>) => l.tiles.filter((t) => t.kind === 'row').map((t) => `${t.index}@${t.outer.y}`);
    expect(rows(at(5))).toEqual(rows(first));
    expect(at(5).tiles.find((t) => t.kind === 'preview')?.index).toBe(5);
    // No room for a useful preview: rows only.
    expect(grid(layout({ cols: 80, rows: 14, count: 20, mode: 'rows', large: [], selected: 0 })).tiles.some((t) => t.kind === 'preview')).toBe(false);
  });
});
