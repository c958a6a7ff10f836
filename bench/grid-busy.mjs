#!/usr/bin/env node
/**
 * The grid under load: N tiles, each streaming Ink-style redraw frames at a byte rate, through the
 * real UI (the built CLI) into a real pty whose output is counted and discarded. Reports
 * belltower's own CPU (not its children's) as % of one core, frames painted per second, bytes
 * written to the terminal — and the same load through tmux 3.x in the same run, as the baseline
 * the ratio is taken against.
 *
 *   npm run build && node bench/grid-busy.mjs [tiles=9] [bytesPerSecond=50000] [seconds=20]
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pty from 'node-pty';

const here = path.dirname(fileURLToPath(import.meta.url));
const bin = path.join(here, '..', 'bin', 'belltower.js');
const stream = path.join(here, 'redraw-stream.mjs');
const tiles = Number(process.argv[2] ?? 9);
const rate = Number(process.argv[3] ?? 50_000);
const seconds = Number(process.argv[4] ?? 20);
const COLS = 240;
const ROWS = 65;
const TICK = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

/** utime + stime of one process, in seconds (its own, not its children's). */
function cpuOf(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICK;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const spec = `${process.execPath} ${stream} ${rate}`;

async function belltower() {
  const dir = mkdtempSync(path.join(tmpdir(), 'belltower-bench-'));
  let bytes = 0;
  let frames = 0;
  const term = pty.spawn(process.execPath, [bin, ...Array.from({ length: tiles }, () => spec), '--session', `bench-${process.pid}`, '--bell', 'off'], {
    cols: COLS,
    rows: ROWS,
    env: { ...process.env, CI: '', BELLTOWER_STATE_DIR: dir, TERM: 'xterm-256color', COLORTERM: 'truecolor' },
  });
  term.onData((d) => {
    bytes += Buffer.byteLength(d);
    frames += d.split('\x1b[?2026h').length - 1;
  });
  await sleep(3000); // start-up: the tiles spawn and settle into their stream
  const cpu0 = cpuOf(term.pid);
  const b0 = bytes;
  const f0 = frames;
  const t0 = performance.now();
  await sleep(seconds * 1000);
  const elapsed = (performance.now() - t0) / 1000;
  const cpu = (cpuOf(term.pid) - cpu0) / elapsed;
  const result = { cpu, fps: (frames - f0) / elapsed, kbps: (bytes - b0) / 1024 / elapsed };
  term.write('q');
  await sleep(300);
  term.write('y');
  await sleep(1500);
  try {
    term.kill();
  } catch {}
  rmSync(dir, { recursive: true, force: true });
  return result;
}

async function tmux() {
  if (spawnSync('tmux', ['-V']).status !== 0) return null;
  const dir = mkdtempSync(path.join(tmpdir(), 'belltower-bench-tmux-'));
  const sock = path.join(dir, 's');
  const t = (...args) => execFileSync('tmux', ['-S', sock, '-f', '/dev/null', ...args], { encoding: 'utf8' });
  // A client attached through a real pty, as a user's terminal would be.
  t('new-session', '-d', '-s', 'b', '-x', String(COLS), '-y', String(ROWS), spec);
  for (let i = 1; i < tiles; i++) {
    t('split-window', '-t', 'b', spec);
    t('select-layout', '-t', 'b', 'tiled');
  }
  t('select-layout', '-t', 'b', 'tiled');
  let bytes = 0;
  const client = pty.spawn('tmux', ['-S', sock, 'attach', '-t', 'b'], { cols: COLS, rows: ROWS, env: { ...process.env, TERM: 'xterm-256color' } });
  client.onData((d) => (bytes += Buffer.byteLength(d)));
  const server = Number(t('display-message', '-p', '#{pid}').trim());
  await sleep(3000);
  const cpu0 = cpuOf(server);
  const b0 = bytes;
  const t0 = performance.now();
  await sleep(seconds * 1000);
  const elapsed = (performance.now() - t0) / 1000;
  const cpu = (cpuOf(server) - cpu0) / elapsed;
  const result = { cpu, kbps: (bytes - b0) / 1024 / elapsed };
  t('kill-server');
  client.kill();
  rmSync(dir, { recursive: true, force: true });
  return result;
}

const load = loadavg()[0].toFixed(2);
const bt = await belltower();
const tm = await tmux();
const pct = (x) => `${(x * 100).toFixed(1)}%`;
console.log(`grid-busy: ${tiles} tiles × ${(rate / 1000).toFixed(0)} KB/s for ${seconds}s on ${COLS}×${ROWS} (load avg ${load} before)`);
console.log(`  belltower  CPU ${pct(bt.cpu)} of a core · ${bt.fps.toFixed(1)} frames/s · ${bt.kbps.toFixed(0)} KB/s to the terminal`);
if (tm) console.log(`  tmux       CPU ${pct(tm.cpu)} of a core · ${tm.kbps.toFixed(0)} KB/s to the terminal`);
if (tm) console.log(`  ratio      belltower / tmux CPU = ${(bt.cpu / tm.cpu).toFixed(2)}`);
