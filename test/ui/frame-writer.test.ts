/**
 * The frame writer against a real terminal: frames (chrome lines, bodies, cursor) go to a headless
 * xterm standing in for the user's terminal, and what it shows is compared with what it must show.
 */
import { afterEach, describe, expect, it } from 'vitest';
import xterm from '@xterm/headless';
import type { Terminal as XtermTerminal } from '@xterm/headless';
import { FrameWriter, SYNC_BEGIN, SYNC_END } from '../../src/ui/frame-writer.js';
import type { Frame } from '../../src/ui/frame-writer.js';
import { Owned, feed } from '../session/helpers.js';

const { Terminal } = xterm;

const owned = new Owned();
const terminals: XtermTerminal[] = [];
afterEach(() => {
  owned.disposeAll();
  for (const t of terminals.splice(0)) t.dispose();
});

function userTerminal(cols: number, rows: number): XtermTerminal {
  const term = new Terminal({ cols, rows, allowProposedApi: true, logLevel: 'off' });
  terminals.push(term);
  return term;
}

function write(term: XtermTerminal, data: string): Promise<void> {
  return new Promise((resolve) => term.write(data, resolve));
}

const line = (term: XtermTerminal, y: number) => term.buffer.active.getLine(y)!.translateToString(false);

const COLS = 20;
const ROWS = 4;
const frame = (overrides: Partial<Frame>): Frame => ({ cols: COLS, rows: ROWS, chrome: null, bodies: [], occluded: [], cursor: null, ...overrides });

describe('FrameWriter', () => {
  it('keeps the last character of a line as wide as the terminal, and erases what a shorter line leaves', async () => {
    const user = userTerminal(COLS, ROWS);
    const writer = new FrameWriter('truecolor');
    const full = 'abcdefghijklmnopqrsZ';
    await write(user, writer.write(frame({ chrome: ['a much longer line!!', full, '', 'status'] })));
    expect(line(user, 1)).toBe(full);
    const bytes = writer.write(frame({ chrome: ['short', `\x1b[31m${full}\x1b[39m`, '', 'status'] }));
    await write(user, bytes);
    expect(line(user, 0)).toBe(`short${' '.repeat(COLS - 5)}`);
    expect(line(user, 1)).toBe(full);
    // xterm.js keeps that last character whatever follows; tmux and real terminals erase it when
    // an erase comes after it (the cursor waits on it to wrap). So: no erase after text on a line.
    for (const segment of bytes.split(/\x1b\[\d+;\d+H/).slice(1)) {
      const firstText = segment.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, (m) => '\0'.repeat(m.length)).search(/[^\0]/);
      const erase = segment.search(/\x1b\[0?K/);
      if (erase !== -1 && firstText !== -1) expect(erase).toBeLessThan(firstText);
    }
  });

  it('writes only the chrome lines that changed, and the body segments on them', async () => {
    const screen = owned.screen({ cols: 6, rows: 2 });
    await feed(screen, 'body-1\r\nbody-2');
    const bodies = [{ key: 1, rect: { x: 1, y: 1, width: 6, height: 2 }, screen }];
    const user = userTerminal(COLS, ROWS);
    const writer = new FrameWriter('truecolor');
    await write(user, writer.write(frame({ chrome: ['╭──────╮', '│      │', '│      │', 'status'], bodies })));
    expect(line(user, 1).slice(0, 8)).toBe('│body-1│');

    // The status line changes: nothing else is written.
    const bytes = writer.write(frame({ chrome: ['╭──────╮', '│      │', '│      │', 'status 2'], bodies }));
    expect(bytes.startsWith(SYNC_BEGIN) && bytes.endsWith(SYNC_END)).toBe(true);
    expect(bytes.match(/\x1b\[(\d+);(\d+)H/g)).toEqual(['\x1b[4;1H']);
    await write(user, bytes);
    expect(line(user, 3).trimEnd()).toBe('status 2');

    // A border line changes (a colour): the body on that line is painted again over it.
    await write(user, writer.write(frame({ chrome: ['╭──────╮', '\x1b[34m│\x1b[39m      \x1b[34m│\x1b[39m', '│      │', 'status 2'], bodies })));
    expect(line(user, 1).slice(0, 8)).toBe('│body-1│');
    expect(line(user, 2).slice(0, 8)).toBe('│body-2│');
  });

  it('writes nothing when nothing visible changed', () => {
    const writer = new FrameWriter('truecolor');
    expect(writer.write(frame({ chrome: ['x', '', '', 'status'] }))).not.toBe('');
    expect(writer.write(frame({ chrome: null }))).toBe('');
    expect(writer.write(frame({ chrome: ['x', '', '', 'status'] }))).toBe('');
  });

  it('shows the cursor where the frame puts it, and hides it once, when it goes', async () => {
    const user = userTerminal(COLS, ROWS);
    const writer = new FrameWriter('truecolor');
    const shown = writer.write(frame({ chrome: ['a', '', '', ''], cursor: { x: 3, y: 2 } }));
    expect(shown).toContain('\x1b[3;4H\x1b[?25h');
    await write(user, shown);
    expect([user.buffer.active.cursorX, user.buffer.active.cursorY]).toEqual([3, 2]);
    expect(writer.write(frame({ cursor: null }))).toContain('\x1b[?25l');
    expect(writer.write(frame({ cursor: null }))).toBe('');
  });

  it('starts from a clear screen at a new size', async () => {
    const user = userTerminal(COLS, ROWS);
    await write(user, 'garbage everywhere '.repeat(4));
    const writer = new FrameWriter('truecolor');
    await write(user, writer.write(frame({ chrome: ['top', '', '', 'bottom'] })));
    expect(line(user, 1).trim()).toBe('');
    expect(line(user, 0).trimEnd()).toBe('top');
  });
});
