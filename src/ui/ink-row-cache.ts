/**
 * A faster `Output.get` for Ink 6.8.0, the step that turns a rendered tree into the frame's text.
 *
 * Ink's own builds an object for every cell of the frame and tokenizes every piece of text on
 * every render, whatever changed: 9 ms for the chrome of a 240×65 grid, so a header that changes
 * costs as much as a whole new screen. This one gathers, for every terminal row, the pieces of text
 * that land on it (position and text, after Ink's transformers), and looks the row up by exactly
 * those pieces in a cache that lives across frames. Only a row whose pieces changed is built, and
 * it is built by Ink's own `get` on a one-row Output holding just those pieces — so every row is
 * what Ink would have made of it, by construction.
 *
 * Installed only on the exact Ink version it was written against, and only for frames without
 * clipping (`overflow: hidden`), which the chrome does not use; everything else goes to Ink's own.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { displayWidth, narrowColumns } from './display-width.js';

/** The Ink version whose `Output` this mirrors (node_modules/ink/build/output.js). */
export const INK_VERSION = '6.8.0';

/** Rows remembered, the least recently used forgotten first: a frame is at most a few hundred
 * rows, and a remembered row (its key and its text) is about 2 KB. */
export const MAX_ROWS = 1024;

/** Characters of text a row builder may have tokenized into the caches its rows share before
 * they start again: Ink keeps an object per character (about 80 bytes), so at most ~5 MB. */
export const MAX_SHARED_CHARS = 65_536;

type Transformer = (line: string, index: number) => string;

type Operation =
  | { type: 'write'; x: number; y: number; text: string; transformers: Transformer[] }
  | { type: 'clip'; clip: unknown }
  | { type: 'unclip' };

/** Ink's per-Output memory of what it measured and tokenized (output.js, `OutputCaches`): maps
 * keyed by text. */
interface InkOutputCaches {
  getStringWidth(text: string): number;
  widths: Map<string, number>;
  blockWidths: Map<string, number>;
  styledChars: Map<string, unknown[]>;
}

/** The parts of Ink's Output class this module uses. */
interface InkOutput {
  width: number;
  height: number;
  operations: Operation[];
  caches: InkOutputCaches;
  write(x: number, y: number, text: string, options: { transformers: Transformer[] }): void;
  get(): { output: string; height: number };
}

type OutputClass = { new (options: { width: number; height: number }): InkOutput; prototype: InkOutput };

export interface RowCacheStats {
  rowsBuilt: number;
  /** Of the rows built, those composed side by side (`sideBySideRow`) rather than by Ink's `get`. */
  rowsComposed: number;
  rowsReused: number;
  framesDelegated: number;
  /** Times the row builders' shared caches started again (MAX_SHARED_CHARS). */
  sharedCachesEmptied: number;
  /** Rows remembered now (at most MAX_ROWS). */
  rowsHeld: number;
  /** Lines of text whose characters the shared caches hold now. */
  linesTokenized: number;
}

const stats: Omit<RowCacheStats, 'rowsHeld' | 'linesTokenized'> = { rowsBuilt: 0, rowsComposed: 0, rowsReused: 0, framesDelegated: 0, sharedCachesEmptied: 0 };
/** Row key → row text, in least-recently-used order (a Map iterates in insertion order). */
const rows = new Map<string, string>();
/** The caches the one-row Outputs share (Ink's own class, taken from an Output), and how many
 * characters have been written through them since they were last emptied. */
let shared: { caches: InkOutputCaches; chars: number } | null = null;
let installed: { Output: OutputClass; original: InkOutput['get'] } | null = null;

/** Ink's installed version and its Output class, loaded from the module Ink itself renders with:
 * in the bundled CLI, the bundle's copy its entry hands over (scripts/bundle.mjs); unbundled,
 * Ink's own file. */
async function loadInkOutput(): Promise<{ version: string; Output: OutputClass }> {
  const bundled = (globalThis as Record<symbol, unknown>)[Symbol.for('belltower.bundled-ink-output')] as { version?: unknown; Output?: unknown } | undefined;
  if (bundled && typeof bundled.version === 'string' && typeof bundled.Output === 'function') return { version: bundled.version, Output: bundled.Output as OutputClass };
  const require = createRequire(import.meta.url);
  const entry = require.resolve('ink'); // …/ink/build/index.js
  const root = path.dirname(path.dirname(entry));
  const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
  const module = (await import(pathToFileURL(path.join(path.dirname(entry), 'output.js')).href)) as { default: OutputClass };
  return { version, Output: module.default };
}

/**
 * Replace Ink's `Output.prototype.get` with the row-cached one. Returns false (and changes
 * nothing) on any other Ink version than INK_VERSION. Idempotent.
 */
export async function installInkRowCache(): Promise<boolean> {
  if (installed) return true;
  const { version, Output } = await loadInkOutput();
  if (version !== INK_VERSION || typeof Output?.prototype?.get !== 'function') return false;
  const original = Output.prototype.get;
  installed = { Output, original };
  Output.prototype.get = function get(this: InkOutput) {
    return rowCachedGet(this, Output, original);
  };
  return true;
}

/** Put Ink's own `get` back (for tests that compare the two). */
export function uninstallInkRowCache(): void {
  if (!installed) return;
  installed.Output.prototype.get = installed.original;
  installed = null;
}

/** Counters since the process started (benchmarks and tests). */
export function inkRowCacheStats(): Readonly<RowCacheStats> {
  return { ...stats, rowsHeld: rows.size, linesTokenized: shared?.caches.styledChars.size ?? 0 };
}

