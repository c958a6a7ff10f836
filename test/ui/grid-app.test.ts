/**
 * The grid's shell over real tiles (real ptys, real screens, the real engine), painting into a
 * terminal port that keeps what it is sent: an idle grid writes nothing, the bell follows the
 * engine's ring edges and the --bell mode, and keys reach the tile in focus.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseSpec } from '../../src/agents/launch-spec.js';
import { silentLogger } from '../../src/platform/logger.js';
import { TileSet } from '../../src/tile/tile-set.js';
import type { BellMode } from '../../src/ui/bell.js';
import { GridApp } from '../../src/ui/grid-app.js';
import type { GridAppOptions } from '../../src/ui/grid-app.js';
import { rowText } from '../../src/session/styled-row.js';
import { layout } from '../../src/ui/layout.js';
import { DEFAULT_TIMING } from '../../src/verdict/timing.js';
import { waitFor } from '../session/helpers.js';
import { RecordingTerminal } from '../support/recording-terminal.js';

/** A terminal at the end of a connection that can fall behind (an attached client). */
class BehindTerminal extends RecordingTerminal {
  backedUp = false;
  private caughtUp: (() => void) | null = null;
  onCaughtUp(listener: () => void): () => void {
    this.caughtUp = listener;
    return () => (this.caughtUp = null);
  }
  catchUp(): void {
    this.backedUp = false;
    this.caughtUp?.();
  }
}


const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function grid(commands: string[], bell: BellMode = 'all', more: Partial<GridAppOptions> = {}) {
  const state = mkdtempSync(join(tmpdir(), 'belltower-gridapp-'));
  const terminal = new RecordingTerminal();
  const tiles = new TileSet({
    cwd: state,
    env: process.env,
    cols: 80,
    rows: 24,
    timing: { ...DEFAULT_TIMING, conflictWindowMs: 100 },
    runtimeDir: join(state, 'run'),
    hooks: false,
    logger: silentLogger,
  });
  const l = layout({ cols: terminal.cols, rows: terminal.rows, count: commands.length });
  for (const [i, command] of commands.entries()) {
    const body = l.kind === 'grid' ? l.tiles[i]!.body : { width: 80, height: 24 };
    await tiles.add(parseSpec(command), { cols: body.width, rows: body.height });
  }
  let quit = false;
  const app = new GridApp({ view: tiles, terminal, escapeKey: 'ctrl-\\', bell, color: true, depth: 'truecolor', logger: silentLogger, onQuit: () => (quit = true), ...more });
  app.start();
  cleanups.push(async () => {
    app.stop();
    await tiles.stop();
    rmSync(state, { recursive: true, force: true });
  });
  return { terminal, tiles, app, quitted: () => quit };
}

/** Prints `text`, says it is at rest (a plain command is working until it exits), then waits. */
const idle = (text: string) => `sh -c 'printf "${text}\\033]7501;state=idle\\007"; exec sleep 30'`;
/** Says working over OSC 7501, then done after a moment, then rests. */
const finishes = `sh -c 'printf "\\033]7501;state=working\\007"; sleep 0.3; printf "finished\\033]7501;state=done\\007"; exec sleep 30'`;

