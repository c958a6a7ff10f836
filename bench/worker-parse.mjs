#!/usr/bin/env node
/**
 * Parsing off the UI's thread, measured before it is built: what moving the tiles' xterm parsing
 * into a worker thread would buy the thread that reads keys and draws, and what handing rows
 * across costs. Runs the BUILT screen and row encoder (`npm run build` first):
 *
 *   node bench/worker-parse.mjs [tiles=9] [bytes-per-second=50000] [seconds=8] [rounds=3]
 *
 * Every tile is a real Screen (@xterm/headless) fed Ink-style redraw frames at the given rate —
 * the stream of bench/programs/redraw-stream.mjs, generated in process so the pty is out of the
 * picture — and painted 30 times a second as the grid's body writer does (every row of a moved
 * screen read and encoded, only changed rows kept). Modes, interleaved round by round:
 *
 *   main      today: parsing, reading and encoding on the main thread
 *   rows      one worker parses and reads; changed rows cross as StyledRow objects (structured
 *             clone), the main thread encodes them
 *   encoded   one worker parses, reads and encodes; changed rows cross as strings
 *   idle      no tiles: what the machine does to the main thread by itself
 *
 * For each: the main thread's busy share (event-loop utilisation), the process's CPU (all
 * threads), event-loop delay p99, and "keystroke" delay: a child process stamps a line every
 * 20 ms on a pipe, the main thread reads it — the path a key takes from the terminal.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.join(here, '..', 'dist');
const { Screen } = await import(pathToFileURL(path.join(dist, 'session', 'screen.js')).href);
const { encodeRow } = await import(pathToFileURL(path.join(dist, 'ui', 'row-encoder.js')).href);

const COLS = 78;
const ROWS = 20;
const FRAME_MS = 1000 / 30;
const READ = { isolateClusters: true };
const spinner = ['·', '✢', '*', '✶', '✻', '✽'];
const words = 'the quick brown fox jumps over the lazy dog while the build runs and tests pass'.split(' ');

/** One redraw of a 14-line Ink-style frame (bench/programs/redraw-stream.mjs's shape). */
function render(frame, lines = 14) {
  const out = [];
  for (let i = 0; i < lines; i++) {
    const changing = i === 0 || i === lines - 1 || (frame + i) % 6 === 0;
    const stamp = changing ? `${spinner[frame % spinner.length]} ${frame}` : '·';
    out.push(`${stamp} \x1b[38;2;215;119;87m${words[(i + (changing ? frame : 0)) % words.length]}\x1b[0m \x1b[2m${words.slice(0, 8).join(' ')}\x1b[0m`);
  }
  return `\x1b[${lines}A\r` + out.map((l) => `\x1b[2K${l}\r\n`).join('');
}

/** Tiles streaming at `rate` bytes/s each; `paint(changes)` gets [tile, y, row][] 30 times a second. */
function runTiles(tiles, rate, encode, paint) {
  const screens = Array.from({ length: tiles }, () => new Screen({ cols: COLS, rows: ROWS, onReply: () => {} }));
  const seen = screens.map(() => ({ generation: -1, rows: [] }));
  const frameBytes = Buffer.byteLength(render(0));
  const timers = screens.map((screen, t) => {
    let frame = 0;
    screen.write('\r\n'.repeat(14));
    return setInterval(() => screen.write(render(++frame + t)), 1000 / Math.max(1, rate / frameBytes));
  });
  timers.push(
    setInterval(() => {
      const changes = [];
      screens.forEach((screen, t) => {
        const last = seen[t];
        if (screen.generation === last.generation) return;
        last.generation = screen.generation;
        for (let y = 0; y < ROWS; y++) {
          const row = screen.styledRow(y, READ);
          const key = encode ? encodeRow(row, 0, 'truecolor') : row.runs.map((r) => r.text).join('');
          if (last.rows[y] === key) continue;
          last.rows[y] = key;
          changes.push([t, y, encode ? key : row]);
        }
      });
      if (changes.length > 0) paint(changes);
    }, FRAME_MS),
  );
  return () => {
    for (const timer of timers) clearInterval(timer);
    for (const screen of screens) screen.dispose();
  };
}

