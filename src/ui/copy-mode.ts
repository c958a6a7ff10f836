/**
 * Copy mode: the scroll view's cursor and selection, like tmux's copy mode with vi keys. Pure: the
 * keys move a cursor over the buffer's lines (the view follows it), `v` or `V` start a selection at
 * the cursor, `y` (or Enter) hands back what is selected, and the text of a selection is read
 * from the screen's lines (soft-wrapped rows joined, trailing blanks trimmed). The clipboard is
 * the outer terminal's, reached with OSC 52.
 */
import stringWidth from 'string-width';
import { passThrough } from './notify.js';
import type { CopyRange, Point, ScrollKeyResult, ScrollSource, ScrollState, Selection } from './scroll-state.js';
export type { CopyRange, Point, Selection } from './scroll-state.js';




/** What the text of a selection is read from (Screen implements it; `isWrapped` says that line
 * `index` continues the line above it: the program's line was longer than the screen). */
export interface TextSource {
  readonly cols: number;
  readonly bufferLength: number;
  lineText(index: number): string;
  isWrapped?(index: number): boolean;
}

/**
 * At most this much text is copied (UTF-8 bytes): tmux drops an escape sequence longer than 1 MiB
 * (3.3a, measured), and OSC 52 carries the text in base64, a third longer.
 */
export const MAX_COPY_BYTES = 750 * 1024;

/** The first line shown (the top row of the view). */
export function viewTop(state: Pick<ScrollState, 'offset'>, source: Pick<ScrollSource, 'rows' | 'bufferLength'>): number {
  return source.bufferLength - source.rows - state.offset;
}

function maxOffset(source: ScrollSource): number {
  return Math.max(0, source.bufferLength - source.rows);
}

function clamp(n: number, low: number, high: number): number {
  return Math.max(low, Math.min(high, n));
}

function lastLine(source: ScrollSource): number {
  return Math.max(0, source.bufferLength - 1);
}

/** `state` with its offset set (and the buffer's counters noted, as every move does). */
function at(state: ScrollState, source: ScrollSource, offset: number, cursor: Point = state.cursor): ScrollState {
  return { ...state, offset: clamp(offset, 0, maxOffset(source)), cursor, scrolledAt: source.scrolledLines, lengthAt: source.bufferLength };
}

/** The view moved just enough to show the cursor's line. */
export function reveal(state: ScrollState, source: ScrollSource): ScrollState {
  const line = clamp(state.cursor.line, 0, lastLine(source));
  const cursor = line === state.cursor.line ? state.cursor : { ...state.cursor, line };
  const top = viewTop(state, source);
  let offset = state.offset;
  if (line < top) offset = source.bufferLength - source.rows - line;
  else if (line > top + source.rows - 1) offset = source.bufferLength - 1 - line;
  return at(state, source, offset, cursor);
}

/** The view scrolled `by` lines up (down when negative), the cursor kept inside it (the wheel). */
export function scrollBy(state: ScrollState, source: ScrollSource, by: number): ScrollState {
  const moved = at(state, source, state.offset + by);
  const top = viewTop(moved, source);
  const line = clamp(moved.cursor.line, Math.max(0, top), Math.max(0, Math.min(lastLine(source), top + source.rows - 1)));
  return line === moved.cursor.line ? moved : { ...moved, cursor: { ...moved.cursor, line } };
}

/** The cells of a line's text: each character's column and width (a wide glyph is 2, a combining
 * mark joins the character before it). */
function cells(text: string): { text: string; col: number; width: number }[] {
  const out: { text: string; col: number; width: number }[] = [];
  let col = 0;
  for (const ch of text) {
    const width = ch.charCodeAt(0) < 0x7f && ch.length === 1 ? 1 : stringWidth(ch);
    const last = out.at(-1);
    if (width === 0 && last) {
      out[out.length - 1] = { ...last, text: last.text + ch };
      continue;
    }
    out.push({ text: ch, col, width: Math.max(1, width) });
    col += Math.max(1, width);
  }
  return out;
}

function textWidth(text: string): number {
  return /^[\x20-\x7e]*$/.test(text) ? text.length : cells(text).reduce((sum, c) => sum + c.width, 0);
}

/** The column of a line's last character (0 on an empty line). */
function lastCol(source: ScrollSource, line: number): number {
  const last = cells(source.lineText(line)).at(-1);
  return last ? last.col : 0;
}

