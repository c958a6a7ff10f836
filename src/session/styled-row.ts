/**
 * What a renderer needs to paint one visible row of a session's screen: runs of text that share a
 * style, in column order, covering the whole row width.
 *
 * These are plain data (no xterm objects) so a snapshot can be held across frames, diffed, and
 * compared with `toEqual` in tests.
 */

/** A cell colour as the program asked for it; the renderer maps it onto the user's terminal. */
export type Color =
  | { readonly kind: 'default' }
  /** SGR 30–37, 90–97 (and 40–47, 100–107): the user's own 16-colour palette. */
  | { readonly kind: 'ansi16'; readonly index: number }
  /** SGR 38;5;n / 48;5;n. */
  | { readonly kind: 'ansi256'; readonly index: number }
  /** SGR 38;2;r;g;b / 48;2;r;g;b. */
  | { readonly kind: 'rgb'; readonly r: number; readonly g: number; readonly b: number };

export const DEFAULT_COLOR: Color = Object.freeze({ kind: 'default' });

export interface CellStyle {
  readonly fg: Color;
  readonly bg: Color;
  readonly bold: boolean;
  readonly dim: boolean;
  readonly italic: boolean;
  readonly underline: boolean;
  readonly inverse: boolean;
  readonly strikethrough: boolean;
  /** SGR 8: the cell's text is not shown (the painter still writes it, hidden, as tmux does). */
  readonly invisible: boolean;
  // The attributes below are rare: absent means off, so the common style stays small and a
  // painter checks them only when they are there.
  /** SGR 5 (xterm.js takes SGR 6, rapid blink, for nothing: it is not here). */
  readonly blink?: boolean;
  /** SGR 53. */
  readonly overline?: boolean;
  /** The underline's shape when it is not one straight line (SGR 21, 4:2 … 4:5); only with
   * `underline`. */
  readonly underlineStyle?: UnderlineStyle;
  /** SGR 58: the underline's own colour (absent: the text's). */
  readonly underlineColor?: Color;
}

export type UnderlineStyle = 'double' | 'curly' | 'dotted' | 'dashed';

export const PLAIN_STYLE: CellStyle = Object.freeze({
  fg: DEFAULT_COLOR,
  bg: DEFAULT_COLOR,
  bold: false,
  dim: false,
  italic: false,
  underline: false,
  inverse: false,
  strikethrough: false,
  invisible: false,
});

export interface StyledRun {
  /** The characters; an empty cell reads as one space. A wide glyph is one character here; a
   * cluster (👨‍👩‍👧, ❤️) is one cell holding all its code points. */
  readonly text: string;
  /** Terminal columns the run covers, as the screen's buffer gives them: a wide glyph (CJK, most
   * emoji) counts 2, a cluster the width of its first character (session/cell-width.ts). */
  readonly width: number;
  readonly style: CellStyle;
  /** One cell that a painter should place by absolute position: a wide glyph, or a cluster of
   * several code points (emoji with a variation selector, ZWJ sequences) whose width terminals
   * disagree on. Only set when the row was read with `isolateClusters`. */
  readonly isolated?: boolean;
}

/** One visible row: its runs' widths add up to the screen's column count. */
export interface StyledRow {
  readonly runs: readonly StyledRun[];
}

/** The row's characters without styles (what a run's texts concatenate to). */
export function rowText(row: StyledRow): string {
  return row.runs.map((run) => run.text).join('');
}
