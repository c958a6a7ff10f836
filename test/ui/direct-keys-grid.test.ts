/**
 * The grid's side of the keyboard thread, over real tiles: it names the focused tile's pty to the
 * terminal while it is focused, and nothing otherwise; and a chunk the thread wrote to a tile the
 * grid has left since (the UI moved without a key) is that tile's — none of it is the grid's keys,
 * and none of it reaches another tile.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseSpec } from '../../src/agents/launch-spec.js';
import { silentLogger } from '../../src/platform/logger.js';
import { rowText } from '../../src/session/styled-row.js';
import { TileSet } from '../../src/tile/tile-set.js';
import type { DirectWritten } from '../../src/ui/direct-keys.js';
import { GridApp } from '../../src/ui/grid-app.js';
import type { KeyTarget } from '../../src/ui/keyboard-thread.js';
import { DEFAULT_TIMING } from '../../src/verdict/timing.js';
import { waitFor } from '../session/helpers.js';
import { RecordingTerminal } from '../support/recording-terminal.js';

/** A terminal whose keys may come marked as written by a keyboard thread. */
class ThreadedTerminal extends RecordingTerminal {
  targets: (KeyTarget | null)[] = [];
  private listener: ((data: string, direct?: DirectWritten) => void) | null = null;
  override onInput(listener: (data: string, direct?: DirectWritten) => void): () => void {
    this.listener = listener;
    return () => (this.listener = null);
  }
  override press(data: string, direct?: DirectWritten): void {
    this.listener?.(data, direct);
  }
  directKeys(target: KeyTarget | null): void {
    this.targets.push(target);
  }
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Appends what it reads to its file. */
const RECORD = `process.stdin.setRawMode(true); process.stdout.write('reading'); process.stdin.on('data', (d) => require('node:fs').appendFileSync(process.argv[2], d));`;

async function grid() {
  const state = mkdtempSync(join(tmpdir(), 'belltower-direct-'));
  const program = join(state, 'record.cjs');
  writeFileSync(program, RECORD);
  const files = [join(state, 'one'), join(state, 'two')];
  for (const file of files) writeFileSync(file, '');
  const terminal = new ThreadedTerminal();
  const tiles = new TileSet({ cwd: state, env: process.env, cols: 80, rows: 24, timing: DEFAULT_TIMING, runtimeDir: join(state, 'run'), hooks: false, logger: silentLogger });
  for (const file of files) await tiles.add(parseSpec(`'${process.execPath}' '${program}' '${file}'`), { cols: 40, rows: 10 });
  const app = new GridApp({ view: tiles, terminal, escapeKey: 'ctrl-\\', bell: 'off', color: false, depth: 'truecolor', logger: silentLogger, onQuit: () => undefined });
  app.start();
  cleanups.push(async () => {
    app.stop();
    await tiles.stop();
    rmSync(state, { recursive: true, force: true });
  });
  const ids = tiles.tileInfos().map((t) => t.id);
  await waitFor(() => ids.every((id) => rowText(tiles.screenOf(id)!.styledRow(0)).includes('reading')), 'both tiles reading');
  return { terminal, app, ids, read: (i: number) => readFileSync(files[i]!, 'utf8') };
}

describe('the grid and the keyboard thread', () => {
  it('names the focused tile to the terminal while it is focused, and no tile after', async () => {
    const { terminal, ids } = await grid();
    terminal.press('\r'); // focus the first tile
    await waitFor(() => terminal.targets.at(-1)?.tileId === ids[0], 'the focused tile named');
    expect(terminal.targets.at(-1)).toMatchObject({ tileId: ids[0], escapeKey: 'ctrl-\\' });
    terminal.press('\x1c'); // back to the grid
    expect(terminal.targets.at(-1)).toBeNull();
  });

  it('takes a chunk written to a tile it has left since as that tile\'s: no key of the grid, nothing to the other tile', async () => {
    const { terminal, app, ids, read } = await grid();
    terminal.press('\r');
    await waitFor(() => terminal.targets.at(-1)?.tileId === ids[0], 'the focused tile named');
    terminal.press('\x1c'); // the grid leaves the tile; the thread had written `aj` to it meanwhile
    terminal.press('aj', { tileId: ids[0]!, chars: 2 });
    terminal.press('l', { tileId: ids[0]!, chars: 0 }); // nothing of it was written: the grid's key
    await new Promise((resolve) => setTimeout(resolve, 300));
    // `a` would have opened the add form: the grid did not take it; `l` it did (the next tile).
    expect(app.state.overlay).toBeNull();
    expect(app.state.selected).toBe(1);
    expect(app.state.mode).toBe('grid');
    expect(read(0)).toBe(''); // written by the thread (here: by nobody), not again by the grid
    expect(read(1)).toBe('');
  });

  it('writes the rest of a chunk the tile took only in part', async () => {
    const { terminal, ids, read } = await grid();
    terminal.press('\r');
    await waitFor(() => terminal.targets.at(-1)?.tileId === ids[0], 'the focused tile named');
    terminal.press('abcd', { tileId: ids[0]!, chars: 2 });
    await waitFor(() => read(0) === 'cd', 'the rest of the chunk');
    expect(read(1)).toBe('');
  });
});
