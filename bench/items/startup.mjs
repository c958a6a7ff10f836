/**
 * 6. Start-up: from starting the process to the first painted frame, with 9 tiles of a trivial
 * command (`cat`). Baselines in the same run: tmux starting a session with 9 panes (to its first
 * byte on the terminal), and node itself printing one byte (the floor for any Node program).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pty from 'node-pty';
import { userTerminalEnv } from '../lib/env.mjs';
import { startGrid } from '../lib/grid.mjs';
import { median, until } from '../lib/stats.mjs';
import { killServerSync, trackServer } from '../lib/tmux.mjs';

const TERMINAL = { cols: 240, rows: 65 };

async function firstByte(file, args) {
  const t0 = performance.now();
  const p = pty.spawn(file, args, { cols: TERMINAL.cols, rows: TERMINAL.rows, name: 'xterm-256color', env: userTerminalEnv({ ...process.env, TERM: 'xterm-256color' }) });
  let at = null;
  p.onData(() => (at ??= performance.now()));
  let exited = false;
  p.onExit(() => (exited = true));
  await until(() => at !== null, `${file} to print`, 60_000, 1);
  return { ms: at - t0, process: p, done: () => until(() => exited, `${file} to exit`, 30_000) };
}

async function gridStart(tiles) {
  const grid = startGrid({ specs: Array.from({ length: tiles }, () => 'cat'), cols: TERMINAL.cols, rows: TERMINAL.rows });
  try {
    await grid.firstFrame(60_000, 1);
    return grid.firstFrameAt - grid.startedAt;
  } finally {
    await grid.stop();
  }
}

async function tmuxStart(tiles) {
  const dir = mkdtempSync(path.join(tmpdir(), 'belltower-bench-tmux-'));
  const sock = path.join(dir, 's');
  writeFileSync(path.join(dir, 'conf'), 'set -g status off\n');
  const chain = ['new-session', 'cat'];
  for (let i = 1; i < tiles; i++) chain.push(';', 'split-window', 'cat', ';', 'select-layout', 'tiled');
  trackServer(sock);
  try {
    const run = await firstByte('tmux', ['-S', sock, '-f', path.join(dir, 'conf'), ...chain]);
    killServerSync(sock);
    await run.done().catch(() => run.process.kill('SIGKILL'));
    return run.ms;
  } finally {
    killServerSync(sock);
    rmSync(dir, { recursive: true, force: true });
  }
}

async function nodeFloor() {
  const run = await firstByte(process.execPath, ['-e', "process.stdout.write('x')"]);
  await run.done();
  return run.ms;
}

export async function startup({ tiles = 9, runs = 5 } = {}) {
  const times = { grid: [], tmux: [], node: [] };
  for (let i = 0; i < runs; i++) {
    times.grid.push(await gridStart(tiles));
    times.tmux.push(await tmuxStart(tiles));
    times.node.push(await nodeFloor());
  }
  return { tiles, runs, grid: median(times.grid), tmux: median(times.tmux), node: median(times.node), all: times };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await startup({ runs: Number(process.argv[2] ?? 5) })));
}
