import { afterEach, describe, expect, it, vi } from 'vitest';
import { RowWatcher } from '../../src/session/row-watcher.js';
import { rowText, type StyledRow } from '../../src/session/styled-row.js';
import { Owned, feed } from './helpers.js';

const owned = new Owned();
afterEach(() => owned.disposeAll());

const ESC = '\x1b';
const widthOf = (row: StyledRow) => row.runs.reduce((sum, run) => sum + run.width, 0);

describe('Screen: styled runs', () => {
  it('reads 16-colour, 256-colour and truecolor fg/bg and every attribute', async () => {
    const screen = owned.screen({ cols: 20, rows: 3 });
    await feed(
      screen,
      `${ESC}[31ma${ESC}[91mb${ESC}[38;5;100mc${ESC}[38;2;1;2;3md${ESC}[0m` +
        `${ESC}[44me${ESC}[48;5;200mf${ESC}[48;2;250;128;0mg${ESC}[0m` +
        `${ESC}[1mB${ESC}[0m${ESC}[2mD${ESC}[0m${ESC}[3mI${ESC}[0m${ESC}[4mU${ESC}[0m${ESC}[7mV${ESC}[0mplain`,
    );
    const runs = screen.styledRow(0).runs;
    const byText = (text: string) => runs.find((run) => run.text === text)?.style;
    expect(byText('a')?.fg).toEqual({ kind: 'ansi16', index: 1 });
    expect(byText('b')?.fg).toEqual({ kind: 'ansi16', index: 9 });
    expect(byText('c')?.fg).toEqual({ kind: 'ansi256', index: 100 });
    expect(byText('d')?.fg).toEqual({ kind: 'rgb', r: 1, g: 2, b: 3 });
    expect(byText('e')?.bg).toEqual({ kind: 'ansi16', index: 4 });
    expect(byText('f')?.bg).toEqual({ kind: 'ansi256', index: 200 });
    expect(byText('g')?.bg).toEqual({ kind: 'rgb', r: 250, g: 128, b: 0 });
    expect(byText('B')).toMatchObject({ bold: true, dim: false, italic: false, underline: false, inverse: false });
    expect(byText('D')).toMatchObject({ bold: false, dim: true });
    expect(byText('I')).toMatchObject({ italic: true });
    expect(byText('U')).toMatchObject({ underline: true });
    expect(byText('V')).toMatchObject({ inverse: true });
    // Unstyled text and the blank rest of the row are one default run.
    const last = runs[runs.length - 1];
    expect(last?.text).toBe('plain' + ' '.repeat(20 - 17));
    expect(last?.style.fg).toEqual({ kind: 'default' });
    expect(widthOf(screen.styledRow(0))).toBe(20);
  });

  it('counts wide characters and emoji as two columns and skips the cell after them', async () => {
    const screen = owned.screen({ cols: 12, rows: 2 });
    await feed(screen, `漢😀e${ESC}[32m字${ESC}[0m|`);
    const row = screen.styledRow(0);
    expect(row.runs.map((run) => [run.text, run.width])).toEqual([
      ['漢😀e', 5],
      ['字', 2],
      ['|    ', 5],
    ]);
    expect(widthOf(row)).toBe(12);
    expect(screen.rowText(0)).toBe('漢😀e字|');
  });

  it('uses Unicode 11 widths: an emoji newer than Unicode 6 takes two columns', async () => {
    const screen = owned.screen({ cols: 10, rows: 1 });
    await feed(screen, '🤖x'); // U+1F916, Unicode 8: one column under xterm's default table
    expect(screen.cursor.x).toBe(3);
    expect(screen.styledRow(0).runs[0]?.width).toBe(10);
  });

  it('shows the alternate screen while a program uses it, and the normal one after', async () => {
    const screen = owned.screen({ cols: 20, rows: 4 });
    await feed(screen, 'shell prompt $');
    expect(screen.activeBuffer).toBe('normal');
    await feed(screen, `${ESC}[?1049h${ESC}[H${ESC}[2Jfull-screen app`);
    expect(screen.activeBuffer).toBe('alternate');
    expect(screen.rowTexts()).toEqual(['full-screen app', '', '', '']);
    expect(rowText(screen.styledRows()[0] as StyledRow).trimEnd()).toBe('full-screen app');
    await feed(screen, `${ESC}[?1049l`);
    expect(screen.activeBuffer).toBe('normal');
    expect(screen.rowText(0)).toBe('shell prompt $');
  });

  it('keeps no more scrollback than configured', async () => {
    const screen = owned.screen({ cols: 20, rows: 5, scrollback: 50 });
    await feed(screen, Array.from({ length: 500 }, (_, i) => `line ${i}`).join('\r\n'));
    expect(screen.scrollbackLength).toBe(50);
    expect(screen.rowText(4)).toBe('line 499');
  });

  it('resizes', async () => {
    const screen = owned.screen({ cols: 20, rows: 5 });
    screen.resize(30, 8);
    expect([screen.cols, screen.rows]).toEqual([30, 8]);
    expect(screen.styledRows()).toHaveLength(8);
    expect(widthOf(screen.styledRow(7))).toBe(30);
  });
});

