/**
 * The body writer: owns the tile body rectangles of the user's terminal and nothing else. It
 * paints each tile's screen into its rectangle from the headless terminal's own cells, by absolute
 * cursor position, one row at a time, and only the rows that changed since it last painted them —
 * or that something else overwrote (the chrome writer rewrote that terminal line).
 *
 * It returns bytes and writes nothing itself: the frame writer decides when they go out.
 */
import type { ReadOptions } from '../session/row-reader.js';
import { PLAIN_STYLE } from '../session/styled-row.js';
import type { StyledRow, StyledRun } from '../session/styled-row.js';
import type { ColorDepth } from './color-depth.js';
import type { Rect } from './layout.js';
import { blankRow, encodeRow } from './row-encoder.js';
import { keptWords, sameWords } from '../session/row-words.js';

/** What the writer needs of a tile's screen (Screen implements it). */
export interface PaintableScreen {
  readonly cols: number;
  readonly rows: number;
  /** Moves whenever a row may have changed: an unchanged number means nothing to read. */
  readonly generation: number;
  styledRow(y: number, options?: ReadOptions): StyledRow;
  /** Row `y` as the screen's own words (session/row-words.ts): a row whose words equal those
   * kept from its last paint is not read again. */
  rowWords?(y: number): Uint32Array | undefined;
}

export interface Body {
  /** Stable per tile (its id). */
  readonly key: number;
  readonly rect: Rect;
  readonly screen: PaintableScreen;
  /** Painted over the overlays (a peek shows a tile's screen inside one). */
  readonly above?: boolean;
}

export interface PaintRequest {
  readonly bodies: readonly Body[];
  /** Terminal lines (0-based y) whose body segments must be repainted whatever the cache says. */
  readonly forcedLines?: ReadonlySet<number> | 'all';
  /** Rectangles painted by someone else (an overlay): never paint into them. */
  readonly occluded?: readonly Rect[];
}

interface Cached {
  rect: Rect;
  /** The screen painted (a restarted tile has a new one, whose counter starts again). */
  screen: PaintableScreen;
  generation: number;
  /** The encoded row last written at each body row; undefined when it must be written again. */
  rows: (string | undefined)[];
  /** A copy of the screen's words for each row last encoded, where they say everything of it. */
  words: (Uint32Array | undefined)[];
}

const READ: ReadOptions = { isolateClusters: true };

export class BodyWriter {
  private readonly cache = new Map<number, Cached>();

  constructor(private depth: ColorDepth) {}

  /** The bytes that bring every body up to date (empty when nothing visible changed). */
  paint({ bodies, forcedLines, occluded = [] }: PaintRequest): string {
    let out = '';
    const keep = new Set<number>();
    for (const body of bodies) {
      keep.add(body.key);
      out += this.paintBody(body, forcedLines, body.above ? [] : occluded);
    }
    for (const key of this.cache.keys()) if (!keep.has(key)) this.cache.delete(key);
    return out;
  }

  /** Forget what was painted (the screen was cleared): the next paint writes every row. */
  reset(depth?: ColorDepth): void {
    if (depth) this.depth = depth;
    this.cache.clear();
  }

  private paintBody({ key, rect, screen }: Body, forced: PaintRequest['forcedLines'], occluded: readonly Rect[]): string {
    let cached = this.cache.get(key);
    if (!cached || !sameRect(cached.rect, rect) || cached.screen !== screen) {
      cached = { rect, screen, generation: -1, rows: new Array<string | undefined>(rect.height).fill(undefined), words: [] };
      this.cache.set(key, cached);
    }
    const generation = screen.generation;
    const screenMoved = generation !== cached.generation;
    const anyForced = forced === 'all' || (forced !== undefined && linesMeet(forced, rect));
    const anyOccluded = occluded.some((o) => overlaps(o, rect));
    const anyMissing = cached.rows.includes(undefined);
    if (!screenMoved && !anyForced && !anyOccluded && !anyMissing) return '';
    cached.generation = generation;

    let out = '';
    for (let y = 0; y < rect.height; y++) {
      const line = rect.y + y;
      const covers = occluded.filter((o) => line >= o.y && line < o.y + o.height && o.x < rect.x + rect.width && o.x + o.width > rect.x);
      if (covers.length > 0) {
        out += this.paintAround(rect, line, y, screen, covers);
        cached.rows[y] = undefined; // repaint in full once the overlay is gone
        continue;
      }
      const isForced = forced === 'all' || (forced?.has(line) ?? false);
      if (!screenMoved && !isForced && cached.rows[y] !== undefined) continue;
      const words = y < screen.rows ? screen.rowWords?.(y) : undefined;
      const before = cached.words[y];
      if (!isForced && cached.rows[y] !== undefined && words && before && sameWords(words, before)) continue;
      cached.words[y] = keptWords(words);
      const encoded = this.encode(screen, y, rect);
      if (!isForced && encoded === cached.rows[y]) continue;
      cached.rows[y] = encoded;
      out += `\x1b[${line + 1};${rect.x + 1}H${encoded}`;
    }
    return out;
  }

