/**
 * Every attribute xterm.js models goes from the program's SGR through the screen's rows to the
 * bytes the painter writes (issue 29: blink, the underline shapes, underline colour and overline
 * were dropped on the way, and hidden text was painted as blanks). The expectations are the SGR
 * codes' meanings, written out here; the round trip parses the painter's bytes in a second real
 * xterm and reads back the same styles.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { rowText, type CellStyle } from '../../src/session/styled-row.js';
import { encodeRow } from '../../src/ui/row-encoder.js';
import { Owned, feed } from './helpers.js';

const owned = new Owned();
afterEach(() => owned.disposeAll());

const ESC = '\x1b';

/** Each case: what the program prints before the letter `X`, and what that cell's style holds. */
const CASES: { sgr: string; expect: Partial<CellStyle> }[] = [
  { sgr: '5', expect: { blink: true } },
  { sgr: '53', expect: { overline: true } },
  { sgr: '4', expect: { underline: true, underlineStyle: undefined } },
  { sgr: '21', expect: { underline: true, underlineStyle: 'double' } },
  { sgr: '4:2', expect: { underline: true, underlineStyle: 'double' } },
  { sgr: '4:3', expect: { underline: true, underlineStyle: 'curly' } },
  { sgr: '4:4', expect: { underline: true, underlineStyle: 'dotted' } },
  { sgr: '4:5', expect: { underline: true, underlineStyle: 'dashed' } },
  { sgr: '4:0', expect: { underline: false } },
  { sgr: '4;58;5;196', expect: { underline: true, underlineColor: { kind: 'ansi256', index: 196 } } },
  { sgr: '4:3;58:2::10:20:30', expect: { underline: true, underlineStyle: 'curly', underlineColor: { kind: 'rgb', r: 10, g: 20, b: 30 } } },
  { sgr: '4;58;2;1;2;3;59', expect: { underline: true, underlineColor: undefined } },
  { sgr: '8', expect: { invisible: true } },
  { sgr: '1;5;53;31', expect: { bold: true, blink: true, overline: true, fg: { kind: 'ansi16', index: 1 } } },
];

describe('attributes: screen → row → painter', () => {
  it.each(CASES)('SGR $sgr reaches the row', async ({ sgr, expect: style }) => {
    const screen = owned.screen({ cols: 10, rows: 2 });
    await feed(screen, `a${ESC}[${sgr}mX${ESC}[0mb`);
    const runs = screen.styledRow(0).runs;
    const x = runs.find((run) => run.text.includes('X'))!;
    for (const key of Object.keys(style) as (keyof CellStyle)[]) expect(x.style[key], key).toEqual(style[key]);
    // The plain cells around it have none of it.
    expect(runs.find((run) => run.text.startsWith('a'))?.style).toEqual(screen.styledRow(1).runs[0]!.style);
  });

  it.each(CASES)('SGR $sgr survives the painter: its bytes parsed again give the same row', async ({ sgr, expect: style }) => {
    const screen = owned.screen({ cols: 10, rows: 1 });
    await feed(screen, `a${ESC}[${sgr}mX${ESC}[0mb`);
    const painted = owned.screen({ cols: 10, rows: 1 });
    await feed(painted, encodeRow(screen.styledRow(0, { isolateClusters: true }), 0, 'truecolor'));
    expect(painted.styledRow(0)).toEqual(screen.styledRow(0));
    const x = painted.styledRow(0).runs.find((run) => run.text.includes('X'))!;
    for (const key of Object.keys(style) as (keyof CellStyle)[]) expect(x.style[key], key).toEqual(style[key]);
  });

  it('hidden text is written hidden, not as blanks', async () => {
    const screen = owned.screen({ cols: 20, rows: 1 });
    await feed(screen, `pw: ${ESC}[8msecret${ESC}[28m!`);
    const bytes = encodeRow(screen.styledRow(0), 0, 'truecolor');
    expect(bytes).toContain('secret');
    const painted = owned.screen({ cols: 20, rows: 1 });
    await feed(painted, bytes);
    expect(rowText(painted.styledRow(0)).trimEnd()).toBe('pw: secret!');
    expect(painted.styledRow(0).runs.find((run) => run.text === 'secret')?.style.invisible).toBe(true);
  });

  it('an underline colour is brought down to the colours the terminal shows, like the text colours', async () => {
    const screen = owned.screen({ cols: 10, rows: 1 });
    await feed(screen, `${ESC}[4;58;2;255;0;0mX`);
    const row = screen.styledRow(0);
    expect(encodeRow(row, 0, 'truecolor')).toContain(`${ESC}[58:2::255:0:0m`);
    expect(encodeRow(row, 0, 'ansi256')).toContain(`${ESC}[58:5:196m`);
    expect(encodeRow(row, 0, 'none')).not.toContain('58');
  });
});