describe('Screen: OSC and replies', () => {
  it('reports OSC 0, 2, 7501, 133, 7, 9, 777 and 99 in stream order, and no others', async () => {
    const screen = owned.screen();
    const seen: [number, string][] = [];
    screen.onOsc((code, payload) => seen.push([code, payload]));
    await feed(
      screen,
      `${ESC}]0;◐ Claude Code\x07${ESC}]8;;http://x\x07link${ESC}]8;;\x07` +
        `${ESC}]7501;state=working:app=claude-code\x07${ESC}]2;title two${ESC}\\` +
        `${ESC}]133;C;cmdline=sleep\\ 12\x07${ESC}]7;file://host/tmp/a%20b${ESC}\\${ESC}]133;D;0\x07` +
        `${ESC}]52;c;aGk=\x07${ESC}]9;hello\x07${ESC}]777;notify;Gemini CLI;done\x07${ESC}]1;icon\x07${ESC}]99;i=1:d=0;Claude Code${ESC}\\`,
    );
    expect(seen).toEqual([
      [0, '◐ Claude Code'],
      [7501, 'state=working:app=claude-code'],
      [2, 'title two'],
      [133, 'C;cmdline=sleep\\ 12'],
      [7, 'file://host/tmp/a%20b'],
      [133, 'D;0'],
      [9, 'hello'],
      [777, 'notify;Gemini CLI;done'],
      [99, 'i=1:d=0;Claude Code'],
    ]);
    expect(screen.title).toBe('title two'); // xterm's own title handling still runs
  });

  it('answers the OSC 7501 query with the same terminator, before the DA1 reply that follows it', async () => {
    const replies: string[] = [];
    const screen = owned.screen({ replies });
    await feed(screen, `${ESC}]7501;?\x07${ESC}[c`);
    await feed(screen, `${ESC}]7501;?${ESC}\\${ESC}[c`);
    expect(replies).toEqual([`${ESC}]7501;?\x07`, `${ESC}[?1;2c`, `${ESC}]7501;?${ESC}\\`, `${ESC}[?1;2c`]);
  });

  it('answers a query split across chunks, and reports it to listeners', async () => {
    const replies: string[] = [];
    const screen = owned.screen({ replies });
    const seen: string[] = [];
    screen.onOsc((code, payload) => seen.push(`${code}:${payload}`));
    for (const chunk of [`${ESC}]75`, '01;', '?', ESC, `\\${ESC}`, '[c']) screen.write(chunk);
    await screen.flush();
    expect(replies).toEqual([`${ESC}]7501;?${ESC}\\`, `${ESC}[?1;2c`]);
    expect(seen).toEqual(['7501:?']);
  });

  it('does not answer when the answer is turned off (the DA1 reply alone goes out)', async () => {
    const replies: string[] = [];
    const screen = owned.screen({ replies, answerPspQuery: false });
    const seen: string[] = [];
    screen.onOsc((code, payload) => seen.push(`${code}:${payload}`));
    await feed(screen, `${ESC}]7501;?\x07${ESC}[c`);
    expect(replies).toEqual([`${ESC}[?1;2c`]);
    expect(seen).toEqual(['7501:?']);
  });

  it('sends cursor position reports back', async () => {
    const replies: string[] = [];
    const screen = owned.screen({ replies });
    await feed(screen, `ab${ESC}[6n`);
    expect(replies).toEqual([`${ESC}[1;3R`]);
  });

  it('keeps parsing when an OSC listener throws', async () => {
    const screen = owned.screen();
    const seen: string[] = [];
    screen.onOsc(() => {
      throw new Error('listener bug');
    });
    screen.onOsc((_code, payload) => seen.push(payload));
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      await feed(screen, `${ESC}]2;one\x07after${ESC}]2;two\x07`);
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('uncaughtException', onUncaught);
    }
    expect(seen).toEqual(['one', 'two']);
    expect(screen.rowText(0)).toBe('after');
    expect(uncaught).toHaveLength(2);
  });
});

