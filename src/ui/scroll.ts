/**
 * The scroll view: a tile's scrollback, read while its program keeps running. Pure state and keys
 * (offsets count lines up from the live bottom; a search finds text upward), plus the screen
 * adapter the body writer paints from.
 */
import type { ReadOptions } from '../session/row-reader.js';
import type { StyledRow } from '../session/styled-row.js';
import type { TileScreenView } from '../tile/workspace-view.js';
import { slice } from './body-writer.js';
import type { PaintableScreen } from './body-writer.js';

export interface ScrollState {
  readonly tileId: number;
  /** Lines above the live bottom (0 = the live screen). */
  readonly offset: number;
  /** The buffer's scroll count and length when the offset was last set: new output moves the
   * view with it. */
  readonly scrolledAt: number;
  readonly lengthAt: number;
  /** The search being typed (after `/`), or null. */
  readonly typing: string | null;
  /** The last search, and the line and columns of its current match. */
  readonly query: string | null;
  readonly match: { readonly line: number; readonly from: number; readonly to: number } | null;
}

/** What the scroll keys need of the tile's screen. */
export interface ScrollSource {
  readonly rows: number;
  readonly bufferLength: number;
  readonly scrolledLines: number;
  lineText(index: number): string;
}

export function startScroll(tileId: number, source: ScrollSource, pageUp: boolean): ScrollState {
  const base: ScrollState = { tileId, offset: 0, scrolledAt: source.scrolledLines, lengthAt: source.bufferLength, typing: null, query: null, match: null };
  return pageUp ? move(base, source, source.rows - 1) : base;
}

function maxOffset(source: ScrollSource): number {
  return Math.max(0, source.bufferLength - source.rows);
}

function move(state: ScrollState, source: ScrollSource, by: number): ScrollState {
  const offset = Math.max(0, Math.min(maxOffset(source), state.offset + by));
  return { ...state, offset, scrolledAt: source.scrolledLines, lengthAt: source.bufferLength };
}

/**
 * New output arrived while scrolled back: keep the same lines in view (the bottom moved down by
 * as many lines as the buffer scrolled; once the scrollback is full, the oldest lines went and
 * every line's index moved up by as many).
 */
export function follow(state: ScrollState, source: ScrollSource): ScrollState {
  const scrolled = source.scrolledLines - state.scrolledAt;
  if (scrolled <= 0) return state;
  const trimmed = Math.max(0, scrolled - Math.max(0, source.bufferLength - state.lengthAt));
  const match = state.match ? { ...state.match, line: state.match.line - trimmed } : null;
  const kept = { ...state, match: match && match.line >= 0 ? match : null };
  if (state.offset === 0) return { ...kept, scrolledAt: source.scrolledLines, lengthAt: source.bufferLength };
  return move(kept, source, scrolled);
}

export type ScrollKeyResult = { state: ScrollState } | { exit: true } | { note: string; state: ScrollState };

/** A key in the scroll view. */
export function scrollKey(state: ScrollState, key: string, source: ScrollSource): ScrollKeyResult {
  if (state.typing !== null) return typingKey(state, key, source);
  const page = Math.max(1, source.rows - 1);
  switch (key) {
    case 'escape':
    case 'q':
    case '[':
      return { exit: true };
    case 'pageup':
    case 'ctrl-b':
      return { state: move(state, source, page) };
    case 'pagedown':
    case 'ctrl-f':
    case ' ':
      return { state: move(state, source, -page) };
    case 'up':
    case 'k':
      return { state: move(state, source, 1) };
    case 'down':
    case 'j':
      return { state: move(state, source, -1) };
    case 'g':
    case 'home':
      return { state: move(state, source, maxOffset(source)) };
    case 'G':
    case 'end':
      return { state: move(state, source, -state.offset) };
    case '/':
      return { state: { ...state, typing: '' } };
    case 'n':
    case 'N':
      if (!state.query) return { note: 'no search yet: / to search', state };
      return search(state, source, state.query, key === 'n' ? 'up' : 'down');
    default:
      return { state };
  }
}

function typingKey(state: ScrollState, key: string, source: ScrollSource): ScrollKeyResult {
  const typing = state.typing ?? '';
  if (key === 'escape') return { state: { ...state, typing: null } };
  if (key === 'enter') {
    if (typing === '') return { state: { ...state, typing: null } };
    return search({ ...state, typing: null }, source, typing, 'up');
  }
  if (key === 'backspace' || key === 'ctrl-h') return { state: { ...state, typing: typing.slice(0, -1) } };
  if (Array.from(key).length === 1 && key >= ' ') return { state: { ...state, typing: typing + key } };
  return { state };
}

/** The next line holding `query` (case-insensitive) above (or below) the current match or view. */
function search(state: ScrollState, source: ScrollSource, query: string, direction: 'up' | 'down'): ScrollKeyResult {
  const length = source.bufferLength;
  const top = length - source.rows - state.offset;
  const from = state.match ? state.match.line + (direction === 'up' ? -1 : 1) : direction === 'up' ? top + source.rows - 1 : top;
  const needle = query.toLowerCase();
  for (let line = from; direction === 'up' ? line >= 0 : line < length; line += direction === 'up' ? -1 : 1) {
    const at = source.lineText(line).toLowerCase().indexOf(needle);
    if (at < 0) continue;
    // Put the match a third of the way down the view.
    const wantedTop = Math.max(0, line - Math.floor(source.rows / 3));
    const offset = Math.max(0, Math.min(maxOffset(source), length - source.rows - wantedTop));
    return { state: { ...state, query, offset, scrolledAt: source.scrolledLines, lengthAt: source.bufferLength, match: { line, from: columnOf(source.lineText(line), at), to: columnOf(source.lineText(line), at + needle.length) } } };
  }
  return { note: `"${query}" not found ${direction === 'up' ? 'above' : 'below'}`, state: { ...state, query } };
}

/** The cell column of a string index (wide glyphs are two columns in the terminal, one here:
 * close enough to place a highlight on text that is mostly narrow). */
function columnOf(text: string, index: number): number {
  return Array.from(text.slice(0, index)).length;
}

/** The tile's screen as the scroll view shows it: `offset` lines up, the match inverted. */
export function scrollbackView(screen: TileScreenView, state: ScrollState): PaintableScreen {
  return {
    get cols() {
      return screen.cols;
    },
    get rows() {
      return screen.rows;
    },
    // The view moves when the screen moves or the offset does; the writer compares its rows anyway.
    get generation() {
      return screen.generation * 1_000_003 + state.offset;
    },
    styledRow(y: number, options?: ReadOptions): StyledRow {
      const index = screen.bufferLength - screen.rows - state.offset + y;
      const row = screen.styledLine(index, options);
      const match = state.match;
      if (!match || match.line !== index) return row;
      return highlight(row, match.from, match.to, screen.cols);
    },
  };
}

function highlight(row: StyledRow, from: number, to: number, cols: number): StyledRow {
  const mid = slice(row, from, to, false).runs.map((run) => ({ ...run, style: { ...run.style, inverse: !run.style.inverse } }));
  return { runs: [...slice(row, 0, from, false).runs, ...mid, ...slice(row, to, cols, false).runs] };
}
