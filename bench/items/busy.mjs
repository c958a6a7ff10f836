/**
 * 2 and 7. Busy tiles: N tiles, each streaming Ink-style redraw frames at a byte rate, through the
 * real UI into a counting pty — and the same panes through tmux, attached through a pty, in the
 * same run. Measured over a window after start-up:
 *   cpu      belltower's own CPU (not its children's) / tmux server + client, % of one core
 *   fps      frames belltower painted per second (synchronized-output frames)
 *   loopP99  belltower's event-loop delay, p99 (perf_hooks, from inside the process)
 *   keyP99   keystroke typed into the terminal → read by the program in the focused tile, p99
 * With `flood`, the last tile cats that file over and over instead.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startGrid } from '../lib/grid.mjs';
import { idleNode } from '../lib/loop-baseline.mjs';
import { keyProbe } from '../lib/keys.mjs';
import { cpuSeconds, rssBytes } from '../lib/proc.mjs';
import { percentile, sleep } from '../lib/stats.mjs';
import { startTmuxGrid } from '../lib/tmux.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const STREAM = path.join(here, '..', 'programs', 'redraw-stream.mjs');

export const BUSY_TERMINAL = { cols: 240, rows: 65 };

function commands(tiles, rate, flood) {
  const stream = `'${process.execPath}' '${STREAM}' ${rate}`;
  const list = Array.from({ length: tiles }, () => stream);
  if (flood) list[tiles - 1] = `while :; do cat '${flood}'; done`;
  return list;
}

/** With `strict` (the smoke run), no typed key reaching the focused tile is an error. */
function checkKeys(strict, who, keys) {
  if (strict && keys.latencies.length === 0) throw new Error(`bench: busy (${who}): no typed key reached the program in the focused tile`);
}

/**
 * Two phases: for `seconds` nobody types (CPU, frames), then for `typingSeconds` a key every 80 ms
 * on average goes to the focused tile (keystroke latency, and the CPU it adds). The event-loop
 * delay covers both.
 *
 * Both start `settle` seconds after the first frame. A grid's first seconds cost about twice its
 * steady CPU — V8 compiling the hot paths on its own threads, each tile's first git count — as
 * measured second by second with 9 × 50 KB/s: 55 23 21 21 24 17, then 10–13 % from the seventh
 * second on. That is start-up's (item 6), not what busy tiles cost: the full run settles 8 s.
 */
export async function busyBelltower({ tiles, rate, seconds, typingSeconds = seconds, settle = 8, flood = null, terminal = BUSY_TERMINAL, strict = false, env = {} }) {
  const keys = await keyProbe();
  const grid = startGrid({
    specs: commands(tiles, rate, flood),
    cols: terminal.cols,
    rows: terminal.rows,
    env: { ...env, BENCH_KEYS_UDP: String(keys.port) },
    probe: { loop: true },
  });
  const noise = await idleNode();
  try {
    await grid.firstFrame();
    grid.write('\r'); // focus tile 1
    await sleep(settle * 1000);
    await Promise.all([grid.probe(), noise.report()]); // start the loop-delay window
    const quiet = await window(seconds, () => cpuSeconds(grid.pid), () => grid.frames, () => grid.bytes);
    keys.start((k) => grid.write(k));
    const typing = await window(typingSeconds, () => cpuSeconds(grid.pid), () => grid.frames, () => grid.bytes);
    const lost = keys.stop();
    checkKeys(strict, 'belltower', keys);
    const [probe, idle] = await Promise.all([grid.probe(), noise.report()]);
    return {
      rssMB: rssBytes(grid.pid) / 1024 / 1024,
      cpu: quiet.cpu,
      cpuTyping: typing.cpu,
      fps: quiet.frames,
      fpsTyping: typing.frames,
      kbps: quiet.bytes / 1024,
      loopP99: probe.loop.p99,
      loopMax: probe.loop.max,
      gc: probe.gc,
      idleLoopP99: idle.loop.p99,
      keyP50: percentile(keys.latencies, 50),
      keyP99: percentile(keys.latencies, 99),
      keys: keys.latencies.length,
      keysLost: lost,
    };
  } finally {
    keys.close();
    noise.stop();
    await grid.stop();
  }
}

export async function busyTmux({ tiles, rate, seconds, typingSeconds = seconds, settle = 8, flood = null, terminal = BUSY_TERMINAL, strict = false }) {
  const keys = await keyProbe();
  const grid = await startTmuxGrid({ commands: commands(tiles, rate, flood), cols: terminal.cols, rows: terminal.rows, env: { BENCH_KEYS_UDP: String(keys.port) } });
  try {
    await sleep(settle * 1000);
    const clientPid = grid.client.pid;
    const cpuNow = () => cpuSeconds(grid.pid) + cpuSeconds(clientPid);
    const rssNow = () => (rssBytes(grid.pid) + rssBytes(clientPid)) / 1024 / 1024;
    const quiet = await window(seconds, cpuNow, () => 0, () => grid.bytes);
    keys.start((k) => grid.write(k));
    const typing = await window(typingSeconds, cpuNow, () => 0, () => grid.bytes);
    const lost = keys.stop();
    checkKeys(strict, 'tmux', keys);
    return {
      rssMB: rssNow(),
      cpu: quiet.cpu,
      cpuTyping: typing.cpu,
      kbps: quiet.bytes / 1024,
      keyP50: percentile(keys.latencies, 50),
      keyP99: percentile(keys.latencies, 99),
      keys: keys.latencies.length,
      keysLost: lost,
    };
  } finally {
    keys.close();
    await grid.stop();
  }
}

/** Rates per second of the counters over `seconds`. */
async function window(seconds, cpu, frames, bytes) {
  const c0 = cpu();
  const f0 = frames();
  const b0 = bytes();
  const t0 = performance.now();
  await sleep(seconds * 1000);
  const elapsed = (performance.now() - t0) / 1000;
  return { cpu: (cpu() - c0) / elapsed, frames: (frames() - f0) / elapsed, bytes: (bytes() - b0) / elapsed };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [tiles = 9, rate = 50_000, seconds = 10] = process.argv.slice(2).map(Number);
  console.log('belltower', await busyBelltower({ tiles, rate, seconds }));
  console.log('tmux', await busyTmux({ tiles, rate, seconds }));
}
