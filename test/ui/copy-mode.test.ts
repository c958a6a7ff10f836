/**
 * Copy mode in the scroll view: the cursor and the selection keys, the text a selection copies
 * (soft-wrapped rows joined, trailing blanks trimmed, bounded), the OSC 52 bytes (wrapped for tmux
 * and screen), how the view shows it, and the reducer's effects for keys and the mouse.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { clipboardSequence, copiedNote, copyKey, MAX_COPY_BYTES, osc52, scrollBy, selectionRange, selectionSummary, selectionText } from '../../src/ui/copy-mode.js';
import type { CopyRange, TextSource } from '../../src/ui/copy-mode.js';
import { follow, scrollbackView, scrollKey, startScroll } from '../../src/ui/scroll.js';
import type { ScrollKeyResult, ScrollSource, ScrollState } from '../../src/ui/scroll.js';
import { statusLinePlain, statusLineText } from '../../src/ui/status-line-text.js';
import type { StatusFacts } from '../../src/ui/status-line-text.js';
import { handleInput, INITIAL_UI } from '../../src/ui/ui-state.js';
import type { InputContext, UiState } from '../../src/ui/ui-state.js';
import { layout } from '../../src/ui/layout.js';
import { parseInput, INITIAL_PARSER } from '../../src/ui/input-parser.js';
import { Owned, feed } from '../session/helpers.js';

/** A buffer of the given lines, `rows` of them on the screen. */
function source(lines: readonly string[], rows = 5, wrapped: ReadonlySet<number> = new Set(), cols = 20): ScrollSource & TextSource {
  return {
    rows,
    cols,
    bufferLength: lines.length,
    scrolledLines: Math.max(0, lines.length - rows),
    lineText: (i) => lines[i] ?? '',
    isWrapped: (i) => wrapped.has(i),
  };
}

