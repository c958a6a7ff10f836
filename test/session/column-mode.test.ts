/**
 * DECCOLM (CSI ? 3 h / l) clears the screen and homes the cursor, as tmux does (input.c): vttest's
 * first screens switch column mode between pages and kept the last page's box under the next
 * (issue 29). The screen keeps its size.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Owned, feed } from './helpers.js';

const owned = new Owned();
afterEach(() => owned.disposeAll());

const ESC = '\x1b';
const BOX = `${ESC}[2;2H+--+${ESC}[3;2H|  |${ESC}[4;2H+--+`;

describe('DECCOLM', () => {
  it.each(['h', 'l'])('CSI ? 3 %s clears the screen and homes the cursor, in stream order', async (final) => {
    const screen = owned.screen({ cols: 20, rows: 5 });
    await feed(screen, `${BOX}${ESC}[?3${final}new`);
    expect(screen.rowTexts()).toEqual(['new', '', '', '', '']);
    expect(screen.cursor).toEqual({ x: 3, y: 0 });
    expect([screen.cols, screen.rows]).toEqual([20, 5]);
  });

  it('clears in the current background and, in origin mode, homes to the scroll region', async () => {
    const screen = owned.screen({ cols: 10, rows: 6 });
    await feed(screen, `${BOX}${ESC}[3;5r${ESC}[?6h${ESC}[44m${ESC}[?3h`);
    expect(screen.rowTexts().every((row) => row === '')).toBe(true);
    expect(screen.cursor).toEqual({ x: 0, y: 2 });
    expect(screen.styledRow(0).runs[0]!.style.bg).toEqual({ kind: 'ansi16', index: 4 });
  });

  it('the other modes in the same sequence still apply', async () => {
    const screen = owned.screen({ cols: 10, rows: 3 });
    await feed(screen, `${BOX}${ESC}[?3;1h`);
    expect(screen.rowTexts()).toEqual(['', '', '']);
    expect(screen.inputModes.applicationCursorKeys).toBe(true);
  });
});
