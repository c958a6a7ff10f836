/**
 * The built belltower CLI under test: started in a pty that plays the user's terminal, which counts
 * what belltower writes to it (bytes, frames, bells, with arrival times) and discards it.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pty from 'node-pty';
import { atExit } from './cleanup.mjs';
import { userTerminalEnv } from './env.mjs';
import { sleep, until } from './stats.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = path.join(here, '..', '..');
/** The CLI under test: this checkout's, or another build's (BENCH_BELLTOWER_BIN) to compare two. */
export const BIN = process.env.BENCH_BELLTOWER_BIN || path.join(ROOT, 'bin', 'belltower.js');
const PROBE = path.join(here, 'probe.mjs');

const SYNC_BEGIN = '\x1b[?2026h';
const BEL = '\x07';

/** `text` without escape sequences, its line breaks as spaces: what a terminal would show of it. */
function plain(text) {
  return text
    .replace(/\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b\[[0-9;?<>=]*[ -\/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>78cM]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * @param {object} o
 * @param {string[]} o.specs         one SPEC per tile
 * @param {number} o.cols
 * @param {number} o.rows
 * @param {string[]} [o.args]        extra CLI options (before the SPECs)
 * @param {object} [o.env]           added to the environment
 * @param {{loop?: boolean, timers?: boolean, memory?: boolean}} [o.probe]
 * @param {number} [o.keepText]      keep this many characters of the newest output for `text`
 * @param {string[]} [o.nodeArgs]    options for node itself (`--cpu-prof`)
 */
export function startGrid({ specs, cols, rows, args = [], env = {}, probe = {}, keepText = 0, nodeArgs: extraNodeArgs = [] }) {
  const dir = mkdtempSync(path.join(tmpdir(), 'belltower-bench-'));
  const probeOut = path.join(dir, 'probe.json');
  const probing = probe.loop || probe.timers || probe.memory;
  const nodeArgs = [...extraNodeArgs, ...(probe.memory ? ['--expose-gc'] : []), ...(probing ? ['--import', PROBE] : [])];
  const t0 = performance.now();
  // Every ring a bell; no notification, whatever terminal the benchmark itself runs in (`auto`
  // would pick one from TERM_PROGRAM and the like, which leak in from the environment).
  // Items 1–7 measure the grid in one process (its pid is the one measured); item 8 asks for the
  // session server with --server.
  const options = ['--session', `bench-${process.pid}-${path.basename(dir)}`, '--bell', 'all', '--notify', 'off', ...(args.includes('--server') ? [] : ['--no-server'])];
  const term = pty.spawn(process.execPath, [...nodeArgs, BIN, ...options, ...args, ...specs], {
    cols,
    rows,
    name: 'xterm-256color',
    env: userTerminalEnv({
      ...process.env,
      NODE_ENV: 'production',
      BELLTOWER_STATE_DIR: dir,
      TERM: 'xterm-256color',
      COLORTERM: 'truecolor',
      FORCE_COLOR: '3',
      BENCH_PROBE_OUT: probeOut,
      BENCH_PROBE_LOOP: probe.loop ? '1' : '',
      BENCH_PROBE_TIMERS: probe.timers ? '1' : '',
      ...env,
    }),
  });
  // Ended by `stop()`, or, if the benchmark ends first, killed and its folder removed on exit.
  const undo = atExit(() => {
    try {
      process.kill(term.pid, 'SIGKILL');
    } catch {}
    rmSync(dir, { recursive: true, force: true });
  });
  const grid = {
    pid: term.pid,
    dir,
    startedAt: t0,
    bytes: 0,
    frames: 0,
    firstFrameAt: null,
    bells: [],
    text: '',
    /** The first characters belltower wrote: what it said if it exits before its first frame. */
    head: '',
    exited: false,
    exitCode: null,
    listeners: new Set(),
    counters: new Map(),
    /** Start counting how often `marker` is written; returns a function that reads the count. */
    count(marker) {
      const counter = { count: 0, carry: '' };
      grid.counters.set(marker, counter);
      return () => counter.count;
    },
    write: (data) => term.write(data),
    /**
     * Resolves at the first painted frame; rejects at once, quoting belltower, if it exits first
     * (a SPEC it refused, say), or after `timeoutMs`.
     */
    async firstFrame(timeoutMs = 60_000, everyMs = 5) {
      await until(
        () => {
          if (grid.frames > 0) return true;
          if (grid.exited) throw new Error(`bench: belltower exited (code ${grid.exitCode}) before its first frame, saying: ${JSON.stringify(plain(grid.head).slice(0, 600))}`);
          return false;
        },
        `the first frame of belltower (${grid.bytes} bytes written so far)`,
        timeoutMs,
        everyMs,
      );
    },
    /** What the probe measured since the last call (needs `probe`). */
    async probe() {
      rmSync(probeOut, { force: true });
      process.kill(term.pid, 'SIGUSR2');
      await until(() => existsSync(probeOut), 'the probe report', 30_000, 5);
      return JSON.parse(readFileSync(probeOut, 'utf8'));
    },
    /** SIGTERM (the grid restores the terminal and ends its tiles), SIGKILL if it lingers. */
    async stop() {
      if (!grid.exited) {
        try {
          process.kill(term.pid, 'SIGTERM');
        } catch {}
        await until(() => grid.exited, 'belltower to exit', 8_000).catch(() => {
          try {
            process.kill(term.pid, 'SIGKILL');
          } catch {}
        });
      }
      await sleep(100);
      rmSync(dir, { recursive: true, force: true });
      undo();
    },
  };
  term.onData((data) => {
    const now = performance.now();
    grid.bytes += Buffer.byteLength(data);
    for (let i = data.indexOf(SYNC_BEGIN); i !== -1; i = data.indexOf(SYNC_BEGIN, i + 1)) {
      grid.frames++;
      grid.firstFrameAt ??= now;
    }
    for (let i = data.indexOf(BEL); i !== -1; i = data.indexOf(BEL, i + 1)) {
      // A BEL that ends an OSC is not a bell; belltower's frames carry no OSC, so every BEL rings.
      grid.bells.push(now);
    }
    if (keepText > 0) grid.text = (grid.text + data).slice(-keepText);
    if (grid.head.length < 4096) grid.head = (grid.head + data).slice(0, 4096);
    for (const [marker, counter] of grid.counters) {
      const text = counter.carry + data;
      for (let i = text.indexOf(marker); i !== -1; i = text.indexOf(marker, i + marker.length)) counter.count++;
      counter.carry = text.slice(-(marker.length - 1));
    }
    for (const listener of grid.listeners) listener(data, now);
  });
  term.onExit(({ exitCode, signal }) => {
    grid.exitCode = signal ? `signal ${signal}` : exitCode;
    grid.exited = true;
  });
  return grid;
}