/** Ink's own `get`, whether or not the cache is installed (tests compare against it). */
export async function inkOriginalGet(): Promise<{ Output: OutputClass; get: InkOutput['get'] }> {
  if (installed) return { Output: installed.Output, get: installed.original };
  const { Output } = await loadInkOutput();
  return { Output, get: Output.prototype.get };
}

function rowCachedGet(output: InkOutput, Output: OutputClass, original: InkOutput['get']): { output: string; height: number } {
  const { width, height, operations } = output;
  if (operations.some((op) => op.type !== 'write')) {
    stats.framesDelegated++;
    return original.call(output);
  }
  // The pieces that land on each row, in the order Ink would place them. This mirrors Ink's loop
  // (output.js, `get`) without clipping: a text's lines go on consecutive rows from its `y`, and
  // once a line finds no row there, no later line of that text is placed (Ink stops advancing).
  const pieces: string[] = new Array<string>(height).fill('');
  const placed: [number, string][][] = Array.from({ length: height }, () => []);
  for (const op of operations) {
    if (op.type !== 'write') continue;
    const lines = op.text.split('\n');
    let y = op.y;
    for (let index = 0; index < lines.length; index++) {
      if (!isRow(y, height)) continue;
      let line = lines[index] as string;
      for (const transformer of op.transformers) line = transformer(line, index);
      // Ink places a transformed line's characters on one row, newlines included; a one-row
      // Output would split it. No transformer of ours makes one: leave such frames to Ink.
      if (line.includes('\n')) {
        stats.framesDelegated++;
        return original.call(output);
      }
      placed[y]!.push([op.x, line]);
      // Length-prefixed, so no text can make two different rows share a key.
      pieces[y] += `${op.x},${line.length},${line}`;
      y++;
    }
  }

  const out: string[] = new Array<string>(height);
  for (let y = 0; y < height; y++) {
    const onRow = placed[y]!;
    if (onRow.length === 0) {
      out[y] = ''; // a row of blank cells, trimmed
      continue;
    }
    const key = `${width}|${pieces[y]}`;
    let row = rows.get(key);
    if (row === undefined) {
      const composed = sideBySideRow(width, onRow);
      if (composed !== null) stats.rowsComposed++;
      row = composed ?? buildRow(width, onRow, Output, original);
      stats.rowsBuilt++;
    } else {
      rows.delete(key); // to the back of the line: recently used
      stats.rowsReused++;
    }
    rows.set(key, row);
    if (rows.size > MAX_ROWS) rows.delete(rows.keys().next().value as string);
    out[y] = row;
  }
  return { output: out.join('\n'), height };
}

/**
 * A row whose pieces lie side by side, left to right, none over another and all inside the row,
 * each only one-column characters and colours (a grid's header row: the frame lines, names, state
 * glyphs and ages are all such text), composed without Ink: each piece as it is, the gaps between
 * them as spaces, and a reset after a piece with colours, so the styles each piece leaves open
 * end where its cells end, as in Ink's cells. The text is not Ink's (Ink writes the codes again,
 * cell by cell) and a terminal shows what each piece's codes say — which is Ink's cells, but for
 * one slip of Ink's: after a cell both bold and dim, a dim cell loses its dim (Ink ends the bold
 * with code 22, which ends both). Null for any other row: Ink builds it. Ink's way for this row is
 * to tokenize every piece into an object per character and write them back: 40 % of a render
 * whose headers' ages moved (docs/performance.md).
 */
export function sideBySideRow(width: number, onRow: readonly (readonly [number, string])[]): string | null {
  let out = '';
  let column = 0;
  for (const [x, line] of onRow) {
    if (!Number.isInteger(x) || x < column) return null;
    const columns = narrowColumns(line);
    // Past the row's width Ink's cells are an array with holes it closes up: left to Ink.
    if (columns === null || x + columns > width) return null;
    out += ' '.repeat(x - column) + line;
    if (columns !== line.length) out += '\x1b[0m';
    column = x + columns;
  }
  return out.trimEnd(); // as Ink trims its rows: only uncoloured spaces can end `out`
}

/**
 * One row, by Ink's own `get`, from pieces already transformed. The rows share Ink's caches: a
 * row that is new because one piece changed (a header's age) tokenizes and measures only that
 * piece; the others are known from earlier rows. Kept without a bound, Ink's token cache would
 * hold an object per character of every line it ever saw: it starts again past MAX_SHARED_CHARS.
 */
function buildRow(width: number, onRow: [number, string][], Output: OutputClass, original: InkOutput['get']): string {
  const one = new Output({ width, height: 1 });
  if (shared === null || shared.chars > MAX_SHARED_CHARS) {
    stats.sharedCachesEmptied += shared === null ? 0 : 1;
    shared = { caches: one.caches, chars: 0 };
    // Ink measures each character it places: the chrome's measure gives string-width's numbers
    // without running it on narrow text (display-width.ts).
    shared.caches.getStringWidth = displayWidth;
  }
  one.caches = shared.caches;
  for (const [x, line] of onRow) {
    one.write(x, 0, line, { transformers: [] });
    shared.chars += line.length;
  }
  return original.call(one).output;
}

/** Whether Ink's frame has a row `y` (its rows are an array indexed 0…height-1). */
function isRow(y: number, height: number): boolean {
  return Number.isInteger(y) && y >= 0 && y < height;
}