/** The last line that shows any text (the newest output), or the last line when none does. */
function newestText(source: ScrollSource): number {
  const end = lastLine(source);
  for (let line = end; line >= Math.max(0, end - source.rows); line--) if (source.lineText(line) !== '') return line;
  return end;
}

/** The selection as a range, its start first. */
export function selectionRange(state: Pick<ScrollState, 'cursor' | 'selection'>): CopyRange | null {
  const selection = state.selection;
  if (!selection) return null;
  const a = selection.anchor;
  const b = state.cursor;
  const first = a.line < b.line || (a.line === b.line && a.col <= b.col);
  return { kind: selection.kind, from: first ? a : b, to: first ? b : a };
}

/** What the status line says of a selection: its kind and how many lines it spans. */
export function selectionSummary(state: Pick<ScrollState, 'cursor' | 'selection'>): { kind: 'char' | 'line'; lines: number } | null {
  const range = selectionRange(state);
  return range ? { kind: range.kind, lines: range.to.line - range.from.line + 1 } : null;
}

/**
 * A key of copy mode, or null when the key is not one (the scroll view handles it: search, q).
 * Moving keys move the cursor (and extend a selection); the view follows the cursor.
 */
export function copyKey(state: ScrollState, key: string, source: ScrollSource): ScrollKeyResult | null {
  const page = Math.max(1, source.rows - 1);
  const { line, col } = state.cursor;
  const to = (next: Point, offset = state.offset): ScrollKeyResult => ({ state: reveal(at(state, source, offset, next), source) });
  switch (key) {
    case 'up':
    case 'k':
      return to({ line: Math.max(0, line - 1), col });
    case 'down':
    case 'j':
      return to({ line: Math.min(lastLine(source), line + 1), col });
    // A page moves the view and the cursor together: the cursor keeps its row on the screen.
    case 'pageup':
    case 'ctrl-b':
      return to({ line: Math.max(0, line - page), col }, state.offset + page);
    case 'pagedown':
    case 'ctrl-f':
    case ' ':
      return to({ line: Math.min(lastLine(source), line + page), col }, state.offset - page);
    case 'g':
    case 'home':
      return to({ line: 0, col: 0 }, maxOffset(source));
    case 'G':
    case 'end':
      return to({ line: newestText(source), col: 0 }, 0);
    case 'left':
    case 'h':
      return to({ line, col: Math.max(0, Math.min(col, lastCol(source, line)) - 1) });
    case 'right':
    case 'l':
      return to({ line, col: col < lastCol(source, line) ? col + 1 : col });
    case '0':
      return to({ line, col: 0 });
    case '$':
      return to({ line, col: lastCol(source, line) });
    case 'v':
    case 'V': {
      const kind = key === 'v' ? 'char' : 'line';
      const selection = state.selection;
      // The same key again ends the selection; the other key changes its kind.
      if (selection && !selection.mouse) return { state: { ...state, selection: selection.kind === kind ? null : { kind, anchor: selection.anchor } } };
      return { state: { ...state, selection: { kind, anchor: state.cursor } } };
    }
    case 'y':
    case 'enter': {
      const range = selectionRange(state);
      if (!range) return { note: 'nothing selected: v selects characters, V lines', state };
      return { exit: true, copy: range };
    }
    case 'escape':
      return state.selection ? { state: { ...state, selection: null } } : null;
    default:
      return null;
  }
}

/** The buffer cell under row `row`, column `col` of the view. */
export function pointAt(state: ScrollState, source: ScrollSource, row: number, col: number): Point {
  return { line: clamp(viewTop(state, source) + row, 0, lastLine(source)), col: Math.max(0, col) };
}

/**
 * The mouse in the scroll view: a press starts a character selection there, a drag extends it, the
 * release copies it (a click that did not move only places the cursor).
 */
export function mouseSelect(state: ScrollState, point: Point, phase: 'press' | 'drag' | 'release'): ScrollKeyResult {
  if (phase === 'press') return { state: { ...state, cursor: point, selection: { kind: 'char', anchor: point, mouse: true } } };
  const selection = state.selection;
  if (!selection?.mouse) return { state };
  if (phase === 'drag') return { state: { ...state, cursor: point } };
  if (point.line === selection.anchor.line && point.col === selection.anchor.col) return { state: { ...state, cursor: point, selection: null } };
  const range = selectionRange({ cursor: point, selection });
  return range ? { exit: true, copy: range } : { state };
}

