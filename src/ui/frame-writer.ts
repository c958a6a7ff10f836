/**
 * The frame writer: turns one frame (the chrome's lines, the bodies, the cursor) into the bytes
 * that change the user's terminal from what it showed to what it must show, inside synchronized
 * output (DEC 2026) so the terminal shows the frame whole. Only changed chrome lines are written;
 * the body writer repaints the body segments of exactly those lines, and the rows that changed.
 * Returns '' when nothing visible changed: an idle grid writes nothing.
 */
import { BodyWriter } from './body-writer.js';
import type { Body } from './body-writer.js';
import type { ColorDepth } from './color-depth.js';
import type { Rect } from './layout.js';

export interface Frame {
  cols: number;
  rows: number;
  /** The chrome's lines, or null when the chrome did not change since the last frame. */
  chrome: readonly string[] | null;
  bodies: readonly Body[];
  occluded: readonly Rect[];
  /** Where the terminal's cursor shows (the focused tile's cursor), or null to hide it. */
  cursor: { x: number; y: number } | null;
}

export const SYNC_BEGIN = '\x1b[?2026h';
export const SYNC_END = '\x1b[?2026l';

export class FrameWriter {
  private readonly bodies: BodyWriter;
  private lines: string[] = [];
  private size = { cols: 0, rows: 0 };
  private cursor: { x: number; y: number } | null | undefined = undefined;

  constructor(depth: ColorDepth) {
    this.bodies = new BodyWriter(depth);
  }

  /** Forget what the terminal shows (it was cleared, or another program drew on it). */
  invalidate(): void {
    this.size = { cols: 0, rows: 0 };
  }

  write(frame: Frame): string {
    let out = '';
    let forced: Set<number> | 'all' = new Set<number>();
    if (frame.cols !== this.size.cols || frame.rows !== this.size.rows) {
      // A new size (or the first frame): start from a clear screen.
      out += '\x1b[0m\x1b[2J';
      this.lines = [];
      this.size = { cols: frame.cols, rows: frame.rows };
      this.bodies.reset();
      this.cursor = undefined;
      forced = 'all';
    }
    if (frame.chrome) {
      const next = frame.chrome.slice(0, frame.rows);
      for (let y = 0; y < Math.max(next.length, this.lines.length); y++) {
        const line = next[y] ?? '';
        if (line === this.lines[y]) continue;
        // Erase the line first, then write it: no need to measure it (an erase after a full-width
        // line would take its last character: the cursor waits at the last column to wrap). The
        // body segments it blanks are repainted below, in the same synchronized frame.
        out += `\x1b[${y + 1};1H\x1b[0m\x1b[2K${line}\x1b[0m`;
        if (forced !== 'all') forced.add(y);
      }
      this.lines = next;
    }
    out += this.bodies.paint({ bodies: frame.bodies, forcedLines: forced, occluded: frame.occluded });
    const cursorMoved = !sameCursor(frame.cursor, this.cursor);
    if (out === '' && !cursorMoved) return '';
    if (frame.cursor) out += `\x1b[${frame.cursor.y + 1};${frame.cursor.x + 1}H\x1b[?25h`;
    else if (cursorMoved) out += '\x1b[?25l';
    this.cursor = frame.cursor;
    return SYNC_BEGIN + out + SYNC_END;
  }
}

function sameCursor(a: { x: number; y: number } | null, b: { x: number; y: number } | null | undefined): boolean {
  if (b === undefined) return false;
  if (a === null || b === null) return a === b;
  return a.x === b.x && a.y === b.y;
}
