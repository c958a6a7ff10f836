/**
 * One row of an agent's screen as the bytes that paint it on the user's terminal: SGR for each
 * style change, the text, and an absolute column after every cell whose width terminals may
 * disagree on, so a disagreement stays inside that cell instead of shifting the rest of the row
 * (and the neighbouring tile).
 */
import type { CellStyle, Color, StyledRow, UnderlineStyle } from '../session/styled-row.js';
import { fitColor, type ColorDepth } from './color-depth.js';

/** Starts with a full reset so the row never inherits the style of whatever was painted before. */
export function encodeRow(row: StyledRow, x: number, depth: ColorDepth): string {
  let out = '';
  let current: CellStyle | null = null;
  let column = x;
  for (const run of row.runs) {
    if (current === null || !sameStyle(current, run.style)) {
      out += sgr(run.style, depth);
      current = run.style;
    }
    out += run.isolated ? withoutTrailingJoiner(run.text) : run.text;
    column += run.width;
    if (run.isolated && !agreedWide(run.text)) out += `\x1b[${column + 1}G`;
  }
  return `${out}\x1b[0m`;
}

/**
 * A cell whose last character is a zero-width joiner (the program drew `👨‍`, then moved or
 * changed colour before the next emoji) is painted without it: tmux joins whatever comes after a
 * joiner into the cell before its cursor, even after a cursor move, which would pull the next
 * cell's glyph out of its column.
 */
function withoutTrailingJoiner(text: string): string {
  return text.endsWith('\u200d') ? text.replace(/\u200d+$/, '') || ' ' : text;
}

/** Blank cells for a body row the screen does not cover (mid-resize, or a smaller screen). */
export function blankRow(width: number): string {
  return width > 0 ? `\x1b[0m${' '.repeat(width)}` : '';
}

export function sgr(style: CellStyle, depth: ColorDepth): string {
  let params = '0';
  if (style.bold) params += ';1';
  if (style.dim) params += ';2';
  if (style.italic) params += ';3';
  if (style.underline) params += ';4';
  if (style.blink) params += ';5';
  if (style.inverse) params += ';7';
  // Hidden text is written, hidden, as tmux does: what a terminal keeps of it (a selection, a
  // copy) is the program's text, not blanks.
  if (style.invisible) params += ';8';
  if (style.strikethrough) params += ';9';
  if (style.overline) params += ';53';
  params += colorParams(fitColor(style.fg, depth), 30);
  params += colorParams(fitColor(style.bg, depth), 40);
  let out = `\x1b[${params}m`;
  // The underline's shape and colour go in sequences of their own, in the colon form terminals
  // that know them read: a terminal that does not drops that sequence and keeps the reset, the
  // colours and a plain underline, where one sequence for all would lose them all.
  if (style.underline && style.underlineStyle) out += `\x1b[4:${UNDERLINE_CODES[style.underlineStyle]}m`;
  if (style.underlineColor) out += underlineColor(fitColor(style.underlineColor, depth));
  return out;
}

const UNDERLINE_CODES: Record<UnderlineStyle, number> = { double: 2, curly: 3, dotted: 4, dashed: 5 };

/** SGR 58 for `color`: there is no 16-colour form, so a palette colour goes by its index. */
function underlineColor(color: Color): string {
  switch (color.kind) {
    case 'default':
      return '';
    case 'ansi16':
    case 'ansi256':
      return `\x1b[58:5:${color.index}m`;
    case 'rgb':
      return `\x1b[58:2::${color.r}:${color.g}:${color.b}m`;
  }
}

function colorParams(color: Color, base: 30 | 40): string {
  switch (color.kind) {
    case 'default':
      return '';
    case 'ansi16':
      return `;${color.index < 8 ? base + color.index : base + 60 + (color.index - 8)}`;
    case 'ansi256':
      return `;${base + 8};5;${color.index}`;
    case 'rgb':
      return `;${base + 8};2;${color.r};${color.g};${color.b}`;
  }
}

function sameStyle(a: CellStyle, b: CellStyle): boolean {
  return (
    a.bold === b.bold &&
    a.dim === b.dim &&
    a.italic === b.italic &&
    a.underline === b.underline &&
    a.inverse === b.inverse &&
    a.strikethrough === b.strikethrough &&
    a.invisible === b.invisible &&
    sameColor(a.fg, b.fg) &&
    sameColor(a.bg, b.bg) &&
    // The rare attributes: absent on plain text, so these are four comparisons of undefined.
    a.blink === b.blink &&
    a.overline === b.overline &&
    a.underlineStyle === b.underlineStyle &&
    (a.underlineColor === b.underlineColor || (a.underlineColor !== undefined && b.underlineColor !== undefined && sameColor(a.underlineColor, b.underlineColor)))
  );
}

function sameColor(a: Color, b: Color): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === 'default') return true;
  if (a.kind === 'rgb' && b.kind === 'rgb') return a.r === b.r && a.g === b.g && a.b === b.b;
  return (a as { index: number }).index === (b as { index: number }).index;
}

/**
 * Wide glyphs every terminal measures the same way (one BMP code point of CJK, Hangul or the
 * full-width forms): no need to re-place the cursor after them. Emoji and clusters are the ones
 * xterm, tmux and terminal emulators disagree on.
 */
function agreedWide(text: string): boolean {
  if (text.length !== 1) return false;
  const c = text.charCodeAt(0);
  return (
    (c >= 0x1100 && c <= 0x115f) ||
    (c >= 0x2e80 && c <= 0xa4cf && c !== 0x303f) ||
    (c >= 0xac00 && c <= 0xd7a3) ||
    (c >= 0xf900 && c <= 0xfaff) ||
    (c >= 0xfe30 && c <= 0xfe4f) ||
    (c >= 0xff00 && c <= 0xff60) ||
    (c >= 0xffe0 && c <= 0xffe6)
  );
}
