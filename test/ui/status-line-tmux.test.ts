/**
 * The status line in a real terminal (the built CLI in tmux, as in grid-tmux.test.ts): twenty demo
 * tiles at 80 columns, where the counts once ran into the key hints, and focus mode at 80 and at
 * 40 columns, where the way back to the grid must stay in sight.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closeAll, quitCleanly, start } from '../support/grid-session.js';
import { tmuxMissing } from '../support/tmux.js';

const built = existsSync(join(import.meta.dirname, '..', '..', 'dist', 'cli', 'main.js'));
afterEach(() => closeAll());

const ROWS = 24;
const NEEDS_YOU = /^\d+ (blocked|failed|done|unseen)$/;
const OTHER = /^\d+ (working|starting|idle|unknown|exited)$/;
const HINTS = ['n next', '⏎ focus', 'z zoom', 'z unzoom', 'w why', '? keys', 'q quit'];

const lastLine = (screen: string) => screen.split('\n')[ROWS - 1] ?? '';

describe.skipIf(tmuxMissing() !== null || !built)('the status line in a real terminal (tmux)', () => {
  it('20 demo tiles at 80 columns: whole counts, who needs you first, hints apart; focus keeps Ctrl+\\ back at 80 and 40', async () => {
    const { tmux, dir } = start(['demo', '--tiles', '20'], { cols: 80, rows: ROWS });
    const screen = await tmux.waitFor('a tile that needs you, on the status line', (s) => /\b\d+ (blocked|done|failed)\b/.test(lastLine(s)), 30_000);
    const line = lastLine(screen);
    // The left part and the hints, apart: at least two blanks between them.
    const match = /^ (.*?\S) {2,}(\S.*?) *$/.exec(line);
    expect(match, line).not.toBeNull();
    const [left, hints] = [match![1]!, match![2]!];
    for (const hint of hints.split(' · ')) expect(HINTS, line).toContain(hint);
    const items = left.split(' · ').filter((item) => !/^(belltower|\d+ tiles?)$/.test(item));
    // Every count whole (a cut one matches neither), and who needs you before the rest.
    for (const item of items) expect(NEEDS_YOU.test(item) || OTHER.test(item), `${item} in: ${line}`).toBe(true);
    const kinds = items.map((item) => (NEEDS_YOU.test(item) ? 'n' : 'o')).join('');
    expect(kinds, line).toMatch(/^n+o*$/);

    tmux.keys('Enter');
    // The line is redrawn in pieces tmux may show half done: wait for the redrawn line whole.
    const focused = await tmux.waitFor('focus mode with its way back', (s) => lastLine(s).includes('FOCUS') && / {2}Ctrl\+\\ back/.test(lastLine(s)));
    expect(lastLine(focused)).toMatch(/^ FOCUS /);
    tmux.resize(40, ROWS);
    // Redrawn for 40 columns: tmux reflows the old 80-column line into two, whose second half also
    // ends with the hint, so the redrawn line is the one that starts with FOCUS too.
    const narrow = await tmux.waitFor('focus mode at 40 columns', (s) => /^ FOCUS .* {2}Ctrl\+\\ back( to the grid)? ?$/.test(lastLine(s)));
    expect(lastLine(narrow)).toMatch(/^ FOCUS /);
    expect(lastLine(narrow).length).toBeLessThanOrEqual(40);

    tmux.keys('C-\\');
    await tmux.waitFor('back in the grid', (s) => !lastLine(s).includes('FOCUS'));
    tmux.resize(80, ROWS);
    await quitCleanly(tmux, dir);
  }, 90_000);
});