if (!isMainThread) {
  const { tiles, rate, encode } = workerData;
  const stop = runTiles(tiles, rate, encode, (changes) => parentPort.postMessage(changes));
  parentPort.on('message', () => {
    stop();
    parentPort.close();
  });
} else {
  const tiles = Number(process.argv[2] ?? 9);
  const rate = Number(process.argv[3] ?? 50_000);
  const seconds = Number(process.argv[4] ?? 8);
  const rounds = Number(process.argv[5] ?? 3);

  /** What the grid does with painted rows: write them to the terminal (here: count the bytes). */
  let painted = 0;
  const paintEncoded = (changes) => {
    let out = '';
    for (const [t, y, encoded] of changes) out += `\x1b[${y + 1};${t * COLS + 1}H${encoded}`;
    painted += out.length;
  };
  const paintRows = (changes) => paintEncoded(changes.map(([t, y, row]) => [t, y, encodeRow(row, 0, 'truecolor')]));

  async function measure(mode) {
    let stop = () => {};
    if (mode === 'main') stop = runTiles(tiles, rate, true, paintEncoded);
    if (mode === 'rows' || mode === 'encoded') {
      const worker = new Worker(fileURLToPath(import.meta.url), { workerData: { tiles, rate, encode: mode === 'encoded' }, argv: [] });
      worker.on('message', mode === 'encoded' ? paintEncoded : paintRows);
      stop = () => worker.postMessage('stop');
    }
    // Let the screens fill and the JIT settle before the window.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const typist = spawn(process.execPath, ['-e', 'setInterval(() => process.stdout.write(String(performance.timeOrigin + performance.now()) + "\\n"), 20)'], { stdio: ['ignore', 'pipe', 'inherit'] });
    const keys = [];
    let partial = '';
    typist.stdout.on('data', (data) => {
      const at = performance.timeOrigin + performance.now();
      const lines = (partial + data).split('\n');
      partial = lines.pop();
      for (const line of lines) keys.push(at - Number(line));
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    keys.length = 0;
    const delay = monitorEventLoopDelay({ resolution: 1 });
    delay.enable();
    const elu = performance.eventLoopUtilization();
    const cpu = process.cpuUsage();
    const t0 = performance.now();
    painted = 0;
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    const wall = performance.now() - t0;
    const used = process.cpuUsage(cpu);
    const busy = performance.eventLoopUtilization(elu).utilization;
    delay.disable();
    typist.kill();
    stop();
    await new Promise((resolve) => setTimeout(resolve, 300));
    keys.sort((a, b) => a - b);
    return {
      mode,
      mainBusy: busy * 100,
      cpu: ((used.user + used.system) / 1000 / wall) * 100,
      loopP99: delay.percentile(99) / 1e6,
      keyP50: keys[Math.floor(keys.length * 0.5)] ?? NaN,
      keyP99: keys[Math.floor(keys.length * 0.99)] ?? NaN,
      paintedKBs: painted / 1024 / (wall / 1000),
    };
  }

  const modes = ['idle', 'main', 'rows', 'encoded'];
  const results = Object.fromEntries(modes.map((m) => [m, []]));
  for (let round = 0; round < rounds; round++) {
    for (const mode of round % 2 ? [...modes].reverse() : modes) results[mode].push(await measure(mode));
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const fields = ['mainBusy', 'cpu', 'loopP99', 'keyP50', 'keyP99', 'paintedKBs'];
  console.log(`${tiles} tiles × ${rate / 1000} KB/s, ${seconds} s windows, medians of ${rounds} interleaved rounds`);
  console.log(['mode', 'main busy %', 'CPU %', 'loop p99 ms', 'key p50 ms', 'key p99 ms', 'painted KB/s'].join('\t'));
  const base = Object.fromEntries(fields.map((f) => [f, median(results.main.map((r) => r[f]))]));
  for (const mode of modes) {
    const row = fields.map((f) => median(results[mode].map((r) => r[f])));
    console.log([mode, ...row.map((v, i) => `${v.toFixed(1)}${mode !== 'main' && mode !== 'idle' ? ` (${(v / base[fields[i]]).toFixed(2)}×)` : ''}`)].join('\t'));
  }
  if (process.env.BENCH_JSON) console.log(JSON.stringify(results));
}
