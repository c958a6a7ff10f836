/**
 * The scroll view: a tile's scrollback, read while its program keeps running. Pure state and keys
 * (offsets count lines up from the live bottom; a search finds text upward), plus the screen
 * adapter the body writer paints from.
 */
import type { ReadOptions } from '../session/row-reader.js';
import type { StyledRow, StyledRun } from '../session/styled-row.js';
import type { TileScreenView } from '../tile/workspace-view.js';
import type { PaintableScreen } from './body-writer.js';
import { copyKey, reveal, selectionRange } from './copy-mode.js';
import type { CopyRange, Point, ScrollKeyResult, ScrollSource, ScrollState, Selection } from './scroll-state.js';
export type { ScrollKeyResult, ScrollSource, ScrollState } from './scroll-state.js';



/** The scroll view opens at the live bottom (a page up with PgUp), the cursor on its top row:
 * reading goes up, and `k` scrolls at once. */
export function startScroll(tileId: number, source: ScrollSource, pageUp: boolean): ScrollState {
  const base: ScrollState = { tileId, offset: 0, scrolledAt: source.scrolledLines, lengthAt: source.bufferLength, typing: null, query: null, match: null, cursor: { line: 0, col: 0 }, selection: null };
  const moved = pageUp ? move(base, source, source.rows - 1) : base;
  return { ...moved, cursor: { line: Math.max(0, source.bufferLength - source.rows - moved.offset), col: 0 } };
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
  const up = (p: Point): Point => ({ line: Math.max(0, p.line - trimmed), col: p.col });
  const selection = state.selection ? { ...state.selection, anchor: up(state.selection.anchor) } : null;
  const kept = { ...state, match: match && match.line >= 0 ? match : null, cursor: up(state.cursor), selection };
  // At the live bottom the view follows the output, the cursor keeps its row on the screen; while
  // something is selected the view holds still, as it does once scrolled back.
  if (state.offset === 0 && !selection) {
    const row = state.cursor.line - (state.lengthAt - source.rows);
    return { ...kept, cursor: { line: Math.max(0, source.bufferLength - source.rows + row), col: state.cursor.col }, scrolledAt: source.scrolledLines, lengthAt: source.bufferLength };
  }
  return move(kept, source, scrolled);
}

/** After a key: the new state, a note for the status line, or leaving the scroll view (with what
 * to copy, after `y`). */

/** A key in the scroll view. */
export function scrollKey(state: ScrollState, key: string, source: ScrollSource): ScrollKeyResult {
  if (state.typing !== null) return typingKey(state, key, source);
  // The cursor, the selection and the moving keys (copy-mode.ts); Esc cancels a selection first.
  const copied = copyKey(state, key, source);
  if (copied) return copied;
  switch (key) {
    case 'escape':
    case 'q':
    case '[':
      return { exit: true };
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
    const from = columnOf(source.lineText(line), at);
    // The cursor goes to the match (extending a selection, if there is one).
    const found = { ...state, query, offset, scrolledAt: source.scrolledLines, lengthAt: source.bufferLength, match: { line, from, to: columnOf(source.lineText(line), at + needle.length) }, cursor: { line, col: from } };
    return { state: reveal(found, source) };
  }
  return { note: `"${query}" not found ${direction === 'up' ? 'above' : 'below'}`, state: { ...state, query } };
}

/** The cell column of a string index (wide glyphs are two columns in the terminal, one here:
 * close enough to place a highlight on text that is mostly narrow). */
function columnOf(text: string, index: number): number {
  return Array.from(text.slice(0, index)).length;
}

/** The tile's screen as the scroll view shows it: `offset` lines up, the match and the selection
 * in reverse video, the cursor a reversed, underlined cell. */
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
      const match = state.match && state.match.line === index ? state.match : null;
      const range = selectionRange(state);
      const selected = range && index >= range.from.line && index <= range.to.line ? selectedColumns(range, index) : null;
      const cursor = state.cursor.line === index ? state.cursor.col : null;
      if (!match && !selected && cursor === null) return row;
      return mark(row, (col) => {
        if (col === cursor) return 'cursor';
        return (selected && col >= selected.from && col < selected.to) || (match && col >= match.from && col < match.to) ? 'reverse' : 'none';
      });
    },
  };
}

/** The columns [from, to) of line `index` that a selection covers. */
function selectedColumns(range: CopyRange, index: number): { from: number; to: number } {
  if (range.kind === 'line') return { from: 0, to: Infinity };
  return { from: index === range.from.line ? range.from.col : 0, to: index === range.to.line ? range.to.col + 1 : Infinity };
}

type Mark = 'none' | 'reverse' | 'cursor';
const MARK_RANK: Record<Mark, number> = { none: 0, reverse: 1, cursor: 2 };

/** The row with each cell restyled by its mark: reversed (a match, a selection), or the cursor (reverse
 * video, underlined). A wide glyph or cluster is one cell group and takes the strongest mark of its
 * columns, so an edge never cuts it. */
function mark(row: StyledRow, markAt: (col: number) => Mark): StyledRow {
  const runs: StyledRun[] = [];
  const styled = (run: StyledRun, m: Mark): StyledRun =>
    m === 'none' ? run : { ...run, style: m === 'cursor' ? { ...run.style, inverse: true, underline: true } : { ...run.style, inverse: !run.style.inverse } };
  let x = 0;
  for (const run of row.runs) {
    const chars = Array.from(run.text);
    if (run.isolated || chars.length !== run.width) {
      let m: Mark = 'none';
      for (let c = x; c < x + run.width; c++) if (MARK_RANK[markAt(c)] > MARK_RANK[m]) m = markAt(c);
      runs.push(styled(run, m));
    } else {
      // One code point per cell: consecutive cells with the same mark stay one run.
      let start = 0;
      for (let i = 1; i <= chars.length; i++) {
        if (i < chars.length && markAt(x + i) === markAt(x + start)) continue;
        const text = chars.slice(start, i).join('');
        runs.push(styled({ ...run, text, width: i - start }, markAt(x + start)));
        start = i;
      }
    }
    x += run.width;
  }
  return { runs };
}
