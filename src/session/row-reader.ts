/**
 * Reads one xterm buffer line into a StyledRow: consecutive cells with the same style become one
 * run. The only place that knows xterm's cell encoding.
 */
import type { IBufferCell, IBufferLine } from '@xterm/headless';
import { DEFAULT_COLOR, PLAIN_STYLE, type CellStyle, type Color, type StyledRow, type StyledRun } from './styled-row.js';

// xterm's colour-mode bits (getFgColorMode / getBgColorMode); the typings expose the numbers but
// not the names. Attributes.CM_P16 / CM_P256 / CM_RGB in xterm's source.
const CM_P16 = 0x1000000;
const CM_P256 = 0x2000000;
const CM_RGB = 0x3000000;

function color(mode: number, value: number): Color {
  switch (mode) {
    case CM_P16:
      return { kind: 'ansi16', index: value };
    case CM_P256:
      return { kind: 'ansi256', index: value };
    case CM_RGB:
      return { kind: 'rgb', r: (value >> 16) & 0xff, g: (value >> 8) & 0xff, b: value & 0xff };
    default:
      return DEFAULT_COLOR;
  }
}

// The flags packed into one number so that "same style as the previous cell?" is five integer
// comparisons instead of building an object per cell. isBold() etc. return bit values, not booleans.
function flagsOf(cell: IBufferCell): number {
  return (
    (cell.isBold() ? 1 : 0) |
    (cell.isDim() ? 2 : 0) |
    (cell.isItalic() ? 4 : 0) |
    (cell.isUnderline() ? 8 : 0) |
    (cell.isInverse() ? 16 : 0) |
    (cell.isStrikethrough() ? 32 : 0) |
    (cell.isInvisible() ? 64 : 0)
  );
}

function styleOf(cell: IBufferCell, flags: number): CellStyle {
  return {
    fg: color(cell.getFgColorMode(), cell.getFgColor()),
    bg: color(cell.getBgColorMode(), cell.getBgColor()),
    bold: (flags & 1) !== 0,
    dim: (flags & 2) !== 0,
    italic: (flags & 4) !== 0,
    underline: (flags & 8) !== 0,
    inverse: (flags & 16) !== 0,
    strikethrough: (flags & 32) !== 0,
    invisible: (flags & 64) !== 0,
  };
}

export interface ReadOptions {
  /** Give each wide glyph and each multi-code-point cluster a run of its own, marked `isolated`. */
  isolateClusters?: boolean;
}

/**
 * `cols` cells of `line` as runs. `scratch` is a cell object reused across calls (xterm's own
 * advice for walking many cells: `buffer.getNullCell()`).
 */
export function readStyledRow(line: IBufferLine | undefined, cols: number, scratch: IBufferCell, options: ReadOptions = {}): StyledRow {
  const runs: StyledRun[] = [];
  let text = '';
  let width = 0;
  let key: number[] | undefined;
  let style: CellStyle | undefined;
  let covered = 0;
  for (let x = 0; line && x < cols; x++) {
    const cell = line.getCell(x, scratch);
    if (!cell) break;
    const cellWidth = cell.getWidth();
    // The cell after a wide glyph has width 0 and no characters: the glyph already covers it.
    if (cellWidth === 0) continue;
    const flags = flagsOf(cell);
    const fgMode = cell.getFgColorMode();
    const fg = cell.getFgColor();
    const bgMode = cell.getBgColorMode();
    const bg = cell.getBgColor();
    if (!key || key[0] !== flags || key[1] !== fgMode || key[2] !== fg || key[3] !== bgMode || key[4] !== bg) {
      if (key && style && width > 0) runs.push({ text, width, style });
      key = [flags, fgMode, fg, bgMode, bg];
      style = styleOf(cell, flags);
      text = '';
      width = 0;
    }
    const chars = cell.getChars() || ' ';
    if (options.isolateClusters && (cellWidth > 1 || isCluster(chars))) {
      if (width > 0 && style) runs.push({ text, width, style });
      if (style) runs.push({ text: chars, width: cellWidth, style, isolated: true });
      text = '';
      width = 0;
      covered += cellWidth;
      continue;
    }
    text += chars;
    width += cellWidth;
    covered += cellWidth;
  }
  if (style && width > 0) runs.push({ text, width, style });
  // A missing or short line (mid-resize) still yields a full-width row: renderers paint by width.
  if (covered < cols) runs.push({ text: ' '.repeat(cols - covered), width: cols - covered, style: PLAIN_STYLE });
  return { runs };
}

/** More than one code point in one cell (a surrogate pair is one code point). */
function isCluster(chars: string): boolean {
  if (chars.length === 1) return false;
  if (chars.length === 2) {
    const high = chars.charCodeAt(0);
    return !(high >= 0xd800 && high <= 0xdbff);
  }
  return true;
}
