/**
 * The row-cached Output.get against Ink's own: for any frame it handles, a row Ink builds must be
 * exactly Ink's text — the same escape codes — and a row it composes itself (pieces side by side)
 * must show the same cells on a terminal (xterm, cell by cell: characters, colours, attributes);
 * and it must build only the rows that changed.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import xterm from '@xterm/headless';
import { createElement } from 'react';
import type { GridModel } from '../../src/ui/components/grid-view.js';
import type { HeaderTile } from '../../src/ui/header.js';
import { DEFAULT_ESCAPE_KEY } from '../../src/ui/keymap.js';
import { layout } from '../../src/ui/layout.js';
import { overlayContent, overlayRect } from '../../src/ui/overlay.js';
import { INITIAL_UI } from '../../src/ui/ui-state.js';
import { INK_VERSION, MAX_ROWS, MAX_SHARED_CHARS, inkOriginalGet, inkRowCacheStats, installInkRowCache, sideBySideRow, uninstallInkRowCache } from '../../src/ui/ink-row-cache.js';

// chalk decides on colours when it loads: force them, then load Ink and the chrome.
let ChromeRenderer: typeof import('../../src/ui/chrome-renderer.js').ChromeRenderer;
let GridView: typeof import('../../src/ui/components/grid-view.js').GridView;
type Ink = Awaited<ReturnType<typeof inkOriginalGet>>;
let ink: Ink;
beforeAll(async () => {
  process.env.FORCE_COLOR = '1';
  ({ ChromeRenderer } = await import('../../src/ui/chrome-renderer.js'));
  ({ GridView } = await import('../../src/ui/components/grid-view.js'));
  ink = await inkOriginalGet();
});
afterAll(async () => {
  await installInkRowCache();
});

type Op = { x: number; y: number; text: string; transform: number };

/** What a terminal shows for each line of `lines`: each cell's characters, width, colours and
 * attributes, as one comparable string per cell (trailing default blanks dropped). */
async function shownCells(lines: readonly string[], cols = 200): Promise<string[][]> {
  const term = new xterm.Terminal({ cols, rows: Math.max(1, lines.length), allowProposedApi: true, logLevel: 'off' });
  try {
    const bytes = lines.map((line, y) => `\x1b[${y + 1};1H\x1b[0m\x1b[2K${line}\x1b[0m`).join('');
    await new Promise<void>((resolve) => term.write(bytes, resolve));
    return lines.map((_, y) => {
      const row = term.buffer.active.getLine(y)!;
      const cells: string[] = [];
      for (let x = 0; x < cols; x++) {
        const c = row.getCell(x)!;
        const attributes = [c.isBold(), c.isDim(), c.isItalic(), c.isUnderline(), c.isBlink(), c.isInverse(), c.isInvisible(), c.isStrikethrough(), c.isOverline()].map((on) => (on ? 1 : 0)).join('');
        cells.push(`${c.getChars() || ' '}/${c.getWidth()}/${c.getFgColorMode()}:${c.getFgColor()}/${c.getBgColorMode()}:${c.getBgColor()}/${attributes}`);
      }
      const blank = cells[cols - 1];
      while (cells.length > 0 && cells[cells.length - 1] === blank) cells.pop();
      return cells;
    });
  } finally {
    term.dispose();
  }
}

// Transformers like Ink's own (Text's colours, dim) and one that depends on the line index.
const TRANSFORMERS: ((line: string, index: number) => string)[][] = [
  [],
  [(line) => `\x1b[31m${line}\x1b[39m`],
  [(line) => `\x1b[2m${line}\x1b[22m`, (line) => `\x1b[1m${line}\x1b[22m`],
  [(line, index) => (index % 2 === 0 ? `\x1b[38;5;${index}m${line}\x1b[39m` : line)],
];

const piece = fc.constantFrom('a', 'bc', ' ', '─', '━━', '┃', '漢字', '😀', '❤️', '👨‍👩‍👧', 'é', '\x1b[32m', '\x1b[0m', '\x1b[1;4m', '\x1b[38;2;1;2;3m', '\x1b[39m', '');
const line = fc.array(piece, { maxLength: 8 }).map((parts) => parts.join(''));
const op: fc.Arbitrary<Op> = fc.record({
  x: fc.integer({ min: -3, max: 30 }),
  y: fc.integer({ min: -3, max: 12 }),
  text: fc.array(line, { minLength: 1, maxLength: 4 }).map((lines) => lines.join('\n')),
  transform: fc.integer({ min: 0, max: TRANSFORMERS.length - 1 }),
});

