/**
 * Columns `text` takes on the user's terminal, as the chrome counts them: a CJK letter is two,
 * a combining mark none. The one measure of the chrome is string-width, because it is Ink's own
 * (Ink lays the chrome out with it: any other count and Ink cuts or wraps the line). It agrees
 * with the tiles' screens (xterm's Unicode 11 table, session/cell-width.ts) and with tmux on
 * every letter and digit a tile name may hold, CJK, kana and Hangul syllables included; on emoji
 * with a variation selector or a skin tone terminals disagree among themselves whatever one counts.
 */
import stringWidth from 'string-width';

/** Widths remembered; past this many the memory starts again (a frame measures a few hundred). */
export const MAX_REMEMBERED = 4096;

export function displayWidth(text: string): number {
  if (NARROW.test(text)) return text.length;
  // Ink measures texts with their colours in (a header is one text): without them, most are
  // narrow too. string-width strips escape sequences the same way before it counts.
  if (text.includes('\x1b')) {
    const plain = text.replace(SGR, '');
    if (NARROW.test(plain)) return plain.length;
  }
  let width = widths.get(text);
  if (width === undefined) {
    counts.measured++;
    width = stringWidth(text);
    if (widths.size >= MAX_REMEMBERED) widths.clear();
    widths.set(text, width);
  }
  return width;
}

/**
 * The columns of `text` when it is only one-column characters that join nothing and colours
 * (CSI … m with numbers and semicolons), or null for any other text. Every terminal shows such a
 * text as its characters one to a column, in the styles its codes say.
 */
export function narrowColumns(text: string): number | null {
  const plain = text.includes('\x1b') ? text.replace(PLAIN_SGR, '') : text;
  return NARROW.test(plain) ? plain.length : null;
}

/** The widest line of `text`, as the `widest-line` package counts it (string-width per line). */
export function widestLine(text: string): number {
  counts.widestLines++;
  if (!text.includes('\n')) return displayWidth(text);
  let widest = 0;
  for (const line of text.split('\n')) widest = Math.max(widest, displayWidth(line));
  return widest;
}

/** Since the process started: texts string-width measured, and widest-line asks answered (in the
 * bundled CLI, Ink's: the log's last "ui painted" line shows them). */
export function widthCounts(): Readonly<typeof counts> {
  return { ...counts };
}
const counts = { measured: 0, widestLines: 0 };

// string-width costs 10–100 µs a string (it segments and tests emoji patterns), and the chrome's
// texts are measured many times a frame: text of one-column characters that join nothing (ASCII,
// the chrome's own frame lines, dots and state glyphs) is counted directly, the rest remembered.
const NARROW = /^[\x20-\x7e\u00b7\u2026\u2190-\u2193\u2212\u23ce\u2500-\u257f\u25a0\u25b8\u25c6\u25cb\u25cf\u2713\u2717]*$/;
/** Colours and attributes: CSI … m. */
const SGR = /\x1b\[[0-9;:]*m/g;
/** Colours and attributes as chalk writes them: CSI, numbers and semicolons, m. */
const PLAIN_SGR = /\x1b\[[0-9;]*m/g;
const widths = new Map<string, number>();