describe('GridApp', () => {
  it('writes nothing at all while nothing visible changes', async () => {
    const { terminal } = await grid([idle('one'), idle('two')]);
    await waitFor(() => terminal.written.includes('one') && terminal.written.includes('two'), 'both tiles painted');
    await new Promise((resolve) => setTimeout(resolve, 400)); // the last frame settles
    const before = terminal.written.length;
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(terminal.written.length).toBe(before);
  });

  it('holds its frames while the terminal is behind, then paints what is current once it catches up', async () => {
    const terminal = new BehindTerminal();
    const { tiles } = await grid([`sh -c 'printf "first\\033]7501;state=idle\\007"; read x; printf "second"; read y; printf "third"; exec sleep 30'`], 'all', { terminal });
    await waitFor(() => terminal.written.includes('first'), 'the first frame');
    terminal.backedUp = true;
    const held = terminal.written.length;
    const id = tiles.tileInfos()[0]!.id;
    const shows = (text: string) => rowText(tiles.screenOf(id)!.styledRow(tiles.screenOf(id)!.cursor.y)).includes(text);
    tiles.input(id, '\r');
    await waitFor(() => shows('second'), 'the tile to print again');
    tiles.input(id, '\r');
    await waitFor(() => shows('third'), 'the tile to print a third time');
    await new Promise((resolve) => setTimeout(resolve, 300)); // frames would have gone by now
    expect(terminal.written.length).toBe(held);
    terminal.catchUp();
    await waitFor(() => terminal.written.includes('third'), 'the frame after catching up');
    // The frame it gets is what is there now, not one that was due while it was behind: no frame
    // after it caught up shows the second line without the third.
    const frames = terminal.written.slice(held).split('\x1b[?2026h').filter((frame) => frame.includes('second'));
    expect(frames.length).toBeGreaterThan(0);
    expect(frames.every((frame) => frame.includes('third'))).toBe(true);
  });

  it('rings once for a done, whatever the tile shows afterwards', async () => {
    const { terminal } = await grid([finishes, idle('other')]);
    await waitFor(() => terminal.bells() === 1, 'the bell', 5000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(terminal.bells()).toBe(1);
  });

  it('a ring that came before the grid started rings when it starts, and leaves the tile unseen', async () => {
    const state = mkdtempSync(join(tmpdir(), 'belltower-gridapp-'));
    const terminal = new RecordingTerminal();
    const tiles = new TileSet({ cwd: state, env: process.env, cols: 80, rows: 24, timing: DEFAULT_TIMING, runtimeDir: join(state, 'run'), hooks: false, logger: silentLogger });
    const early: { id: number; state: 'done' | 'blocked' | 'failed' }[] = [];
    const off = tiles.onRing((id, ringState) => early.push({ id, state: ringState }));
    const app = new GridApp({ view: tiles, terminal, escapeKey: 'ctrl-\\', bell: 'all', color: true, depth: 'truecolor', logger: silentLogger, onQuit: () => undefined });
    cleanups.push(async () => {
      app.stop();
      await tiles.stop();
      rmSync(state, { recursive: true, force: true });
    });
    const tile = await tiles.add(parseSpec(`sh -c 'printf "\\033]7501;state=done\\007"; exec sleep 30'`));
    await waitFor(() => early.length === 1, 'the done, before the grid', 5000);
    off();
    app.start(early);
    expect(terminal.bells()).toBe(1);
    expect(app.state.attention.unseen).toEqual([tile.id]);
  });

  it('--bell background spares the tile in front of you while the window has focus', async () => {
    const { terminal, app } = await grid([`sh -c 'sleep 1; printf "\\033]7501;state=working\\007"; sleep 0.3; printf "\\033]7501;state=done\\007"; exec sleep 30'`], 'background');
    terminal.press('\r'); // focus tile 1
    await waitFor(() => app.state.mode === 'focus', 'focus mode');
    await waitFor(() => terminal.written.includes('✓ done'), 'the done painted', 5000);
    expect(terminal.bells()).toBe(0);
  });

  it('--bell background rings for that tile once the window loses focus', async () => {
    const { terminal, app } = await grid([`sh -c 'sleep 1; printf "\\033]7501;state=working\\007"; sleep 0.3; printf "\\033]7501;state=done\\007"; exec sleep 30'`], 'background');
    terminal.press('\r');
    terminal.press('\x1b[O'); // the terminal window lost focus
    await waitFor(() => app.state.mode === 'focus' && !app.state.windowFocused, 'focus mode, window unfocused');
    await waitFor(() => terminal.bells() === 1, 'the bell', 5000);
  });

  it('sends keys typed in focus mode to the tile, and q (asked) quits', async () => {
    const { terminal, tiles, quitted } = await grid([`sh -c 'read line; printf "got:%s" "$line"; exec sleep 30'`]);
    terminal.press('\r');
    terminal.press('hello\r');
    await waitFor(() => terminal.written.includes('got:hello'), 'the echo painted', 5000);
    terminal.press('\x1c');
    terminal.press('q');
    // The command is still working: q asks first.
    await waitFor(() => terminal.written.includes('quit belltower?'), 'the question', 5000);
    expect(quitted()).toBe(false);
    terminal.press('y');
    await waitFor(() => quitted(), 'quit');
    expect(tiles.tileInfos()[0]!.state).not.toBe('exited');
  });

  it('starts where a restore left it, and says when what a restore needs changes', async () => {
    let changes = 0;
    const { terminal, app } = await grid([idle('one'), idle('two'), idle('three')], 'all', {
      initial: { selected: 2, zoomed: true, layoutMode: 'rows', hideIdle: false, unseen: [2], muted: [3], note: 'restored 3 tiles' },
      onUiChange: () => changes++,
    });
    expect(app.snapshot()).toEqual({ selected: 2, zoomed: true, layout: 'rows', hideIdle: false, unseen: [2], muted: [3] });

    await waitFor(() => terminal.written.includes('restored 3 tiles'), 'the note');
    expect(changes).toBe(0);
    terminal.press('z'); // unzoom
    await waitFor(() => changes === 1, 'the change');
    terminal.press('2');
    terminal.press('z'); // zooming tile 2 looks at it: no longer unseen
    await waitFor(() => app.snapshot().unseen.length === 0, 'tile 2 seen');
    expect(app.snapshot()).toMatchObject({ selected: 1, zoomed: true, muted: [3] });
    expect(changes).toBe(3);
    terminal.press('?'); // an overlay is no part of a restore
    await waitFor(() => app.state.overlay !== null, 'the help');
    expect(changes).toBe(3);
  });
});
