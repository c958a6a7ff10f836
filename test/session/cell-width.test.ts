/**
 * The columns a tile's screen gives what its program prints: Unicode 11 widths, and tmux 3.3's
 * rule for zero-width joiners. Every expectation below is where tmux 3.3a put the `|` after the
 * same bytes in a plain pane (`printf '…|'`, then `#{cursor_x}`).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Owned, feed } from './helpers.js';

const owned = new Owned();
afterEach(() => owned.disposeAll());

/** The column of the `|` after `text` on a fresh screen. */
async function barAfter(text: string): Promise<number> {
  const screen = owned.screen({ cols: 30, rows: 2 });
  await feed(screen, `${text}|`);
  return screen.rowText(0).indexOf('|') === -1 ? -1 : screen.cursor.x - 1;
}

describe('cell widths on a tile screen', () => {
  it.each([
    ['👨‍👩‍👧', 2], // a family: one picture, as wide as 👨
    ['👨‍👩‍👧 x', 4],
    ['🏳️‍🌈', 1], // as wide as 🏳️, which tmux and Unicode 11 draw in one column
    ['👨\u200d\u200d👩', 2],
    ['日\u200d本', 2], // tmux joins any character after a joiner, not only emoji
    ['a\u200d👩', 1],
    ['👨\u200da', 3], // but never an ASCII one
    ['a\u200db', 2],
    ['👨\u200d\u0301👩', 4], // a combining mark after the joiner ends the sequence
    ['👍🏽', 4], // no joiner: a skin tone is a picture of its own, in tmux too
    ['❤️', 1],
    ['🇯🇵', 2],
    ['日本', 4],
    ['🚀', 2],
  ])('%s takes %i columns, as in tmux', async (text, columns) => {
    expect(await barAfter(text)).toBe(columns);
  });

  it('keeps a sequence in one cell, with all its code points', async () => {
    const screen = owned.screen({ cols: 10, rows: 1 });
    await feed(screen, '👨‍👩‍👧 x');
    expect(screen.styledRow(0, { isolateClusters: true }).runs.map((run) => [run.text, run.width, run.isolated ?? false])).toEqual([
      ['👨‍👩‍👧', 2, true],
      [' x      ', 8, false],
    ]);
    expect(screen.rowText(0)).toBe('👨‍👩‍👧 x');
  });

  it('a sequence that does not fit at the right edge wraps whole, and one that fits stays on its line', async () => {
    const screen = owned.screen({ cols: 5, rows: 4 });
    await feed(screen, 'abcd👨‍👩‍👧|\r\nabc👨‍👩‍👧');
    expect(screen.rowTexts()).toEqual(['abcd', '👨‍👩‍👧|', 'abc👨‍👩‍👧', '']);
  });
});
