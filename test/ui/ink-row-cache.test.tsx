/**
 * The row-cached Output.get against Ink's own: for any frame it handles, the text must be exactly
 * Ink's — the same rows, the same escape codes — and it must build only the rows that changed.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createElement } from 'react';
import type { GridModel } from '../../src/ui/components/grid-view.js';
import type { HeaderTile } from '../../src/ui/header.js';
import { DEFAULT_ESCAPE_KEY } from '../../src/ui/keymap.js';
import { layout } from '../../src/ui/layout.js';
import { overlayContent, overlayRect } from '../../src/ui/overlay.js';
import { INITIAL_UI } from '../../src/ui/ui-state.js';
import { INK_VERSION, MAX_ROWS, MAX_SHARED_CHARS, inkOriginalGet, inkRowCacheStats, installInkRowCache, uninstallInkRowCache } from '../../src/ui/ink-row-cache.js';

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

  it("makes exactly Ink's text for any frame of writes, from a cold and from a warm cache", async () => {
    await installInkRowCache();
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 24 }), fc.integer({ min: 0, max: 9 }), fc.array(op, { maxLength: 12 }), (width, height, ops) => {
        const expected = ink.get.call(frameOf(width, height, ops));
        expect(frameOf(width, height, ops).get()).toEqual(expected);
        expect(frameOf(width, height, ops).get()).toEqual(expected);
      }),
      { numRuns: 400 },
    );
  });

  it('tells rows apart by where their pieces are, not only by their text', async () => {
    await installInkRowCache();
    for (const x of [0, 3, 0, 5]) {
      const ops: Op[] = [{ x, y: 1, text: 'ab', transform: 1 }];
      expect(frameOf(12, 3, ops).get()).toEqual(ink.get.call(frameOf(12, 3, ops)));
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
      { x: 0, y: 0, text: '╭ 1 api ──────', transform: 1 },
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
    for (let i = 0; i * 100 < MAX_SHARED_CHARS * 2; i++) frameOf(120, 1, [{ x: 0, y: 0, text: `${i} ${text}`, transform: 0 }]).get();
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
  it("paints every chrome frame as Ink's own would, through a sequence of changes", async () => {
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
        expect(chrome.render(createElement(GridView, { model: m }), m.cols, m.rows), `model ${i}`).toEqual(cached[i]);
      }
    } finally {
      chrome.unmount();
      await installInkRowCache();
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
