/**
 * The body writer against a real terminal: paint a tile's screen, feed the bytes to a second
 * headless xterm standing in for the user's terminal, and compare cell by cell.
 */
import { afterEach, describe, expect, it } from 'vitest';
import xterm from '@xterm/headless';
import unicode11 from '@xterm/addon-unicode11';
import type { IBufferCell, Terminal as XtermTerminal } from '@xterm/headless';
import { useScreenWidths } from '../../src/session/cell-width.js';
import { BodyWriter, slice } from '../../src/ui/body-writer.js';
import type { Rect } from '../../src/ui/layout.js';
import { Owned, feed } from '../session/helpers.js';

const { Terminal } = xterm;

const owned = new Owned();
const terminals: XtermTerminal[] = [];
afterEach(() => {
  owned.disposeAll();
  for (const t of terminals.splice(0)) t.dispose();
});

/** The user's terminal: a headless xterm that parses what belltower writes. By default it measures
 * as the tiles' screens do (and as tmux does: an emoji sequence joined by ZWJs is one cell). With
 * `unicode: '6'` it measures newer emoji as one column where the tiles' screens say two, and with
 * `'11'` it draws 👨‍👩‍👧 as three pictures (six columns): terminals that disagree. */
function userTerminal(cols: number, rows: number, unicode: '6' | '11' | 'screen' = 'screen'): XtermTerminal {
  const term = new Terminal({ cols, rows, allowProposedApi: true, logLevel: 'off' });
  if (unicode === 'screen') {
    useScreenWidths(term);
  } else {
    term.loadAddon(new unicode11.Unicode11Addon());
    term.unicode.activeVersion = unicode;
  }
  terminals.push(term);
  return term;
}

function write(term: XtermTerminal, data: string): Promise<void> {
  return new Promise((resolve) => term.write(data, resolve));
}

interface CellFacts {
  chars: string;
  width: number;
  fg: string;
  bg: string;
  flags: string;
}

function cellFacts(cell: IBufferCell): CellFacts {
  return {
    chars: cell.getChars() || ' ',
    width: cell.getWidth(),
    fg: `${cell.getFgColorMode()}:${cell.getFgColor()}`,
    bg: `${cell.getBgColorMode()}:${cell.getBgColor()}`,
    flags: [cell.isBold(), cell.isDim(), cell.isItalic(), cell.isUnderline(), cell.isInverse(), cell.isStrikethrough()].map((f) => (f ? 1 : 0)).join(''),
  };
}

/** Cells of `rows`×`cols` starting at (x, y) of a terminal's active buffer. */
function cells(term: XtermTerminal, x: number, y: number, cols: number, rows: number): CellFacts[][] {
  const buffer = term.buffer.active;
  const scratch = buffer.getNullCell();
  return Array.from({ length: rows }, (_, r) =>
    Array.from({ length: cols }, (_, c) => cellFacts(buffer.getLine(buffer.viewportY + y + r)!.getCell(x + c, scratch)!)),
  );
}

/** What the tile's program drew, as a plain xterm of the tile's size shows it: the expectation. */
async function drawnBy(data: string, cols: number, rows: number): Promise<CellFacts[][]> {
  const twin = userTerminal(cols, rows);
  await write(twin, data);
  return cells(twin, 0, 0, cols, rows);
}

const COLOURFUL = [
  '\x1b[1mbold\x1b[0m \x1b[2mdim\x1b[0m \x1b[3mitalic\x1b[0m \x1b[4munder\x1b[0m \x1b[7minv\x1b[0m \x1b[9mstrike\x1b[0m',
  '\x1b[31mred\x1b[0m \x1b[92mbright green\x1b[0m \x1b[38;5;208morange256\x1b[0m \x1b[38;2;10;200;30mtruecolor\x1b[0m',
  '\x1b[44mblue bg\x1b[0m \x1b[48;5;22mbg256\x1b[0m \x1b[48;2;250;100;0mbgrgb\x1b[0m end',
  '日本語テキスト 한국어 ✅ 🚀 ❤️ ⚠️ x',
  '👨‍👩‍👧 family then text',
].join('\r\n');