describe('RowWatcher: dirty rows', () => {
  it('reports every row first, then only rows whose text changed', async () => {
    const screen = owned.screen({ cols: 20, rows: 4 });
    const watcher = new RowWatcher(screen);
    await feed(screen, 'one\r\ntwo');
    expect(watcher.changed()).toEqual([
      { y: 0, text: 'one' },
      { y: 1, text: 'two' },
      { y: 2, text: '' },
      { y: 3, text: '' },
    ]);
    expect(watcher.changed()).toEqual([]);
    await feed(screen, `${ESC}[3;1Hthree`);
    expect(watcher.changed()).toEqual([{ y: 2, text: 'three' }]);
    // The whole visible screen as of that look, without reading it again.
    expect(watcher.rows).toEqual(['one', 'two', 'three', '']);
    // Rewriting a row with the same text is no change.
    await feed(screen, `${ESC}[1;1Hone`);
    expect(watcher.changed()).toEqual([]);
  });

  it("sees a chunk's rows from inside that chunk's parse callback", async () => {
    const screen = owned.screen({ cols: 20, rows: 2 });
    const watcher = new RowWatcher(screen);
    watcher.changed();
    const seen: string[][] = [];
    const read = () => seen.push(watcher.changed().map((row) => row.text));
    screen.write('first', read);
    screen.write('\r\nsecond', read);
    await screen.flush();
    expect(seen).toEqual([['first'], ['second']]);
  });

  it('keeps one reader from hiding changes from another', async () => {
    const screen = owned.screen({ cols: 20, rows: 2 });
    const a = new RowWatcher(screen);
    const b = new RowWatcher(screen);
    a.changed();
    b.changed();
    await feed(screen, 'x');
    expect(a.changed()).toEqual([{ y: 0, text: 'x' }]);
    expect(b.changed()).toEqual([{ y: 0, text: 'x' }]);
  });

  it('sees the switch to the alternate screen and a resize', async () => {
    const screen = owned.screen({ cols: 20, rows: 2 });
    const watcher = new RowWatcher(screen);
    await feed(screen, 'normal');
    watcher.changed();
    await feed(screen, `${ESC}[?1049h`);
    expect(watcher.changed()).toEqual([{ y: 0, text: '' }]);
    screen.resize(20, 3);
    await feed(screen, `${ESC}[3;1Hthird`);
    expect(watcher.changed()).toEqual([{ y: 2, text: 'third' }]);
  });
});

describe('Screen: the terminal belongs to the UI', () => {
  it('never prints its own diagnostics (a DEL byte, malformed sequences)', async () => {
    const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((method) => vi.spyOn(console, method).mockImplementation(() => {}));
    try {
      const screen = owned.screen({ cols: 20, rows: 4 });
      await feed(screen, 'a\x7fb\x1b[999999999999999999Xc\x1bP\x9c\x1b]1337;\x07\x7f');
      for (const spy of spies) expect(spy).not.toHaveBeenCalled();
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });
});
