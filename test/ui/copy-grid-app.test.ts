/**
 * Copy mode through the grid's shell over a real tile: `[`, a selection, `y`, and the OSC 52 bytes
 * the terminal port receives (wrapped for tmux when inside it), with the note that says so.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseSpec } from '../../src/agents/launch-spec.js';
import { silentLogger } from '../../src/platform/logger.js';
import { TileSet } from '../../src/tile/tile-set.js';
import { GridApp } from '../../src/ui/grid-app.js';
import { DEFAULT_TIMING } from '../../src/verdict/timing.js';
import { waitFor } from '../session/helpers.js';
import { RecordingTerminal } from '../support/recording-terminal.js';


const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function grid(command: string, notifyWrap: 'tmux' | null) {
  const state = mkdtempSync(join(tmpdir(), 'belltower-copy-'));
  const terminal = new RecordingTerminal();
  const tiles = new TileSet({ cwd: state, env: process.env, cols: 98, rows: 27, timing: DEFAULT_TIMING, runtimeDir: join(state, 'run'), hooks: false, logger: silentLogger });
  await tiles.add(parseSpec(command), { cols: 98, rows: 27 });
  const app = new GridApp({ view: tiles, terminal, escapeKey: 'ctrl-\\', bell: 'off', notifyWrap, color: false, depth: 'truecolor', logger: silentLogger, onQuit: () => undefined });
  app.start();
  cleanups.push(async () => {
    app.stop();
    await tiles.stop();
    rmSync(state, { recursive: true, force: true });
  });
  return { terminal, app };
}

const osc52 = (text: string) => `\x1b]52;c;${Buffer.from(text).toString('base64')}\x07`;
const printed = `sh -c 'printf "first line   \\nsecond line\\nthird\\n"; exec sleep 30'`;

describe('copy mode in the grid', () => {
  it('[ g V j y puts the two first lines on the clipboard with OSC 52, and says so', async () => {
    const { terminal, app } = await grid(printed, null);
    await waitFor(() => terminal.written.includes('third'), 'the output painted', 5000);
    terminal.press('[');
    terminal.press('g');
    terminal.press('V');
    terminal.press('j');
    await waitFor(() => app.state.scroll?.selection?.kind === 'line' && app.state.scroll.cursor.line === 1, 'two lines selected');
    terminal.press('y');
    await waitFor(() => terminal.written.includes('\x1b]52;'), 'the clipboard sequence', 5000);
    expect(terminal.written).toContain(osc52('first line\nsecond line'));
    expect(app.state.scroll).toBeNull();
    expect(app.state.note?.text).toBe('copied 2 lines to the clipboard');
  });

  it('inside tmux the sequence also goes out wrapped in its passthrough; Esc then cancels without copying', async () => {
    const { terminal, app } = await grid(printed, 'tmux');
    await waitFor(() => terminal.written.includes('third'), 'the output painted', 5000);
    terminal.press('[');
    terminal.press('g');
    terminal.press('l');
    terminal.press('v');
    terminal.press('$');
    terminal.press('y');
    await waitFor(() => terminal.written.includes('\x1b]52;'), 'the clipboard sequence', 5000);
    const seq = osc52('irst line');
    expect(terminal.written).toContain(seq + `\x1bPtmux;${seq.replace(/\x1b/g, '\x1b\x1b')}\x1b\\`);
    const before = terminal.written.length;
    terminal.press('[');
    terminal.press('V');
    terminal.press('\x1b[A'); // ↑ (not a lone ESC)
    await waitFor(() => app.state.scroll?.selection !== null && app.state.scroll?.selection !== undefined, 'a selection');
    terminal.press('\x1b');
    await waitFor(() => app.state.scroll?.selection === null, 'the selection cancelled (after the lone ESC wait)');
    expect(app.state.scroll).not.toBeNull();
    expect(terminal.written.slice(before)).not.toContain('\x1b]52;');
  });
});
