/**
 * A screen's snapshot drawn again in a fresh screen: the rows, their colours and the kept lines
 * come back; the old program's OSCs and modes do not; a full-screen program's alternate screen
 * comes back as plain rows in the normal buffer.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Owned, feed } from './helpers.js';

const owned = new Owned();
afterEach(() => owned.disposeAll());

describe('Screen: snapshot and restore', () => {
  it('draws the same rows and colours, with the scrollback it was given, and the cursor below them', async () => {
    const before = owned.screen({ cols: 30, rows: 4 });
    await feed(before, 'old line 0\r\nold line 1\r\nold line 2\r\n\x1b[31mred\x1b[0m text\r\nfourth\r\n\x1b[32mfifth\x1b[1;1H');
    const snapshot = before.snapshot(1);

    const osc: number[] = [];
    const after = owned.screen({ cols: 30, rows: 4 });
    after.onOsc((code) => osc.push(code));
    await after.restore(snapshot);
    // One line of scrollback was asked for: "old line 0" is gone, "old line 1" kept above.
    const lines = Array.from({ length: after.bufferLength }, (_, i) => after.lineText(i));
    expect(lines.slice(0, 5)).toEqual(['old line 1', 'old line 2', 'red text', 'fourth', 'fifth']);
    expect(lines).not.toContain('old line 0');
    const red = after.styledLine(2).runs.find((run) => run.text.startsWith('red'));
    expect(red?.style.fg).toEqual({ kind: 'ansi16', index: 1 });
    // The program that runs next writes on a fresh line below the old screen, in default colours.
    await feed(after, 'new');
    expect(after.rowText(after.rows - 1)).toBe('new');
    expect(after.styledRow(after.rows - 1).runs[0]?.style.fg).toEqual({ kind: 'default' });
    expect(osc).toEqual([]);
  });

  it('keeps no OSC, title or mode of the old program', async () => {
    const before = owned.screen({ cols: 30, rows: 4 });
    await feed(before, '\x1b]0;old title\x07\x1b[?2004h\x1b[?1h\x1b]7501;state=working\x1b\\hello');
    const after = owned.screen({ cols: 30, rows: 4 });
    const osc: number[] = [];
    after.onOsc((code) => osc.push(code));
    await after.restore(before.snapshot(100));
    expect(after.rowText(0)).toBe('hello');
    expect(after.title).toBe('');
    expect(after.inputModes).toEqual({ applicationCursorKeys: false, applicationKeypad: false, bracketedPaste: false, sendFocus: false, mouseTracking: false });
    expect(osc).toEqual([]);
  });

  it("gives a full-screen program's alternate screen back as rows of the normal buffer", async () => {
    const before = owned.screen({ cols: 30, rows: 4 });
    await feed(before, 'shell line\r\n\x1b[?1049h\x1b[2;3Hin the editor');
    expect(before.activeBuffer).toBe('alternate');
    const after = owned.screen({ cols: 30, rows: 4 });
    await after.restore(before.snapshot(100));
    expect(after.activeBuffer).toBe('normal');
    expect(after.rowText(1)).toBe('  in the editor');
    expect(Array.from({ length: after.bufferLength }, (_, i) => after.lineText(i))).not.toContain('shell line');
  });

  it('restores nothing from an empty snapshot', async () => {
    const after = owned.screen({ cols: 30, rows: 4 });
    const generation = after.generation;
    await after.restore('');
    expect(after.generation).toBe(generation);
    expect(after.rowText(0)).toBe('');
  });
});