const numbered = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`);

function keys(state: ScrollState, src: ScrollSource, ...names: string[]): ScrollState {
  for (const name of names) {
    const r = scrollKey(state, name, src);
    if ('exit' in r) throw new Error(`exited at ${name}`);
    state = r.state;
  }
  return state;
}

function last(state: ScrollState, src: ScrollSource, name: string): ScrollKeyResult {
  return scrollKey(state, name, src);
}

describe('the cursor and the selection keys', () => {
  const src = source(numbered(100), 10);

  it('opens with the cursor on the top row of the view; k there scrolls, j moves down the screen', () => {
    let s = startScroll(1, src, false);
    expect(s.cursor).toEqual({ line: 90, col: 0 });
    s = keys(s, src, 'j', 'j');
    expect([s.cursor.line, s.offset]).toEqual([92, 0]);
    s = keys(s, src, 'k', 'k', 'k');
    expect([s.cursor.line, s.offset]).toEqual([89, 1]);
    // A page moves the view and the cursor together.
    s = keys(s, src, 'pageup');
    expect([s.cursor.line, s.offset]).toEqual([80, 10]);
    s = keys(s, src, 'pagedown', 'pagedown');
    expect([s.cursor.line, s.offset]).toEqual([98, 0]);
    s = keys(s, src, 'g');
    expect([s.cursor, s.offset]).toEqual([{ line: 0, col: 0 }, 90]);
    s = keys(s, src, 'G');
    expect([s.cursor, s.offset]).toEqual([{ line: 99, col: 0 }, 0]);
  });

  it('moves along the line: h l stop at its ends, 0 and $ jump to them', () => {
    let s = keys(startScroll(1, src, false), src, 'l', 'l', 'right');
    expect(s.cursor.col).toBe(3);
    s = keys(s, src, '$');
    expect(s.cursor.col).toBe('line 91'.length - 1);
    s = keys(s, src, 'l');
    expect(s.cursor.col).toBe(6);
    s = keys(s, src, '0', 'h', 'left');
    expect(s.cursor.col).toBe(0);
  });

  it('V j y copies two whole lines and leaves; v, then moving, selects characters', () => {
    const start = keys(startScroll(1, src, false), src, 'G', 'k');
    const y = last(keys(start, src, 'V', 'j'), src, 'y');
    expect(y).toEqual({ exit: true, copy: { kind: 'line', from: { line: 98, col: 0 }, to: { line: 99, col: 0 } } });
    expect(selectionText(src, (y as { copy: CopyRange }).copy)).toEqual({ text: 'line 99\nline 100', lines: 2, cut: false });
    // Upward from the anchor: the range still starts first.
    const up = last(keys(start, src, 'l', 'l', 'v', 'k', 'k', 'l'), src, 'enter');
    expect(up).toEqual({ exit: true, copy: { kind: 'char', from: { line: 96, col: 3 }, to: { line: 98, col: 2 } } });
    expect(selectionText(src, (up as { copy: CopyRange }).copy).text).toBe('e 97\nline 98\nlin');
  });

  it('Esc cancels the selection, a second Esc leaves; v twice ends it, V turns it into lines', () => {
    const s = keys(startScroll(1, src, false), src, 'v', 'j');
    expect(s.selection).toMatchObject({ kind: 'char' });
    const cancelled = keys(s, src, 'escape');
    expect(cancelled.selection).toBeNull();
    expect(last(cancelled, src, 'escape')).toEqual({ exit: true });
    expect(keys(s, src, 'v').selection).toBeNull();
    expect(keys(s, src, 'V').selection).toMatchObject({ kind: 'line', anchor: { line: 90, col: 0 } });
    expect(last(cancelled, src, 'y')).toMatchObject({ note: 'nothing selected: v selects characters, V lines' });
  });

  it('a search moves the cursor to the match, so a selection can start there', () => {
    const s = keys(startScroll(1, src, false), src, '/', '4', '2', 'enter');
    expect(s.cursor).toEqual({ line: 41, col: 5 });
    expect(s.match).toMatchObject({ line: 41 });
  });

  it('the view follows new output at the bottom, and holds still while something is selected', () => {
    const s = startScroll(1, src, false);
    // Ten new lines, the scrollback full (the length stays): every index moved up by ten.
    const later = { ...src, scrolledLines: src.scrolledLines + 10 };
    const followed = follow(s, later);
    expect([followed.offset, followed.cursor.line]).toEqual([0, 90]);
    const selecting = keys(s, src, 'V');
    const held = follow(selecting, later);
    expect(held.offset).toBe(10);
    expect(held.cursor.line).toBe(80);
    expect(held.selection?.anchor.line).toBe(80);
  });

  it('the wheel moves the view and keeps the cursor inside it', () => {
    const s = startScroll(1, src, false);
    const up = scrollBy(s, src, 3);
    expect([up.offset, up.cursor.line]).toEqual([3, 90]);
    const down = scrollBy(up, src, -3);
    expect([down.offset, down.cursor.line]).toEqual([0, 90]);
    const top = scrollBy(keys(s, src, 'G'), src, 3);
    // The cursor was on the bottom row: it stays on the last row still shown.
    expect(top.cursor.line).toBe(96);
  });

  it('says what is selected for the status line', () => {
    const s = keys(startScroll(1, src, false), src, 'V', 'j', 'j');
    expect(selectionSummary(s)).toEqual({ kind: 'line', lines: 3 });
    expect(selectionRange(s)).toEqual({ kind: 'line', from: { line: 90, col: 0 }, to: { line: 92, col: 0 } });
    expect(selectionSummary(startScroll(1, src, false))).toBeNull();
  });

  it('every key but the copy keys is left to the scroll view', () => {
    const s = startScroll(1, src, false);
    for (const key of ['/', 'n', 'N', 'q', '[', 'x']) expect(copyKey(s, key, src)).toBeNull();
    expect(copyKey(s, 'escape', src)).toBeNull();
  });
});

describe('the text of a selection', () => {
  it("joins the rows of a program's long line, keeping the blank at the wrap, and trims each line's end", () => {
    // A 10-column screen: "hello big world" wrapped after "hello big " (the blank is the last cell).
    const src = source(['prompt $ x   ', 'hello big', 'world', 'next   ', '', 'end'], 3, new Set([2]), 10);
    const all: CopyRange = { kind: 'line', from: { line: 0, col: 0 }, to: { line: 5, col: 0 } };
    expect(selectionText(src, all)).toEqual({ text: 'prompt $ x\nhello big world\nnext\n\nend', lines: 5, cut: false });
    // Characters from the middle of the first row to the middle of its continuation.
    expect(selectionText(src, { kind: 'char', from: { line: 1, col: 6 }, to: { line: 2, col: 2 } }).text).toBe('big wor');
  });

  it('keeps wide glyphs whole at the edges of a character selection', () => {
    const src = source(['ab界cd'], 1, new Set(), 10);
    // Columns 3..4 are the right half of 界 and c.
    expect(selectionText(src, { kind: 'char', from: { line: 0, col: 3 }, to: { line: 0, col: 4 } }).text).toBe('界c');
    expect(selectionText(src, { kind: 'char', from: { line: 0, col: 0 }, to: { line: 0, col: 1 } }).text).toBe('ab');
  });

  it(`copies at most ${MAX_COPY_BYTES} bytes and says it cut the rest`, () => {
    const src = source(Array.from({ length: 20 }, () => 'x'.repeat(9)), 5);
    const range: CopyRange = { kind: 'line', from: { line: 0, col: 0 }, to: { line: 19, col: 0 } };
    // 9 + 1 + 9 bytes, then a newline and as much of the third line as fits.
    expect(selectionText(src, range, 25)).toEqual({ text: 'xxxxxxxxx\nxxxxxxxxx\nxxxxx', lines: 3, cut: true });
    expect(copiedNote(selectionText(src, range, 25))).toMatch(/^copied the first \d+ KiB \(3 lines\) to the clipboard: the rest was cut$/);
    expect(copiedNote(selectionText(src, range))).toBe('copied 20 lines to the clipboard');
    expect(copiedNote({ text: 'abc', lines: 1, cut: false })).toBe('copied 3 characters to the clipboard');
    // The bound holds a big copy under tmux's 1 MiB limit for one escape sequence.
    expect(osc52('x'.repeat(MAX_COPY_BYTES)).length).toBeLessThan(1 << 20);
  });
});

describe('OSC 52', () => {
  it('is ESC ] 52 ; c ; base64 BEL, and inside tmux also wrapped in its passthrough', () => {
    expect(osc52('hi ✓')).toBe(`\x1b]52;c;${Buffer.from('hi ✓').toString('base64')}\x07`);
    expect(osc52('hi')).toBe('\x1b]52;c;aGk=\x07');
    expect(clipboardSequence('hi', null)).toBe('\x1b]52;c;aGk=\x07');
    expect(clipboardSequence('hi', 'tmux')).toBe('\x1b]52;c;aGk=\x07\x1bPtmux;\x1b\x1b]52;c;aGk=\x07\x1b\\');
  });

  it('goes through screen in DCS pieces small enough for it', () => {
    const text = 'y'.repeat(300);
    const seq = clipboardSequence(text, 'screen');
    const pieces = seq.split('\x1b\\').filter((p) => p !== '');
    expect(pieces.every((p) => p.startsWith('\x1bP') && p.length <= 80)).toBe(true);
    expect(pieces.map((p) => p.slice(2)).join('')).toBe(osc52(text));
  });
});

const owned = new Owned();
afterEach(() => owned.disposeAll());

describe('the scroll view shows the selection and the cursor', () => {
  it('reverses the selected cells and marks the cursor (reversed and underlined)', async () => {
    const screen = owned.screen({ cols: 20, rows: 4, scrollback: 100 });
    await feed(screen, Array.from({ length: 10 }, (_, i) => `row ${i + 1}`).join('\r\n'));
    let state = startScroll(1, screen, false);
    state = keys(state, screen, 'l', 'l', 'v', 'j', 'l');
    const view = scrollbackView(screen, state);
    const reversed = (y: number) => view.styledRow(y).runs.filter((r) => r.style.inverse).map((r) => r.text).join('');
    const cursor = (y: number) => view.styledRow(y).runs.filter((r) => r.style.underline).map((r) => r.text).join('');
    // The view shows rows 7–10; the selection runs from row 7's column 2 to row 8's column 3.
    expect(reversed(0)).toBe('w 7' + ' '.repeat(15));
    expect(reversed(1)).toBe('row ');
    expect(cursor(1)).toBe(' ');
    expect(reversed(2)).toBe('');
    const lines = scrollbackView(screen, keys(state, screen, 'V'));
    expect(lines.styledRow(0).runs.filter((r) => r.style.inverse).map((r) => r.text).join('')).toBe('row 7' + ' '.repeat(15));
  });
});

describe('the reducer: keys and the mouse copy', () => {
  const lines = numbered(60);
  const src = { ...source(lines, 10), alternate: false };
  const tiles = [{ id: 1, name: 'sh', state: 'idle' as const, sinceMs: 0 }];
  const l = layout({ cols: 80, rows: 24, count: 1 });
  const shown = l.kind === 'grid' ? l.tiles : [];
  const ctx: InputContext = { now: 0, tiles, grid: shown, shown, escapeKey: 'ctrl-\\', scrollSource: src };
  const body = shown[0]!.body;

  function press(state: UiState, data: string) {
    const { events } = parseInput(INITIAL_PARSER, data);
    let step = { state, effects: [] as ReturnType<typeof handleInput>['effects'] };
    for (const event of events) {
      const next = handleInput(step.state, event, ctx);
      step = { state: next.state, effects: [...step.effects, ...next.effects] };
    }
    return step;
  }

  it('[ V j y: a copy effect for the two lines, and the scroll view closes', () => {
    const opened = press(INITIAL_UI, '[');
    expect(opened.state.scroll?.cursor).toEqual({ line: 50, col: 0 });
    const done = press(opened.state, 'Vjy');
    expect(done.state.scroll).toBeNull();
    expect(done.effects).toEqual([{ type: 'copy', tileId: 1, range: { kind: 'line', from: { line: 50, col: 0 }, to: { line: 51, col: 0 } } }]);
  });

  it('a press, a drag and a release in the scroll view select and copy; a click only moves the cursor', () => {
    const opened = press(INITIAL_UI, '[').state;
    const at = (x: number, y: number, end: 'M' | 'm', code = 0) => `\x1b[<${code};${body.x + x + 1};${body.y + y + 1}${end}`;
    const pressed = press(opened, at(2, 1, 'M'));
    expect(pressed.state.scroll?.selection).toMatchObject({ kind: 'char', anchor: { line: 51, col: 2 }, mouse: true });
    const dragged = press(pressed.state, at(4, 3, 'M', 32));
    expect(dragged.state.scroll?.cursor).toEqual({ line: 53, col: 4 });
    const released = press(dragged.state, at(3, 2, 'm'));
    expect(released.state.scroll).toBeNull();
    expect(released.effects).toEqual([{ type: 'copy', tileId: 1, range: { kind: 'char', from: { line: 51, col: 2 }, to: { line: 52, col: 3 } } }]);
    const clicked = press(press(opened, at(5, 4, 'M')).state, at(5, 4, 'm'));
    expect(clicked.effects).toEqual([]);
    expect(clicked.state.scroll?.selection).toBeNull();
    expect(clicked.state.scroll?.cursor).toEqual({ line: 54, col: 5 });
  });
});

describe('the status line while selecting', () => {
  const facts = (width: number, select: { kind: 'char' | 'line'; lines: number }, note: string | null = null): StatusFacts => ({
    width,
    states: ['idle'],
    mode: 'grid',
    focusedName: '1 a-long-tile-name',
    zoomed: false,
    escapeKey: 'ctrl-\\',
    note,
    scroll: { offset: 3, length: 100, typing: null, select },
  });

  it('says SELECT and how many lines, with y copy · Esc cancel at every width from 40', () => {
    expect(statusLinePlain(statusLineText(facts(100, { kind: 'line', lines: 2 })))).toMatch(/^ SELECT LINES 1 a-long-tile-name · 2 lines +y copy · Esc cancel $/);
    expect(statusLineText(facts(100, { kind: 'char', lines: 1 })).label).toBe(' SELECT 1 a-long-tile-name · 1 line');
    for (let width = 40; width <= 120; width++) {
      const line = statusLineText(facts(width, { kind: 'line', lines: 12 }, 'copied 3 lines to the clipboard'));
      expect(line.hints).toBe('y copy · Esc cancel');
      expect(statusLinePlain(line).length).toBe(width);
    }
    for (let width = 0; width < 40; width++) expect(statusLinePlain(statusLineText(facts(width, { kind: 'char', lines: 3 }))).length).toBeLessThanOrEqual(width);
  });
});