/** The pieces each row of a frame gets, after their transformers, as Ink places them. */
function piecesByRow(height: number, ops: Op[]): [number, string][][] {
  const rows: [number, string][][] = Array.from({ length: height }, () => []);
  for (const o of ops) {
    if (!o.text) continue; // Ink's write keeps no empty text
    let y = o.y;
    for (const [index, line] of o.text.split('\n').entries()) {
      if (y < 0 || y >= height) continue; // Ink moves on only from a line it placed
      rows[y]!.push([o.x, TRANSFORMERS[o.transform]!.reduce((text, transform) => transform(text, index), line)]);
      y++;
    }
  }
  return rows;
}

/** A row as its pieces' own codes say, each written where it goes from no style. */
function asWritten(pieces: readonly [number, string][]): string {
  return pieces.map(([x, text]) => `\x1b[${x + 1}G\x1b[0m${text}`).join('');
}

function frameOf(width: number, height: number, ops: Op[]) {
  const output = new ink.Output({ width, height });
  for (const o of ops) output.write(o.x, o.y, o.text, { transformers: TRANSFORMERS[o.transform]! });
  return output;
}

describe('the row-cached Output.get', () => {
  it('is installed on the Ink this was written against', async () => {
    expect(await installInkRowCache()).toBe(true);
    // Upgrading Ink fails here first: compare output.js with the new version's, then move the pin.
    const entry = createRequire(import.meta.url).resolve('ink');
    const inkPackage = JSON.parse(readFileSync(path.join(path.dirname(entry), '..', 'package.json'), 'utf8')) as { version: string };
    expect(inkPackage.version).toBe(INK_VERSION);
  });

  it("makes Ink's text for every row Ink builds, and the cells its pieces say for every row composed, for any frame of writes, cold and warm", async () => {
    await installInkRowCache();
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 24 }), fc.integer({ min: 0, max: 9 }), fc.array(op, { maxLength: 12 }), async (width, height, ops) => {
        const inks = ink.get.call(frameOf(width, height, ops));
        const cold = frameOf(width, height, ops).get();
        expect(frameOf(width, height, ops).get()).toEqual(cold);
        expect(cold.height).toBe(inks.height);
        const mine = cold.output.split('\n');
        const theirs = inks.output.split('\n');
        for (const [y, pieces] of piecesByRow(height, ops).entries()) {
          if (pieces.length > 0 && sideBySideRow(width, pieces) !== null) expect(await shownCells([mine[y]!]), `row ${y}`).toEqual(await shownCells([asWritten(pieces)]));
          else expect(mine[y], `row ${y}`).toBe(theirs[y]);
        }
      }),
      { numRuns: 400 },
    );
  });

  // Narrow text and chalk's codes, side by side with gaps or touching: what a header row is made of.
  const narrowPiece = fc.constantFrom('a', 'bc', ' ', '─', '━━', '╭ ', '●', '·', '…', '↑', '✓', '\x1b[32m', '\x1b[0m', '\x1b[1;4m', '\x1b[7m', '\x1b[38;2;1;2;3m', '\x1b[48;5;17m', '\x1b[39m', '\x1b[22m', '\x1b[2m', '');
  const narrowLine = fc.array(narrowPiece, { maxLength: 10 }).map((parts) => parts.join(''));
  const sideBySide = fc.array(fc.record({ gap: fc.integer({ min: 0, max: 4 }), text: narrowLine, transform: fc.integer({ min: 0, max: TRANSFORMERS.length - 1 }) }), { minLength: 1, maxLength: 6 });

  it("composes a row of narrow pieces side by side without Ink, and a terminal shows it as Ink's", async () => {
    await installInkRowCache();
    await fc.assert(
      fc.asyncProperty(sideBySide, async (parts) => {
        const ops: Op[] = [];
        let x = 0;
        for (const p of parts) {
          ops.push({ x: x + p.gap, y: 0, text: p.text, transform: p.transform });
          x += p.gap + p.text.replace(/\x1b\[[0-9;]*m/g, '').length;
        }
        const before = inkRowCacheStats();
        const width = x + 2;
        const mine = frameOf(width, 1, ops).get().output;
        const after = inkRowCacheStats();
        // Built now or remembered from an earlier run: composed either way.
        expect(after.rowsComposed - before.rowsComposed).toBe(after.rowsBuilt - before.rowsBuilt);
        const [shown] = await shownCells([mine]);
        const [written] = await shownCells([asWritten(piecesByRow(1, ops)[0]!)]);
        expect(shown).toEqual(written);
        // Ink's own cells too, but for its one slip: after a cell both bold and dim (code 22 ends both).
        const [inks] = await shownCells([ink.get.call(frameOf(width, 1, ops)).output]);
        const boldAndDim = written!.some((cell) => cell.slice(cell.lastIndexOf('/') + 1).startsWith('11'));
        if (!boldAndDim) expect(shown).toEqual(inks);
      }),
      { numRuns: 300 },
    );
  });

  it('leaves to Ink a row whose pieces overlap, run right to left, end past the row, or hold wide, joining or control characters', () => {
    expect(sideBySideRow(10, [[0, 'abc'], [3, 'de']])).toBe('abcde');
    expect(sideBySideRow(10, [[0, 'abc'], [2, 'de']])).toBeNull(); // over the piece before
    expect(sideBySideRow(10, [[5, 'a'], [0, 'b']])).toBeNull();
    expect(sideBySideRow(10, [[-1, 'a']])).toBeNull();
    expect(sideBySideRow(10, [[8, 'abc']])).toBeNull(); // past the row's end
    for (const text of ['漢', '😀', 'é', 'e\u0301', '\t', '\x1b]8;;x\x07a', '\x1b[4:3m', 'a\x1bb']) expect(sideBySideRow(10, [[0, text]]), JSON.stringify(text)).toBeNull();
  });

  it('tells rows apart by where their pieces are, not only by their text', async () => {
    await installInkRowCache();
    for (const text of ['ab', '漢字']) {
      for (const x of [0, 3, 0, 5]) {
        const ops: Op[] = [{ x, y: 1, text, transform: 1 }];
        expect(await shownCells(frameOf(12, 3, ops).get().output.split('\n'))).toEqual(await shownCells(ink.get.call(frameOf(12, 3, ops)).output.split('\n')));
      }
    }
  });

  it('remembers a bounded number of rows, the most recently used', async () => {
    await installInkRowCache();
    const kept: Op[] = [{ x: 0, y: 0, text: 'kept', transform: 1 }];
    for (let i = 0; i < MAX_ROWS + 100; i++) {
      frameOf(20, 2, [...kept, { x: 0, y: 1, text: `row ${i}`, transform: 0 }]).get();
      expect(inkRowCacheStats().rowsHeld).toBeLessThanOrEqual(MAX_ROWS);
    }
    // The row used in every frame was never the least recently used: still remembered.
    const before = inkRowCacheStats();
    frameOf(20, 1, kept).get();
    expect(inkRowCacheStats().rowsBuilt).toBe(before.rowsBuilt);
  });

  it('tokenizes only the piece of a row that is new, and forgets past a bound', async () => {
    await installInkRowCache();
    const row = (age: number): Op[] => [
      // A wide name: Ink builds the row (a narrow one is composed without tokenizing anything).
      { x: 0, y: 0, text: '╭ 1 漢字 ─────', transform: 1 },
      { x: 14, y: 0, text: `● working · ${age}s`, transform: 2 },
    ];
    frameOf(40, 1, row(0)).get();
    const before = inkRowCacheStats();
    // A new row (its age moved) whose other piece was seen: one more line tokenized, not two.
    expect(frameOf(40, 1, row(1)).get()).toEqual(ink.get.call(frameOf(40, 1, row(1))));
    const after = inkRowCacheStats();
    expect(after.rowsBuilt).toBe(before.rowsBuilt + 1);
    expect(after.linesTokenized).toBe(before.linesTokenized + 1);
    // New rows of new text: the shared caches start again before they hold more than the bound.
    const emptied = after.sharedCachesEmptied;
    const text = 'x'.repeat(100);
    for (let i = 0; i * 100 < MAX_SHARED_CHARS * 2; i++) frameOf(120, 1, [{ x: 0, y: 0, text: `${i} 漢 ${text}`, transform: 0 }]).get();
    expect(inkRowCacheStats().sharedCachesEmptied).toBeGreaterThan(emptied);
    // What they hold now came from this loop, lines of over 100 characters each.
    expect(inkRowCacheStats().linesTokenized * 100).toBeLessThanOrEqual(MAX_SHARED_CHARS + 200);
  });

  it("leaves frames with clipping to Ink's own", async () => {
    await installInkRowCache();
    const before = inkRowCacheStats().framesDelegated;
    const output = frameOf(10, 3, [{ x: 0, y: 0, text: 'hello world', transform: 1 }]);
    output.operations.splice(0, 0, { type: 'clip', clip: { x1: 2, x2: 6, y1: undefined, y2: undefined } } as never);
    output.operations.push({ type: 'unclip' } as never);
    const copy = frameOf(10, 3, []);
    copy.operations = [...output.operations];
    expect(output.get()).toEqual(ink.get.call(copy));
    expect(inkRowCacheStats().framesDelegated).toBe(before + 1);
  });
});