/** Columns [from, to) of a line's text (a wide glyph that the edge cuts is kept whole). */
function columns(text: string, from: number, to: number): string {
  if (from <= 0 && to === Infinity) return text;
  return cells(text)
    .filter((c) => c.col + c.width > from && c.col < to)
    .map((c) => c.text)
    .join('');
}

/**
 * The text of a selection: a line per line of the program (rows it soft-wrapped are joined again),
 * trailing blanks trimmed, lines joined with `\n` (none after the last). At most `maxBytes` of
 * UTF-8; `cut` says the rest was left out.
 */
export function selectionText(source: TextSource, range: CopyRange, maxBytes = MAX_COPY_BYTES): { text: string; lines: number; cut: boolean } {
  const first = Math.max(0, range.from.line);
  const last = Math.min(range.to.line, source.bufferLength - 1);
  const lines: string[] = [];
  let bytes = 0;
  let current = '';
  let next = first <= last ? source.lineText(first) : '';
  for (let i = first; i <= last; i++) {
    let text = next;
    const continues = i < last && source.isWrapped?.(i + 1) === true;
    next = i < last ? source.lineText(i + 1) : '';
    if (continues) {
      // A soft-wrapped row is full: the blanks at its end belong to the line (unless a wide glyph
      // that did not fit in the last column went to the next row).
      const pad = source.cols - textWidth(text);
      const wideNext = next !== '' && (cells(next)[0]?.width ?? 1) === 2;
      if (pad > 0 && !(pad === 1 && wideNext)) text += ' '.repeat(pad);
    }
    if (range.kind === 'char') text = columns(text, i === range.from.line ? range.from.col : 0, i === range.to.line ? range.to.col + 1 : Infinity);
    current += text;
    if (continues) continue;
    const done = current.replace(/ +$/, '');
    current = '';
    const size = Buffer.byteLength(done, 'utf8') + (lines.length > 0 ? 1 : 0);
    if (bytes + size > maxBytes) {
      const kept = cutToBytes(done, maxBytes - bytes - (lines.length > 0 ? 1 : 0));
      if (kept !== '' || lines.length === 0) lines.push(kept);
      return { text: lines.join('\n'), lines: lines.length, cut: true };
    }
    bytes += size;
    lines.push(done);
  }
  return { text: lines.join('\n'), lines: lines.length, cut: false };
}

/** The longest start of `text` within `max` bytes of UTF-8, whole characters only. */
function cutToBytes(text: string, max: number): string {
  if (max <= 0) return '';
  let out = '';
  let used = 0;
  for (const ch of text) {
    const size = Buffer.byteLength(ch, 'utf8');
    if (used + size > max) break;
    out += ch;
    used += size;
  }
  return out;
}

/** OSC 52: set the clipboard (`c`) to `text`, in base64, ended with BEL. */
export function osc52(text: string): string {
  return `\x1b]52;c;${Buffer.from(text, 'utf8').toString('base64')}\x07`;
}

/**
 * The bytes that put `text` on the outer terminal's clipboard. Inside tmux both forms go out:
 * tmux takes the plain one itself when `set-clipboard on` (its buffer, and the terminal outside it),
 * and hands the wrapped one to the terminal when `allow-passthrough on`; it ignores the plain one
 * otherwise (its default, `external`) and drops the wrapped one silently. GNU screen passes at most
 * 768 bytes per DCS string, so there it goes in pieces.
 */
export function clipboardSequence(text: string, wrap: 'tmux' | 'screen' | null): string {
  const seq = osc52(text);
  if (wrap === 'tmux') return seq + passThrough(seq, 'tmux');
  if (wrap === 'screen') {
    let out = '';
    for (let i = 0; i < seq.length; i += 76) out += passThrough(seq.slice(i, i + 76), 'screen');
    return out;
  }
  return seq;
}

/** What the status line says after a copy. */
export function copiedNote(copied: { text: string; lines: number; cut: boolean }): string {
  const what = copied.lines === 1 ? `${Array.from(copied.text).length} characters` : `${copied.lines} lines`;
  if (copied.cut) return `copied the first ${Math.round(MAX_COPY_BYTES / 1024)} KiB (${what}) to the clipboard: the rest was cut`;
  return copied.text === '' ? 'copied nothing: the selection is blank' : `copied ${what} to the clipboard`;
}
