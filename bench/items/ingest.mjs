/**
 * 1. Ingest: one tile fed `cat` of a large file. Each run times, interleaved:
 *   raw      node-pty alone reading the same `cat` (the ceiling: nothing parsed)
 *   session  belltower's ingest path (pty → flow control → headless xterm), as a library
 *   grid     the built CLI, one tile, painting as it goes, until the last line is painted
 *   tmux     tmux 3.x, a detached pane of the same size, until `cat` has written everything
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pty from 'node-pty';
import { ROOT, startGrid } from '../lib/grid.mjs';
import { cpuSeconds } from '../lib/proc.mjs';
import { deadline, median, until } from '../lib/stats.mjs';
import { writeMixedStream } from '../lib/streams.mjs';
import { tmuxServer } from '../lib/tmux.mjs';

const run = promisify(execFile);
const { Session } = await import(path.join(ROOT, 'dist', 'session', 'session.js'));
const { layout } = await import(path.join(ROOT, 'dist', 'ui', 'layout.js'));

const END = 'BENCH-INGEST-END';
/** The most one run of one reader may take: 100 MB takes seconds; a loaded machine, many more. */
const RUN_TIMEOUT_MS = 600_000;

/** This process's CPU seconds (the raw and session runs happen in it). */
const ownCpu = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

function timeRaw({ file, chars }, cols, rows) {
  let child;
  const timed = new Promise((resolve) => {
    const t0 = performance.now();
    const c0 = ownCpu();
    child = pty.spawn('sh', ['-c', `stty -onlcr; cat '${file}'; sleep 1`], { cols, rows, name: 'xterm-256color' });
    let got = 0;
    child.onData((data) => {
      got += data.length;
      if (got >= chars) resolve({ ms: performance.now() - t0, cpu: ownCpu() - c0 });
    });
  });
  return deadline(timed, 'raw node-pty to read the whole file', RUN_TIMEOUT_MS).finally(() => child?.kill('SIGKILL'));
}

function timeSession({ file, chars }, cols, rows) {
  let session;
  const timed = new Promise((resolve) => {
    const t0 = performance.now();
    const c0 = ownCpu();
    session = Session.start({ file: 'sh', args: ['-c', `stty -onlcr; cat '${file}'; sleep 1`], cols, rows });
    let parsed = 0;
    session.onChunkParsed((data) => {
      parsed += data.length;
      if (parsed >= chars) resolve({ ms: performance.now() - t0, cpu: ownCpu() - c0 });
    });
  });
  return deadline(timed, "belltower's session (as a library) to parse the whole file", RUN_TIMEOUT_MS).finally(() => session?.dispose());
}

/** The grid: the tile waits for a line, so the clock starts when Enter is typed into it. */
async function timeGrid({ file }, terminal) {
  const grid = startGrid({
    specs: [`read x; stty -onlcr; cat '${file}'; printf '\\r\\n%s\\r\\n' ${END}; exec sleep 600`],
    cols: terminal.cols,
    rows: terminal.rows,
    keepText: 4096,
  });
  try {
    await grid.firstFrame();
    grid.write('\r'); // focus the tile
    await until(() => grid.frames > 1, 'the frame of the focused tile');
    const t0 = performance.now();
    const c0 = cpuSeconds(grid.pid);
    grid.write('\r'); // start the cat
    const painted = () => {
      if (grid.exited) throw new Error(`bench: ingest: belltower exited (code ${grid.exitCode}) before the end marker was painted`);
      return grid.text.includes(END);
    };
    await until(painted, 'the end marker to be painted', RUN_TIMEOUT_MS, 2);
    return { ms: performance.now() - t0, cpu: cpuSeconds(grid.pid) - c0 };
  } finally {
    await grid.stop();
  }
}

async function timeTmux({ file }, cols, rows, server) {
  const t0 = performance.now();
  const c0 = cpuSeconds(server.pid());
  const window = server.t('new-window', '-d', '-P', '-F', '#{window_id}', '-t', 'b:', `stty -onlcr; cat '${file}'; tmux -S '${server.sock}' wait-for -S ingest-done; sleep 600`);
  await run('tmux', ['-S', server.sock, 'wait-for', 'ingest-done'], { maxBuffer: 1024, timeout: RUN_TIMEOUT_MS }).catch((error) => {
    throw new Error(`bench: timed out waiting for tmux to write the whole file (${error.message})`);
  });
  const result = { ms: performance.now() - t0, cpu: cpuSeconds(server.pid()) - c0 };
  server.t('kill-window', '-t', window.trim());
  return result;
}

export async function ingest({ mb = 100, runs = 3, cols = 120, rows = 40 } = {}) {
  // A terminal whose single tile body is exactly cols×rows.
  const terminal = { cols: cols + 2, rows: rows + 3 };
  const l = layout({ cols: terminal.cols, rows: terminal.rows, count: 1 });
  const body = l.tiles[0].body;
  const dir = mkdtempSync(path.join(tmpdir(), 'belltower-bench-ingest-'));
  const server = tmuxServer();
  server.t('new-session', '-d', '-s', 'b', '-x', String(cols), '-y', String(rows), 'sleep 600');
  try {
    const stream = writeMixedStream(path.join(dir, 'stream.txt'), mb);
    const times = { raw: [], session: [], grid: [], tmux: [] };
    for (let i = 0; i < runs; i++) {
      times.raw.push(await timeRaw(stream, cols, rows));
      times.session.push(await timeSession(stream, cols, rows));
      times.grid.push(await timeGrid(stream, terminal));
      times.tmux.push(await timeTmux(stream, cols, rows, server));
    }
    const each = (f) => Object.fromEntries(Object.entries(times).map(([k, v]) => [k, f(v)]));
    const ms = each((v) => median(v.map((r) => r.ms)));
    const cpu = each((v) => median(v.map((r) => r.cpu)));
    // Ratios per run (each pair ran back to back), then their median: steadier than a ratio of medians.
    const ratio = (a, b, key) => median(times[a].map((r, i) => r[key] / times[b][i][key]));
    return {
      mb: stream.bytes / 1024 / 1024,
      runs,
      body: `${body.width}×${body.height}`,
      ms,
      cpu,
      mbps: each((v) => stream.bytes / 1024 / 1024 / (median(v.map((r) => r.ms)) / 1000)),
      ratios: {
        gridToTmuxTime: ratio('grid', 'tmux', 'ms'),
        gridToTmuxCpu: ratio('grid', 'tmux', 'cpu'),
        sessionToRawTime: ratio('session', 'raw', 'ms'),
        sessionToTmuxCpu: ratio('session', 'tmux', 'cpu'),
      },
      all: times,
    };
  } finally {
    await server.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await ingest({ mb: Number(process.argv[2] ?? 100), runs: Number(process.argv[3] ?? 3) }), null, 1));
}