  private encode(screen: PaintableScreen, y: number, rect: Rect): string {
    if (y >= screen.rows) return blankRow(rect.width);
    return encodeRow(fit(screen.styledRow(y, READ), rect.width), rect.x, this.depth);
  }

  /** A row partly under an overlay: paint only the columns outside it. */
  private paintAround(rect: Rect, line: number, y: number, screen: PaintableScreen, covers: readonly Rect[]): string {
    const visible = subtract({ from: rect.x, to: rect.x + rect.width }, covers.map((o) => ({ from: o.x, to: o.x + o.width })));
    if (visible.length === 0) return '';
    const row = y < screen.rows ? fit(screen.styledRow(y, READ), rect.width) : { runs: [] };
    let out = '';
    for (const span of visible) {
      const piece = fit(slice(row, span.from - rect.x, span.to - rect.x), span.to - span.from);
      out += `\x1b[${line + 1};${span.from + 1}H${encodeRow(piece, span.from, this.depth)}`;
    }
    return out;
  }
}

/** `row` cut or padded to exactly `width` cells. */
export function fit(row: StyledRow, width: number): StyledRow {
  return slice(row, 0, width, true);
}

/** Cells [from, to) of a row. A wide cell cut by an edge becomes blanks; with `pad`, a row shorter
 * than `to` is padded with blanks. */
export function slice(row: StyledRow, from: number, to: number, pad = true): StyledRow {
  const runs: StyledRun[] = [];
  let x = 0;
  for (const run of row.runs) {
    const start = x;
    const end = x + run.width;
    x = end;
    if (end <= from || start >= to) continue;
    if (start >= from && end <= to) {
      runs.push(run);
      continue;
    }
    // Partly inside. An isolated cell (wide glyph, cluster) cannot be cut: blanks instead.
    const a = Math.max(start, from);
    const b = Math.min(end, to);
    if (run.isolated) {
      runs.push({ text: ' '.repeat(b - a), width: b - a, style: run.style });
    } else {
      // A run that is not isolated holds one code point per cell.
      const chars = Array.from(run.text);
      runs.push({ text: chars.slice(a - start, b - start).join(''), width: b - a, style: run.style });
    }
  }
  const covered = Math.max(0, Math.min(x, to) - from);
  if (pad && covered < to - from) runs.push({ text: ' '.repeat(to - from - covered), width: to - from - covered, style: PLAIN_STYLE });
  return { runs };
}


function subtract(span: { from: number; to: number }, holes: { from: number; to: number }[]): { from: number; to: number }[] {
  let parts = [span];
  for (const hole of holes) {
    parts = parts.flatMap((p) => {
      if (hole.to <= p.from || hole.from >= p.to) return [p];
      const out: { from: number; to: number }[] = [];
      if (hole.from > p.from) out.push({ from: p.from, to: hole.from });
      if (hole.to < p.to) out.push({ from: hole.to, to: p.to });
      return out;
    });
  }
  return parts;
}

function sameRect(a: Rect, b: Rect): boolean {
  return a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
}

function overlaps(a: Rect, b: Rect): boolean {
  return a.x < b.x + b.width && a.x + a.width > b.x && a.y < b.y + b.height && a.y + a.height > b.y;
}

function linesMeet(lines: ReadonlySet<number>, rect: Rect): boolean {
  for (const line of lines) if (line >= rect.y && line < rect.y + rect.height) return true;
  return false;
}
