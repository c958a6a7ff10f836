/**
 * Reads one xterm buffer line into a StyledRow: consecutive cells with the same style become one
 * run. The only place that knows xterm's cell encoding.
 */
import type { IBufferCell, IBufferLine } from '@xterm/headless';
import { DEFAULT_COLOR, PLAIN_STYLE, type CellStyle, type Color, type StyledRow, type StyledRun, type UnderlineStyle } from './styled-row.js';

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

// xterm's cell object (CellData, what `getNullCell` gives and `getCell` fills) holds a cell's
// whole style in two attribute words, `fg` and `bg` (colour, colour mode and every flag), plus
// an extended part for underline shape and colour. Comparing the two words is the cheap "same
// style as the previous cell?" check (ui.md: the raw words are the fastest way to walk cells);
// the public getters decode a style only where it changes. These members are not in the typings
// (written against @xterm/headless 6.0.0; test/session/row-reader.test.ts reads every attribute
// through them, so a change shows there).
interface CellWords {
  readonly fg: number;
  readonly bg: number;
  /** `underlineColor` is colour mode 0 (or all ones) when SGR 58 is not set: the cell's getters
   * give the text's colour then, which a painter must not take for an underline colour. */
  readonly extended: { readonly underlineColor: number };
  getUnderlineStyle(): number;
}

/** Attributes.HAS_EXTENDED in xterm's `bg` word: the cell has an underline shape or colour (or a
 * link) in its extended part. */
const HAS_EXTENDED = 0x10000000;
const COLOR_MODE = 0x3000000;

const UNDERLINE_STYLES: readonly (UnderlineStyle | undefined)[] = [undefined, undefined, 'double', 'curly', 'dotted', 'dashed'];

/** The cell object's own words, or undefined if this xterm does not have them (then runs are
 * told apart by the public getters, and underline shape and colour are not read). */
function words(cell: IBufferCell): CellWords | undefined {
  const internal = cell as unknown as Partial<CellWords>;
  const ok = typeof internal.fg === 'number' && typeof internal.bg === 'number' && typeof internal.extended?.underlineColor === 'number' && typeof internal.getUnderlineStyle === 'function';
  return ok ? (internal as CellWords) : undefined;
}

/** A stand-in for the `fg` word from the public getters: the colour and every flag. */
function publicFg(cell: IBufferCell): number {
  const flags =
    (cell.isBold() ? 1 : 0) |
    (cell.isDim() ? 2 : 0) |
    (cell.isItalic() ? 4 : 0) |
    (cell.isUnderline() ? 8 : 0) |
    (cell.isInverse() ? 16 : 0) |
    (cell.isStrikethrough() ? 32 : 0) |
    (cell.isInvisible() ? 64 : 0) |
    (cell.isBlink() ? 128 : 0) |
    (cell.isOverline() ? 256 : 0);
  return (cell.getFgColorMode() | cell.getFgColor()) + flags * 0x4000000;
}

/** SGR 58's colour as xterm packs it (mode | value, 26 bits), 0 when there is none. SGR 59 stores
 * -1 there, which the 26 bits make 0x3ffffff — as they do RGB white, which is read as none too. */
function underlineColorWord(cell: CellWords): number {
  const word = cell.extended.underlineColor & 0x3ffffff;
  return word === 0x3ffffff || (word & COLOR_MODE) === 0 ? 0 : word;
}

/** The extended part as one number (0: none): underline shape and colour, so a change of either
 * starts a new run. */
function extendedKey(cell: CellWords): number {
  return cell.getUnderlineStyle() * 0x4000000 + underlineColorWord(cell);
}

function styleOf(cell: IBufferCell, internal: CellWords | undefined, extended: boolean): CellStyle {
  const style: { -readonly [K in keyof CellStyle]: CellStyle[K] } = {
    fg: color(cell.getFgColorMode(), cell.getFgColor()),
    bg: color(cell.getBgColorMode(), cell.getBgColor()),
    // isBold() etc. return bit values, not booleans.
    bold: cell.isBold() !== 0,
    dim: cell.isDim() !== 0,
    italic: cell.isItalic() !== 0,
    underline: cell.isUnderline() !== 0,
    inverse: cell.isInverse() !== 0,
    strikethrough: cell.isStrikethrough() !== 0,
    invisible: cell.isInvisible() !== 0,
  };
  if (cell.isBlink()) style.blink = true;
  if (cell.isOverline()) style.overline = true;
  if (extended && internal) {
    const shape = UNDERLINE_STYLES[internal.getUnderlineStyle()];
    if (shape && style.underline) style.underlineStyle = shape;
    const word = underlineColorWord(internal);
    if (word !== 0) style.underlineColor = color(word & COLOR_MODE, (word & COLOR_MODE) === CM_RGB ? word & 0xffffff : word & 0xff);
  }
  return style;
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
  let style: CellStyle | undefined;
  let keyFg = 0;
  let keyBg = 0;
  let keyExtended = 0;
  let covered = 0;
  const internal = words(scratch);
  for (let x = 0; line && x < cols; x++) {
    const cell = line.getCell(x, scratch);
    if (!cell) break;
    const cellWidth = cell.getWidth();
    // The cell after a wide glyph has width 0 and no characters: the glyph already covers it.
    if (cellWidth === 0) continue;
    const fg = internal ? internal.fg : publicFg(cell);
    const bg = internal ? internal.bg : cell.getBgColorMode() | cell.getBgColor();
    // Plain text never has an extended part: one bit test, and the key stays two words.
    const extended = internal && (bg & HAS_EXTENDED) !== 0 ? extendedKey(internal) : 0;
    if (!style || fg !== keyFg || bg !== keyBg || extended !== keyExtended) {
      if (style && width > 0) runs.push({ text, width, style });
      keyFg = fg;
      keyBg = bg;
      keyExtended = extended;
      style = styleOf(cell, internal, extended !== 0);
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