const TILES: HeaderTile[] = [
  { id: 1, name: 'api', state: 'working', source: 'hook', sinceMs: 130_000 },
  { id: 2, name: 'web 漢字 😀', state: 'done', source: 'psp', sinceMs: 12_000 },
  { id: 3, name: 'tests', state: 'blocked', kind: 'permission', source: 'psp', sinceMs: 4_000 },
  { id: 4, name: 'docs', state: 'idle', source: 'transcript', sinceMs: 180_000 },
  { id: 5, name: 'build', state: 'failed', source: 'psp', sinceMs: 9_000 },
  { id: 6, name: 'x', state: 'exited', source: 'process', sinceMs: 1_000 },
];

function model(overrides: Partial<GridModel> = {}, tiles = TILES): GridModel {
  const cols = overrides.cols ?? 160;
  const rows = overrides.rows ?? 40;
  return {
    cols,
    rows,
    layout: layout({ cols, rows, count: tiles.length, zoomed: overrides.ui?.zoomed ? overrides.ui.selected : null }),
    tiles,
    ui: INITIAL_UI,
    color: true,
    escapeKey: DEFAULT_ESCAPE_KEY,
    overlay: null,
    note: null,
    hidden: 0,
    ...overrides,
  };
}

describe('the chrome with the row cache', () => {
  it("paints every chrome frame as Ink's own would show, through a sequence of changes", async () => {
    const help = overlayContent({ type: 'help' }, { escapeKey: DEFAULT_ESCAPE_KEY, why: null }, 156);
    const models: GridModel[] = [
      model(),
      model({}, TILES.map((t) => (t.id === 1 ? { ...t, sinceMs: 131_000 } : t))),
      model({ ui: { ...INITIAL_UI, selected: 2 } }),
      model({ ui: { ...INITIAL_UI, mode: 'focus', selected: 3 } }),
      model({ ui: { ...INITIAL_UI, zoomed: true, selected: 1 } }),
      model({ color: false }),
      model({ overlay: { content: help, rect: overlayRect(help, 160, 40) } }),
      model({ note: 'a note for the status line' }),
      model({ cols: 100, rows: 30 }),
      model({ cols: 30, rows: 6 }),
      model(),
    ];
    const cached: string[][] = [];
    await installInkRowCache();
    const chrome = new ChromeRenderer(models[0]!.cols, models[0]!.rows, createElement(GridView, { model: models[0]! }));
    for (const m of models) cached.push(chrome.render(createElement(GridView, { model: m }), m.cols, m.rows));
    uninstallInkRowCache();
    try {
      for (const [i, m] of models.entries()) {
        const inks = chrome.render(createElement(GridView, { model: m }), m.cols, m.rows);
        expect(cached[i], `model ${i}`).toHaveLength(inks.length);
        expect(await shownCells(cached[i]!, m.cols), `model ${i}`).toEqual(await shownCells(inks, m.cols));
      }
    } finally {
      chrome.unmount();
      await installInkRowCache();
    }
  });

  it('shows, kept across a sequence of changes, what a chrome rendered afresh shows for each (no tile left drawn as it was)', async () => {
    await installInkRowCache();
    const many: HeaderTile[] = Array.from({ length: 24 }, (_, i) => ({ id: i + 1, name: `t${i + 1}`, state: i % 2 ? 'working' : 'idle', source: 'hook', sinceMs: 5_000 + i }));
    const rowsModel = (over: Partial<GridModel>, tiles: HeaderTile[]) =>
      model({ cols: 100, rows: 24, ...over, layout: layout({ cols: 100, rows: 24, count: tiles.length, mode: 'rows', selected: over.ui?.selected ?? 0 }) }, tiles);
    const tick = (id: number, ms: number, more: Partial<HeaderTile> = {}) => TILES.map((t) => (t.id === id ? { ...t, sinceMs: ms, ...more } : t));
    const models: GridModel[] = [
      model(),
      model({}, tick(1, 131_000)),
      model({}, tick(5, 10_000)),
      model({}, tick(5, 10_000, { state: 'working' })),
      model({}, tick(4, 200_000)), // idle: its age does not show
      model({ ui: { ...INITIAL_UI, selected: 2 } }),
      model({ ui: { ...INITIAL_UI, mode: 'focus', selected: 2 } }),
      model({ color: false }),
      model({}, tick(2, 12_000, { name: 'web2' })),
      model({}, tick(3, 4_000, { unseen: true })),
      model({ cols: 120, rows: 40 }),
      model({ cols: 120, rows: 30 }),
      model(),
      // Tiles drawn as one-line rows (tiles 10 to 20 show, and tile 20's preview).
      rowsModel({ ui: { ...INITIAL_UI, selected: 19 } }, many),
      rowsModel({ ui: { ...INITIAL_UI, selected: 19 } }, many.map((t) => (t.id === 15 ? { ...t, state: 'blocked' } : t))), // its words and colour only
      rowsModel({ ui: { ...INITIAL_UI, selected: 19 } }, many.map((t) => (t.id === 17 ? { ...t, unseen: true } : t))),
      rowsModel({ ui: { ...INITIAL_UI, selected: 18 } }, many),
      rowsModel({ color: false, ui: { ...INITIAL_UI, selected: 18 } }, many),
    ];
    const last = models.at(-1)!.layout;
    expect(last.kind === 'grid' && last.tiles.some((t) => t.kind === 'row')).toBe(true);
    const kept = new ChromeRenderer(models[0]!.cols, models[0]!.rows, createElement(GridView, { model: models[0]! }));
    try {
      for (const [i, m] of models.entries()) {
        const shown = kept.render(createElement(GridView, { model: m }), m.cols, m.rows);
        const fresh = new ChromeRenderer(m.cols, m.rows, createElement(GridView, { model: m }));
        try {
          expect(shown, `model ${i}`).toEqual(fresh.render(createElement(GridView, { model: m }), m.cols, m.rows));
        } finally {
          fresh.unmount();
        }
      }
    } finally {
      kept.unmount();
    }
  });

  it('builds only the rows whose pieces changed', async () => {
    await installInkRowCache();
    const first = model();
    const chrome = new ChromeRenderer(first.cols, first.rows, createElement(GridView, { model: first }));
    try {
      chrome.render(createElement(GridView, { model: first }), first.cols, first.rows);
      const before = inkRowCacheStats();
      // One tile's age ticks: its header row changes, nothing else.
      const next = model({}, TILES.map((t) => (t.id === 1 ? { ...t, sinceMs: 190_000 } : t)));
      chrome.render(createElement(GridView, { model: next }), next.cols, next.rows);
      const after = inkRowCacheStats();
      expect(after.rowsBuilt - before.rowsBuilt).toBe(1);
      expect(after.rowsReused - before.rowsReused).toBeGreaterThan(20);
      // That row shares tile 2's wide name: Ink builds it. A row of narrow headers is composed.
      expect(after.rowsComposed - before.rowsComposed).toBe(0);
      const later = model({}, TILES.map((t) => (t.id === 5 ? { ...t, sinceMs: 70_000 } : t)));
      chrome.render(createElement(GridView, { model: later }), later.cols, later.rows);
      const last = inkRowCacheStats();
      expect(last.rowsBuilt - after.rowsBuilt).toBe(1);
      expect(last.rowsComposed - after.rowsComposed).toBe(1);
    } finally {
      chrome.unmount();
    }
  });

  it('renders the mounted element once for the first frame', async () => {
    const first = model();
    const element = createElement(GridView, { model: first });
    const chrome = new ChromeRenderer(first.cols, first.rows, element);
    try {
      expect(chrome.frames).toBe(1);
      const lines = chrome.render(element, first.cols, first.rows);
      expect(chrome.frames).toBe(1);
      expect(lines).toHaveLength(first.rows);
      expect(lines.join('\n')).toContain('1 api');
    } finally {
      chrome.unmount();
    }
  });
});