describe('BodyWriter', () => {
  it('reads again only the rows whose cells changed when a program redraws its whole frame, and still paints every change', async () => {
    const screen = owned.screen({ cols: 30, rows: 4 });
    // Ink's way: every line erased and written again, one of them different.
    const frame = (count: number, accent: string) => '\x1b[H' + ['\x1b[1mheader\x1b[0m', `count ${count}`, `accent cafe${accent} x`, '\x1b[34mfooter\x1b[0m'].map((l) => `\x1b[2K${l}`).join('\r\n');
    await feed(screen, frame(1, '\u0301'));
    const reads: number[] = [];
    const counted = {
      get cols() { return screen.cols; },
      get rows() { return screen.rows; },
      get generation() { return screen.generation; },
      styledRow: (y: number, options?: Parameters<typeof screen.styledRow>[1]) => (reads.push(y), screen.styledRow(y, options)),
      rowWords: (y: number) => screen.rowWords(y),
    };
    const rect: Rect = { x: 0, y: 0, width: 30, height: 4 };
    const user = userTerminal(30, 4);
    const writer = new BodyWriter('truecolor');
    await write(user, writer.paint({ bodies: [{ key: 1, rect, screen: counted }] }));
    expect(reads).toEqual([0, 1, 2, 3]);

    reads.length = 0;
    await feed(screen, frame(2, '\u0301'));
    await write(user, writer.paint({ bodies: [{ key: 1, rect, screen: counted }] }));
    // Row 2 holds a cluster (e and a combining accent), which xterm keeps outside the words: read.
    expect(reads).toEqual([1, 2]);
    expect(cells(user, 0, 0, 30, 4)).toEqual(await drawnBy(frame(2, '\u0301'), 30, 4));

    // Only the combining accent changes: the words would say nothing, and the row is repainted.
    await feed(screen, frame(2, '\u0300'));
    await write(user, writer.paint({ bodies: [{ key: 1, rect, screen: counted }] }));
    expect(user.buffer.active.getLine(2)!.translateToString(true).trimEnd()).toBe('accent cafe\u0300 x');
  });

  it('paints a screen cell for cell into its rectangle: text, colours, attributes, wide glyphs', async () => {
    const screen = owned.screen({ cols: 40, rows: 6 });
    await feed(screen, COLOURFUL);
    const rect: Rect = { x: 5, y: 2, width: 40, height: 6 };
    const user = userTerminal(60, 12);
    const writer = new BodyWriter('truecolor');
    await write(user, writer.paint({ bodies: [{ key: 1, rect, screen }] }));
    expect(cells(user, rect.x, rect.y, 40, 6)).toEqual(await drawnBy(COLOURFUL, 40, 6));
  });

  it('keeps text in its column next to emoji the user\'s terminal measures differently', async () => {
    const left = owned.screen({ cols: 20, rows: 2 });
    const right = owned.screen({ cols: 20, rows: 2 });
    await feed(left, '🚀🚀🚀🚀 after\r\n✅ ok');
    await feed(right, 'RIGHT TILE TEXT');
    const user = userTerminal(42, 2, '6');
    const writer = new BodyWriter('truecolor');
    await write(
      user,
      writer.paint({
        bodies: [
          { key: 1, rect: { x: 0, y: 0, width: 20, height: 2 }, screen: left },
          { key: 2, rect: { x: 21, y: 0, width: 20, height: 2 }, screen: right },
        ],
      }),
    );
    expect(user.buffer.active.getLine(0)!.translateToString(true, 21, 41).trimEnd()).toBe('RIGHT TILE TEXT');
    // The tiles' screen puts "after" at column 9 (four 2-column rockets and a space).
    expect(user.buffer.active.getLine(0)!.translateToString(true, 9, 14)).toBe('after');
    expect(user.buffer.active.getLine(1)!.translateToString(true, 3, 5)).toBe('ok');
  });

  it('paints an emoji sequence joined by ZWJs in the two columns the screen gives it, as tmux does', async () => {
    // `printf '👨‍👩‍👧 x'` in a plain tmux pane puts x at column 3: the family is one picture of two
    // columns. The tile's screen must say the same, and the row be painted so.
    const screen = owned.screen({ cols: 20, rows: 2 });
    await feed(screen, '👨‍👩‍👧 x\r\n🏳️‍🌈 y 👍🏽 z');
    // tmux's rule exactly: a cell keeps its first character's width (🏳️ is one column), and a skin
    // tone, which no joiner joins, stays a picture of its own (👍🏽 is four columns in tmux too).
    expect(screen.cursor).toEqual({ x: 10, y: 1 });
    const row = screen.styledRow(0, { isolateClusters: true });
    expect(row.runs[0]).toMatchObject({ text: '👨‍👩‍👧', width: 2, isolated: true });
    const rect: Rect = { x: 4, y: 1, width: 20, height: 2 };
    const other = owned.screen({ cols: 10, rows: 2 });
    await feed(other, 'NEIGHBOUR');
    for (const unicode of ['screen', '11'] as const) {
      const user = userTerminal(40, 4, unicode);
      const writer = new BodyWriter('truecolor');
      await write(user, writer.paint({ bodies: [{ key: 1, rect, screen }, { key: 2, rect: { x: 25, y: 1, width: 10, height: 2 }, screen: other }] }));
      const line = user.buffer.active.getLine(1)!;
      // x where tmux puts it, whether the user's terminal joins the sequence or not.
      expect(line.getCell(rect.x + 3)!.getChars(), unicode).toBe('x');
      expect(line.translateToString(true, 25, 35).trimEnd(), unicode).toBe('NEIGHBOUR');
      if (unicode === 'screen') {
        // Exactly the columns the screen's buffer gives it: one cell of two at the body's left edge.
        expect(line.getCell(rect.x)!.getChars()).toBe('👨‍👩‍👧');
        expect(line.getCell(rect.x)!.getWidth()).toBe(2);
        expect(cells(user, rect.x, rect.y, 20, 2)).toEqual(await drawnBy('👨‍👩‍👧 x\r\n🏳️‍🌈 y 👍🏽 z', 20, 2));
      }
    }
  });

  it('paints no joiner at the end of a cell, which would pull the next glyph into that cell', async () => {
    // A colour change between 👨‍ and 👩: two cells on the screen (xterm joins only within text),
    // one in tmux, which joins across escape sequences and cursor moves.
    const screen = owned.screen({ cols: 20, rows: 1 });
    await feed(screen, '👨\u200d\x1b[31m👩\x1b[0m x');
    expect(screen.styledRow(0, { isolateClusters: true }).runs.slice(0, 2).map((r) => [r.text, r.width])).toEqual([
      ['👨\u200d', 2],
      ['👩', 2],
    ]);
    const bytes = new BodyWriter('truecolor').paint({ bodies: [{ key: 1, rect: { x: 0, y: 0, width: 20, height: 1 }, screen }] });
    expect(bytes).toContain('👨');
    expect(bytes).not.toContain('\u200d');
  });

  it('writes nothing when nothing changed, and only the changed row when one did', async () => {
    const screen = owned.screen({ cols: 30, rows: 5 });
    await feed(screen, 'one\r\ntwo\r\nthree');
    const writer = new BodyWriter('truecolor');
    const body = { key: 1, rect: { x: 0, y: 0, width: 30, height: 5 }, screen };
    expect(writer.paint({ bodies: [body] })).not.toBe('');
    expect(writer.paint({ bodies: [body] })).toBe('');
    // A redraw that leaves the text as it was (as Ink-style agents do) is not a change.
    await feed(screen, '\x1b[H\x1b[2Kone');
    expect(writer.paint({ bodies: [body] })).toBe('');
    await feed(screen, '\x1b[2;1H\x1b[2KTWO');
    const bytes = writer.paint({ bodies: [body] });
    expect(bytes.startsWith('\x1b[2;1H')).toBe(true);
    expect(bytes.match(/\x1b\[\d+;\d+H/g)).toHaveLength(1);
    expect(bytes).toContain('TWO');
  });

  it('repaints the body segments of lines someone else overwrote', async () => {
    const screen = owned.screen({ cols: 10, rows: 3 });
    await feed(screen, 'aaa\r\nbbb\r\nccc');
    const writer = new BodyWriter('truecolor');
    const body = { key: 1, rect: { x: 2, y: 4, width: 10, height: 3 }, screen };
    writer.paint({ bodies: [body] });
    const bytes = writer.paint({ bodies: [body], forcedLines: new Set([5, 9]) });
    expect(bytes.match(/\x1b\[(\d+);(\d+)H/g)).toEqual(['\x1b[6;3H']);
    expect(bytes).toContain('bbb');
  });

  it('never paints under an overlay, and restores the rows once it closes', async () => {
    const screen = owned.screen({ cols: 20, rows: 4 });
    await feed(screen, 'XXXXXXXXXXXXXXXXXXXX\r\nXXXXXXXXXXXXXXXXXXXX\r\nXXXXXXXXXXXXXXXXXXXX\r\nXXXXXXXXXXXXXXXXXXXX');
    const user = userTerminal(20, 4);
    await write(user, '\x1b[2;6HOVERLAY');
    const writer = new BodyWriter('truecolor');
    const body = { key: 1, rect: { x: 0, y: 0, width: 20, height: 4 }, screen };
    const overlay: Rect = { x: 5, y: 1, width: 7, height: 1 };
    await write(user, writer.paint({ bodies: [body], occluded: [overlay] }));
    expect(user.buffer.active.getLine(1)!.translateToString(true)).toBe('XXXXXOVERLAYXXXXXXXX');
    expect(user.buffer.active.getLine(0)!.translateToString(true)).toBe('X'.repeat(20));
    await write(user, writer.paint({ bodies: [body] }));
    expect(user.buffer.active.getLine(1)!.translateToString(true)).toBe('X'.repeat(20));
  });

  it('clips a screen larger than its body and blanks what a smaller one does not cover', async () => {
    const screen = owned.screen({ cols: 12, rows: 4 });
    await feed(screen, 'abcdefghijkl\r\nsecond');
    const user = userTerminal(20, 6);
    await write(user, 'Z'.repeat(120));
    const writer = new BodyWriter('truecolor');
    await write(user, writer.paint({ bodies: [{ key: 1, rect: { x: 0, y: 0, width: 8, height: 6 }, screen }] }));
    const line = (y: number) => user.buffer.active.getLine(y)!.translateToString(false, 0, 9);
    expect(line(0)).toBe('abcdefghZ');
    expect(line(1)).toBe('second  Z');
    expect(line(5)).toBe('        Z');
  });

  it('brings truecolor down to the 256 palette, and 256 down to 16', async () => {
    const screen = owned.screen({ cols: 20, rows: 1 });
    await feed(screen, '\x1b[38;2;255;135;0mA\x1b[38;5;196mB');
    const as256 = new BodyWriter('ansi256').paint({ bodies: [{ key: 1, rect: { x: 0, y: 0, width: 20, height: 1 }, screen }] });
    expect(as256).toContain('38;5;208mA'); // #ff8700 is cube colour 208 exactly
    expect(as256).not.toContain('38;2;');
    const as16 = new BodyWriter('ansi16').paint({ bodies: [{ key: 1, rect: { x: 0, y: 0, width: 20, height: 1 }, screen }] });
    expect(as16).not.toMatch(/38;[25];/);
    expect(as16).toContain(';91mB'); // 196 (#ff0000) is bright red
  });
});

describe('slice', () => {
  it('blanks a wide glyph cut by an edge', () => {
    const style = { fg: { kind: 'default' }, bg: { kind: 'default' }, bold: false, dim: false, italic: false, underline: false, inverse: false, strikethrough: false, invisible: false } as const;
    const row = { runs: [{ text: 'ab', width: 2, style }, { text: '日', width: 2, style, isolated: true }, { text: 'cd', width: 2, style }] };
    expect(slice(row, 1, 5).runs.map((r) => r.text).join('')).toBe('b日c');
    expect(slice(row, 3, 6).runs.map((r) => r.text).join('')).toBe(' cd');
    expect(slice(row, 0, 8).runs.map((r) => r.text).join('')).toBe('ab日cd  ');
  });
});
