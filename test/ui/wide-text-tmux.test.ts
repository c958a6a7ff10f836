/**
 * Wide text in a real terminal: the built CLI inside tmux, compared with what a plain tmux pane
 * shows for the same bytes. A ZWJ emoji sequence printed by a tile's program takes the columns
 * tmux gives it, and a tile named in CJK keeps its frame whole.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import stringWidth from 'string-width';
import { afterEach, describe, expect, it } from 'vitest';
import { closeAll, quitCleanly, start } from '../support/grid-session.js';
import { Tmux, tmuxMissing } from '../support/tmux.js';

const missing = tmuxMissing();
const run = promisify(execFile);
const bin = join(import.meta.dirname, '..', '..', 'bin', 'belltower.js');

const plainPanes: Tmux[] = [];
afterEach(() => {
  closeAll();
  for (const pane of plainPanes.splice(0)) pane.close();
});

// 👨‍👩‍👧 (man, ZWJ, woman, ZWJ, girl) in octal for sh's printf, then a space and the marker `x`,
// then `|` placed by absolute column (20): an anchor whose column no width can move.
const FAMILY = '\\360\\237\\221\\250\\342\\200\\215\\360\\237\\221\\251\\342\\200\\215\\360\\237\\221\\247';
const PRINTF = `printf '${FAMILY} x\\033[20G|\\n'`;

/** The display column of the `x` in the captured line holding `x` and the anchor: counted back
 * from the anchor (at column `anchor`) over the spaces between them, so that no width table of
 * ours decides it. */
function markerColumn(screen: string, anchor: number): number {
  const line = screen.split('\n').find((l) => / x +\|/.test(l));
  if (!line) throw new Error(`no marker line on the screen:\n${screen}`);
  const between = / x( +)\|/.exec(line)![1]!.length;
  return anchor - between - 1;
}

/** The display column of each frame corner in `line` (CJK and Hangul are two columns: tmux,
 * string-width and xterm agree on them). */
function cornerColumns(line: string): number[] {
  const columns: number[] = [];
  let column = 0;
  for (const ch of line) {
    if ('╭╮┏┓╔╗'.includes(ch)) columns.push(column);
    column += stringWidth(ch);
  }
  return columns;
}

/** The character at display column `column` of `line`. */
function charAt(line: string, column: number): string {
  let at = 0;
  for (const ch of line) {
    const w = stringWidth(ch);
    if (column < at + Math.max(1, w)) return ch;
    at += w;
  }
  return '';
}

describe.skipIf(missing !== null)('wide text in a real terminal (tmux)', () => {
  it('a ZWJ emoji sequence from a tile puts the text after it where a plain tmux pane does', async () => {
    const plain = new Tmux({ cols: 80, rows: 10, command: `${PRINTF}; exec sleep 600`, env: { ...process.env, TMUX: undefined } });
    plainPanes.push(plain);
    const plainScreen = await plain.waitFor('the printf in a plain pane', (s) => / x +\|/.test(s));
    // In a plain pane the anchor is at column 19 (0-based) of the pane.
    const inPlain = markerColumn(plainScreen, 19);

    const { tmux, dir } = start([`sh -c "${PRINTF}; exec sleep 600"`, '--session', 'zwj'], { cols: 80, rows: 12 });
    const screen = await tmux.waitFor('the printf in a tile', (s) => / x +\|/.test(s) && /[╭┏] 1 sh /.test(s));
    const line = screen.split('\n').find((l) => / x +\|/.test(l))!;
    // The tile's body starts one column in, after its left border; its anchor is at 1 + 19.
    expect(line[0]).toMatch(/[│┃]/);
    const frame = 1;
    expect(markerColumn(screen, frame + 19)).toBe(inPlain + frame);
    // tmux 3.3 draws the family as one picture of two columns: `x` at 3 in the plain pane.
    expect(inPlain).toBe(3);
    await quitCleanly(tmux, dir);
  }, 60_000);

  it('tiles named 日本 (with R) and 한국어 (with belltower rename) keep their corners above their borders', async () => {
    const cols = 100;
    const { tmux, dir } = start(['sh -c "echo one; exec sleep 600"', 'sh -c "echo two; exec sleep 600"', '--session', 'cjk'], { cols, rows: 20 });
    await tmux.waitFor('two tiles', (s) => /[╭┏] 1 sh /.test(s) && /[╭┏] 2 sh-2 /.test(s));
    // R form: the selected tile 1, typed in CJK.
    tmux.keys('R', 'C-u');
    tmux.type('日本');
    tmux.keys('Enter');
    await tmux.waitFor('tile 1 renamed', (s) => /┏ 1 日本 /.test(s));
    // The command line and the control socket take the same names.
    const renamed = await run(process.execPath, [bin, 'rename', '2', '한국어', '--session', 'cjk'], { env: { ...process.env, CI: undefined, BELLTOWER_STATE_DIR: join(dir, 'state') } });
    expect(renamed.stdout).toMatch(/^renamed: +2 +한국어/);
    const screen = await tmux.waitFor('tile 2 renamed', (s) => /╭ 2 한국어 /.test(s));

    const lines = screen.split('\n');
    const y = lines.findIndex((l) => l.includes('┏ 1 日本 '));
    const header = lines[y]!;
    const below = lines[y + 1]!;
    expect(header).toContain('╭ 2 한국어 ');
    expect(stringWidth(header), header).toBe(cols);
    expect(header.endsWith('╮'), header).toBe(true);
    const corners = cornerColumns(header);
    expect(corners, header).toHaveLength(4);
    // Every corner right above a side border of the tile's body.
    for (const column of corners) expect(charAt(below, column), `corner at ${column}\n${header}\n${below}`).toMatch(/[│┃]/);
    expect(corners.at(-1)).toBe(cols - 1);
    await quitCleanly(tmux, dir);
  }, 60_000);
});
