#!/usr/bin/env node
/**
 * `npm run bench`: every performance goal of belltower, each measured against a baseline run in
 * this same run (tmux 3.x, raw node-pty, an idle Node process, the engine's own conflict window),
 * and reported as a ratio — this machine is shared and noisy, so absolute numbers mean little
 * alone. Prints one table; with --update-doc it also writes it into docs/performance.md.
 *
 *   npm run bench [-- --quick] [-- --only ingest,busy] [-- --update-doc] [-- --json out.json]
 *   npm run bench -- --smoke      every item, baselines included, for seconds each (CI runs it)
 *   npm run bench -- --item-deadline 600    seconds one item may take (180 with --smoke, else 2700)
 *
 * Runs the BUILT CLI (`npm run bench` builds first). Needs tmux 3.x on PATH for the baselines.
 *
 * An item that fails (an error, or a wait that times out) is named on stderr and the run goes on
 * with the next; an item that outlives its deadline ends the run. Either way the exit status is 1
 * and the doc is not written. No number ever fails a run: the goals are the table's `met` column.
 * --smoke checks that every item still runs — not how fast — in about a minute: its numbers come
 * from windows too short to mean anything, so it never writes the doc.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { attachFirstFrame, attachKeys, idleServer, tmuxKeys } from './items/attach.mjs';
import { busyBelltower, busyTmux } from './items/busy.mjs';
import { chromeChurn } from './items/chrome-churn.mjs';
import { QUIET_WORKING_TILE, startIdle } from './items/idle.mjs';
import { ingest } from './items/ingest.mjs';
import { latency, latencyFloor } from './items/latency.mjs';
import { memory } from './items/memory.mjs';
import { startup } from './items/startup.mjs';
import { atExit } from './lib/cleanup.mjs';
import { writeMixedStream } from './lib/streams.mjs';
import { tmuxVersion } from './lib/tmux.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.join(here, '..');
const DOC = path.join(ROOT, 'docs', 'performance.md');

const argv = process.argv.slice(2);
const flag = (name) => argv.includes(name);
const option = (name) => {
  const i = argv.indexOf(name);
  return i === -1 ? undefined : argv[i + 1];
};
const smoke = flag('--smoke');
const quick = flag('--quick');
const ITEMS = ['startup', 'ingest', 'idle', 'latency', 'memory', 'busy', 'scale', 'attach'];
const only = option('--only')?.split(',');
const unknown = only?.filter((name) => !ITEMS.includes(name)) ?? [];
if (unknown.length) {
  console.error(`bench: no item ${unknown.join(', ')} (the items: ${ITEMS.join(' ')})`);
  process.exit(2);
}
if (smoke && flag('--update-doc')) {
  console.error('bench: --smoke numbers are not results; it never writes the doc');
  process.exit(2);
}
const wants = (item) => !only || only.includes(item);

/**
 * How long and how often: the full run fits in 10 minutes on 2 busy cores; --quick in about 2;
 * --smoke in about 1 (each item seconds, on fewer tiles and fewer lines).
 */
const PLAN = smoke
  ? { startupRuns: 1, ingestMB: 2, ingestRuns: 1, idleTiles: 4, idleSettle: 1, idleSeconds: 2, turns: 20, memoryTiles: 2, memoryLines: 20_000, churnFrames: 50, window: 1, typing: 1, settle: 0.5, busy: 'smoke', scale: [1, 9], attachRuns: 1, attachKeys: 1, serverIdle: 2, serverIdleSettle: 1 }
  : quick
    ? { startupRuns: 2, ingestMB: 16, ingestRuns: 1, idleSeconds: 10, turns: 30, memoryTiles: 4, churnFrames: 200, window: 3, typing: 3, settle: 4, scale: [1, 9, 32], attachRuns: 3, attachKeys: 3, serverIdle: 10, serverIdleSettle: 10 }
    : { startupRuns: 5, ingestMB: 100, ingestRuns: 3, idleSeconds: 60, turns: 200, memoryTiles: 16, churnFrames: 1200, window: 5, typing: 8, keysTyping: 20, settle: 8, scale: [1, 4, 9, 16, 32, 64], attachRuns: 5, attachKeys: 20, serverIdle: 60, serverIdleSettle: 20 };
/**
 * The longest one item may run before the run gives up on it (the full memory item takes minutes);
 * `--item-deadline <seconds>` for a machine slower still.
 */
const ITEM_DEADLINE_MS = option('--item-deadline') ? Number(option('--item-deadline')) * 1000 : smoke ? 180_000 : 45 * 60_000;

if (!tmuxVersion()) {
  console.error('bench: tmux is not on PATH; every benchmark here takes tmux as its baseline');
  process.exit(2);
}

// --- the machine, and its load while we run -------------------------------------------------
const loads = [];
const sampleLoad = () => loads.push(os.loadavg()[0]);
sampleLoad();
const loadTimer = setInterval(sampleLoad, 2_000);
const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;

// Interrupted: end like an error, so that what the items started (grids, tmux servers) is killed on
// the way out (lib/grid.mjs and lib/tmux.mjs do it on exit).
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    console.error(`\nbench: ${signal} after ${elapsed()}; stopping what it started`);
    process.exit(130);
  });
}

/** What failed, one line each: named on stderr when it happens and again at the end. */
const failures = [];
class Overran extends Error {}
/**
 * Runs one item (`name` as the table numbers it, "1 ingest"). A failure is named and the run goes
 * on; an item still running at its deadline ends the run, since it still holds what it started.
 */
async function item(name, body) {
  const t0 = performance.now();
  let timer;
  const overran = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Overran(`did not finish in ${ITEM_DEADLINE_MS / 1000} s`)), ITEM_DEADLINE_MS);
  });
  try {
    await Promise.race([body(), overran]);
    console.error(`  (${name}: ${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  } catch (error) {
    const message = `bench: item ${name} failed after ${((performance.now() - t0) / 1000).toFixed(1)} s: ${String(error?.message ?? error).replace(/^bench: /, '')}`;
    failures.push(message);
    console.error(`\n${message}`);
    if (error?.stack && !String(error.message).startsWith('bench:') && !(error instanceof Overran)) console.error(error.stack);
    if (error instanceof Overran) finish();
  } finally {
    clearTimeout(timer);
  }
}

/** The end of a run with failures: say them all, exit 1 (the exit handlers stop what still runs). */
function finish() {
  if (!failures.length) return;
  console.error(`\nbench: ${failures.length} item${failures.length === 1 ? '' : 's'} failed in ${elapsed()}${smoke ? ' (smoke)' : ''}:`);
  for (const f of failures) console.error(`  ${f}`);
  process.exit(1);
}

const rows = [];
/** One line of the table. `ratio` is belltower ÷ baseline unless said otherwise. */
function row(item, measure, belltower, baseline, ratio, goal, met) {
  if (smoke) met = null; // a window of a second or two says nothing about a goal
  rows.push({ item, measure, belltower, baseline, ratio, goal, met });
  const status = met === null ? '' : met ? '✓' : '✗';
  console.error(`  ${item} ${measure}: ${belltower} | ${baseline} | ${fmtRatio(ratio)} ${status}`);
}
const fmtRatio = (r) => (Number.isFinite(r) ? r.toFixed(2) : '—');
const pct = (x) => `${(x * 100).toFixed(1)} %`;
const ms = (x) => `${x.toFixed(x < 10 ? 1 : 0)} ms`;
const section = (name) => console.error(`\n${name} (${((performance.now() - started) / 1000).toFixed(0)} s into the run)`);

const work = mkdtempSync(path.join(os.tmpdir(), 'belltower-bench-run-'));
atExit(() => rmSync(work, { recursive: true, force: true }));
const results = {};
let idleRun = null;
try {
  if (wants('startup')) {
    section('6. start-up');
    await item('6 start-up', async () => {
      const r = (results.startup = await startup({ runs: PLAN.startupRuns }));
      row('6', `first painted frame, ${r.tiles} tiles of \`cat\``, ms(r.grid), `tmux ${ms(r.tmux)} · node alone ${ms(r.node)}`, r.grid / r.tmux, '< 400 ms', r.grid < 400);
    });
  }

  if (wants('ingest')) {
    section('1. ingest');
    await item('1 ingest', async () => {
      const r = (results.ingest = await ingest({ mb: PLAN.ingestMB, runs: PLAN.ingestRuns }));
      const mb = `${r.mb.toFixed(0)} MB`;
      row('1', `time to parse ${mb} (one tile, ${r.body}, painting)`, `${(r.ms.grid / 1000).toFixed(2)} s`, `tmux ${(r.ms.tmux / 1000).toFixed(2)} s`, r.ratios.gridToTmuxTime, '≤ 1.0', r.ratios.gridToTmuxTime <= 1);
      row('1', `CPU to parse ${mb}`, `${r.cpu.grid.toFixed(2)} s`, `tmux ${r.cpu.tmux.toFixed(2)} s`, r.ratios.gridToTmuxCpu, '', null);
      row('1', 'pty → screen (library) against raw node-pty', `${r.mbps.session.toFixed(1)} MB/s`, `raw ${r.mbps.raw.toFixed(1)} MB/s`, r.mbps.session / r.mbps.raw, '', null);
    });
  }

  // Idle processes need no quiet machine: the idle window runs alongside the latency turns.
  if (wants('idle')) {
    section('3. idle (its window runs alongside 4)');
    await item('3 idle (start)', async () => {
      idleRun = await startIdle({ tiles: PLAN.idleTiles, settle: PLAN.idleSettle });
    });
  }

  if (wants('latency')) {
    section('4. detection latency');
    await item('4 detection latency', async () => {
      // The smoke run spaces the turns out: on a loaded machine a tile's next turn could otherwise
      // start inside its last done's conflict window, which rightly rings once for both.
      const slotMs = smoke ? 300 : 100;
      const floor = (results['latency-floor'] = await latencyFloor({ turns: PLAN.turns, slotMs, strict: smoke }));
      for (const source of ['hook', 'psp']) {
        const r = (results[`latency-${source}`] = await latency({ source, turns: PLAN.turns, slotMs, strict: smoke }));
        const label = source === 'hook' ? 'hook Stop' : 'OSC 7501 done';
        const complete = r.bells === r.turns;
        row('4', `${label} → BEL, p50 (${r.turns} turns)`, ms(r.p50), `floor ${ms(floor.p50)}`, r.p50 / floor.p50, '', null);
        row('4', `${label} → BEL, p99${complete ? '' : ` (${r.bells} bells for ${r.turns} turns)`}`, ms(r.p99), `floor ${ms(floor.p99)}`, r.p99 / floor.p99, `≤ ${r.windowMs + 10} ms`, complete && r.p99 <= r.windowMs + 10);
      }
    });
  }

  if (idleRun) {
    const run = idleRun;
    idleRun = null;
    await item('3 idle', async () => {
      const r = (results.idle = await run.finish(PLAN.idleSeconds));
      const timers = Object.values(r.grid.timers).reduce((a, b) => a + b, 0);
      row('3', `CPU, ${r.tiles} idle tiles, ${r.seconds.toFixed(0)} s`, pct(r.grid.cpu), `tmux ${pct(r.tmux.cpu)}`, r.grid.cpu / r.tmux.cpu, '≤ 0.1 %', r.grid.cpu <= 0.001);
      row('3', 'bytes written to the terminal', String(r.grid.bytes), `tmux ${r.tmux.bytes}`, r.tmux.bytes ? r.grid.bytes / r.tmux.bytes : NaN, '0', r.grid.bytes === 0);
      row('3', 'wake-ups per second, all threads (timer callbacks run; garbage collections)', `${r.grid.wakeupsPerSecond.toFixed(2)} (${timers}; ${r.grid.gc.count})`, `tmux ${r.tmux.wakeupsPerSecond.toFixed(2)}`, r.grid.wakeupsPerSecond / r.tmux.wakeupsPerSecond, 'no timer', timers === 0);
    });
    // Not idle, but nearly: each tile paints a line every 2 s; the ages in 16 headers must cost
    // one chrome repaint a second, not one per tile.
    await item('3 working, quiet', async () => {
      const run = await startIdle({ tiles: PLAN.idleTiles, settle: PLAN.idleSettle, spec: QUIET_WORKING_TILE });
      const r = (results.quietWorking = await run.finish(PLAN.idleSeconds));
      const lines = r.tiles / 2;
      row('3', `CPU, ${r.tiles} working tiles printing a line each 2 s, states begun 60 ms apart`, pct(r.grid.cpu), `tmux ${pct(r.tmux.cpu)}`, r.grid.cpu / r.tmux.cpu, '', null);
      row('3', 'frames painted per second (the tiles\' lines; the headers\' ages)', r.grid.framesPerSecond.toFixed(1), `${lines} lines + 1 age tick a second`, r.grid.framesPerSecond / (lines + 1), `≤ ${lines + 1}`, r.grid.framesPerSecond <= lines + 1.5);
    });
  }

  if (wants('memory')) {
    section('5. memory');
    await item('5 memory', async () => {
      const r = (results.memory = await memory({ tiles: PLAN.memoryTiles, lines: PLAN.memoryLines }));
      row('5', `RSS per ${r.size} tile after ${r.lines.toLocaleString('en')} lines (${r.tiles} tiles, scrollback ${r.scrollback})`, `${r.grid.perTile.toFixed(1)} MB`, `tmux ${r.tmux.perTile.toFixed(1)} MB`, r.grid.perTile / r.tmux.perTile, '≤ 2 MB', r.grid.perTile <= 2);
      row('5', `RSS, 1 tile → ${r.tiles} tiles`, `${r.grid.rss1.toFixed(0)} → ${r.grid.rssN.toFixed(0)} MB`, `tmux ${r.tmux.rss1.toFixed(0)} → ${r.tmux.rssN.toFixed(0)} MB`, r.grid.rssN / r.tmux.rssN, '1 tile ≤ 80 MB', r.grid.rss1 <= 80);
    });
    await item('5 memory (chrome)', async () => {
      const c = (results.chromeChurn = await chromeChurn({ frames: PLAN.churnFrames }));
      row('5', `chrome heap growth, ${c.frames} frames of 9 ticking headers`, `${c.rowCache.heapGrowthMB.toFixed(1)} MB`, `Ink's own ${c.ink.heapGrowthMB.toFixed(1)} MB`, c.rowCache.heapGrowthMB / c.ink.heapGrowthMB, 'bounded', null);
      row('5', 'chrome frame, 240×65, 9 headers changed', ms(c.rowCache.msPerFrame), `Ink's own ${ms(c.ink.msPerFrame)}`, c.rowCache.msPerFrame / c.ink.msPerFrame, '', null);
    });
  }

  if (wants('busy')) {
    section('2. busy tiles');
    await item('2 busy tiles', async () => {
      const flood = writeMixedStream(path.join(work, 'flood.txt'), PLAN.ingestMB).file;
      // The smoke run: the goal's configuration and its flood, which between them take every path.
      const configs =
        PLAN.busy === 'smoke'
          ? [
              { tiles: 9, rate: 50_000 },
              { tiles: 9, rate: 50_000, flood },
            ]
          : [
              { tiles: 9, rate: 50_000 },
              { tiles: 16, rate: 50_000 },
              { tiles: 9, rate: 200_000 },
              { tiles: 16, rate: 200_000 },
              { tiles: 9, rate: 50_000, flood },
            ];
      results.busy = [];
      for (const c of configs) {
        // Item 2 types longer (when the plan says): a p99 of 100 keys is their second slowest.
        const opts = { ...c, seconds: PLAN.window, typingSeconds: PLAN.keysTyping ?? PLAN.typing, settle: PLAN.settle, strict: smoke };
        const bt = await busyBelltower(opts);
        const tm = await busyTmux(opts);
        results.busy.push({ ...c, flood: Boolean(c.flood), belltower: bt, tmux: tm });
        const name = `${c.tiles} × ${c.rate / 1000} KB/s${c.flood ? `, the last flooding ${PLAN.ingestMB} MB` : ''}`;
        const goalConfig = c.tiles === 9 && c.rate === 50_000 && !c.flood;
        if (!c.flood) row('2', `CPU, ${name}`, pct(bt.cpu), `tmux ${pct(tm.cpu)}`, bt.cpu / tm.cpu, goalConfig ? '≤ 1.5 × tmux' : '', goalConfig ? bt.cpu <= 1.5 * tm.cpu : null);
        if (goalConfig) row('2', `CPU while typing 12 keys/s, ${name}`, pct(bt.cpuTyping), `tmux ${pct(tm.cpuTyping)}`, bt.cpuTyping / tm.cpuTyping, '≤ 1.5 × tmux', bt.cpuTyping <= 1.5 * tm.cpuTyping);
        // The frame timer allows 30 a second at most; what a busy grid without a flood paints in this
        // same run is what "held" is measured against.
        const calm = results.busy.find((b) => b.tiles === c.tiles && b.rate === c.rate && !b.flood);
        if (c.flood && calm) row('2', `frames painted per second, ${name}`, bt.fps.toFixed(1), `no flood ${calm.belltower.fps.toFixed(1)}`, bt.fps / calm.belltower.fps, '30 held (≥ 95 %)', bt.fps >= 0.95 * calm.belltower.fps);
        else row('2', `frames painted per second, ${name}`, bt.fps.toFixed(1), 'at most 30', bt.fps / 30, '', null);
        row('2', `event-loop delay p99, ${name}`, ms(bt.loopP99), `idle node ${ms(bt.idleLoopP99)}`, bt.loopP99 / bt.idleLoopP99, '< 16 ms', bt.loopP99 < 16);
        row('2', `keystroke → focused tile p99 (p50), ${name}`, `${ms(bt.keyP99)} (${ms(bt.keyP50)})`, `tmux ${ms(tm.keyP99)} (${ms(tm.keyP50)})`, bt.keyP99 / tm.keyP99, '≤ tmux', bt.keyP99 <= tm.keyP99);
        if (goalConfig) {
          // What the keyboard thread buys: the same run with keys read on the main thread.
          const main = await busyBelltower({ ...opts, env: { BELLTOWER_KEYBOARD_THREAD: '0' } });
          results.busy.at(-1).keysOnMain = main;
          row('2', `keystroke → focused tile p99 (p50), ${name}: keyboard thread / keys on the main thread`, `${ms(bt.keyP99)} (${ms(bt.keyP50)})`, `main thread ${ms(main.keyP99)} (${ms(main.keyP50)})`, bt.keyP99 / main.keyP99, '', null);
        }
      }
    });
  }

  if (wants('scale')) {
    section('7. scale');
    await item('7 scale', async () => {
      results.scale = [];
      let perTileSmall = null;
      for (const tiles of PLAN.scale) {
        const opts = { tiles, rate: 50_000, seconds: PLAN.window, typingSeconds: PLAN.typing, settle: PLAN.settle, strict: smoke };
        const reuse = results.busy?.find((b) => b.tiles === tiles && b.rate === 50_000 && !b.flood);
        const bt = reuse?.belltower ?? (await busyBelltower(opts));
        const tm = reuse?.tmux ?? (await busyTmux(opts));
        results.scale.push({ tiles, belltower: bt, tmux: tm });
        const perTile = bt.cpu / tiles;
        if (tiles >= 4) perTileSmall ??= perTile;
        const linear = perTileSmall === null || tiles <= 4 ? null : perTile <= perTileSmall * 1.25;
        row('7', `CPU at ${tiles} × 50 KB/s (per tile; fps; loop p99)`, `${pct(bt.cpu)} (${pct(perTile)}; ${bt.fps.toFixed(0)}; ${ms(bt.loopP99)})`, `tmux ${pct(tm.cpu)} (${pct(tm.cpu / tiles)})`, bt.cpu / tm.cpu, tiles > 4 ? 'per tile ≤ 1.25 × at 4' : '', linear);
        if (bt.rssMB !== undefined && tm.rssMB !== undefined) row('7', `RSS at ${tiles} × 50 KB/s`, `${bt.rssMB.toFixed(0)} MB`, `tmux ${tm.rssMB.toFixed(0)} MB`, bt.rssMB / tm.rssMB, '', null);
      }
    });
  }
  if (wants('attach')) {
    section('8. detach and attach');
    await item('8 attach', async () => {
      const a = (results.attach = await attachFirstFrame({ tiles: 20, runs: PLAN.attachRuns }));
      row('8', `attach → first full frame, ${a.tiles} tiles of \`cat\``, ms(a.belltower), `tmux attach ${ms(a.tmux)}`, a.belltower / a.tmux, '< 300 ms', a.belltower < 300);
      row('8', 'attach client RSS', `${a.clientRssMB.toFixed(0)} MB`, `tmux client ${a.tmuxClientRssMB.toFixed(0)} MB`, a.clientRssMB / a.tmuxClientRssMB, '≤ 60 MB', a.clientRssMB <= 60);
      const opts = { tiles: 9, rate: 50_000, seconds: PLAN.attachKeys, settle: PLAN.settle, strict: smoke };
      const bk = (results.attachKeys = await attachKeys(opts));
      const tk = (results.attachKeysTmux = await tmuxKeys(opts));
      row('8', 'keystroke → tile through the client p99 (p50), 9 × 50 KB/s', `${ms(bk.keyP99)} (${ms(bk.keyP50)})`, `tmux client ${ms(tk.keyP99)} (${ms(tk.keyP50)})`, bk.keyP99 / tk.keyP99, '≤ tmux', bk.keyP99 <= tk.keyP99);
      const mk = (results.attachKeysOnMain = await attachKeys({ ...opts, env: { BELLTOWER_KEYBOARD_THREAD: '0' } }));
      row('8', 'keystroke → tile through the client p99 (p50), 9 × 50 KB/s: keys socket / keys on the server\'s main thread', `${ms(bk.keyP99)} (${ms(bk.keyP50)})`, `main thread ${ms(mk.keyP99)} (${ms(mk.keyP50)})`, bk.keyP99 / mk.keyP99, '', null);
      const i = (results.serverIdle = await idleServer({ tiles: 16, seconds: PLAN.serverIdle, settle: PLAN.serverIdleSettle }));
      row('8', `server CPU, ${i.tiles} idle tiles, no client, ${i.seconds.toFixed(0)} s`, pct(i.belltower.cpu), `tmux server ${pct(i.tmux.cpu)}`, i.belltower.cpu / i.tmux.cpu, '≤ 0.1 %', i.belltower.cpu <= 0.001);
      row('8', 'server bytes written (write calls of any kind, eventfd wake-ups included); wake-ups/s', `${i.belltower.bytes} B${i.belltower.changed.length > 0 ? ` (files changed: ${i.belltower.changed.join(', ')})` : ''}; ${i.belltower.wakeupsPerSecond.toFixed(2)}`, `tmux ${i.tmux.bytes} B; ${i.tmux.wakeupsPerSecond.toFixed(2)}`, NaN, 'nothing', null);
    });
  }
} finally {
  await idleRun?.stop();
  clearInterval(loadTimer);
  rmSync(work, { recursive: true, force: true });
}
sampleLoad();

// --- the table --------------------------------------------------------------------------------
const seconds = (performance.now() - started) / 1000;
const sorted = [...loads].sort((a, b) => a - b);
const machine = {
  cores: os.cpus().length,
  cpu: os.cpus()[0]?.model ?? '?',
  memoryGB: Math.round(os.totalmem() / 1024 ** 3),
  node: process.version,
  tmux: tmuxVersion(),
  kernel: os.release(),
  load: { min: sorted[0], median: sorted[Math.floor(sorted.length / 2)], max: sorted.at(-1) },
  commit: gitCommit(),
  seconds,
  command: `npm run bench${argv.length ? ` -- ${argv.join(' ')}` : ''}`,
  date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
};

const table = [
  '| # | measure | belltower | baseline (same run) | ratio | goal | met |',
  '|---|---|---|---|---|---|---|',
  ...rows.map((r) => `| ${r.item} | ${r.measure} | ${r.belltower} | ${r.baseline} | ${fmtRatio(r.ratio)} | ${r.goal} | ${r.met === null ? '' : r.met ? '✓' : '✗'} |`),
].join('\n');
const about = [
  `\`${machine.command}\` on ${machine.date}, commit ${machine.commit}, in ${seconds.toFixed(0)} s.`,
  `${machine.cores} cores (${machine.cpu}), ${machine.memoryGB} GB, Linux ${machine.kernel}, Node ${machine.node}, ${machine.tmux}.`,
  `Load average during the run: ${machine.load.min.toFixed(2)}–${machine.load.max.toFixed(2)} (median ${machine.load.median.toFixed(2)}), sampled every 2 s.`,
].join('\n');

console.log(`\n${about}\n\n${table}`);

const jsonPath = option('--json');
if (jsonPath) writeFileSync(jsonPath, `${JSON.stringify({ machine, rows, results, failures }, null, 1)}\n`);
if (failures.length) {
  if (flag('--update-doc')) console.error(`\nbench: not writing ${path.relative(process.cwd(), DOC)}: items failed`);
  finish();
}
if (flag('--update-doc')) {
  const doc = readFileSync(DOC, 'utf8');
  const begin = '<!-- bench:begin -->';
  const end = '<!-- bench:end -->';
  const a = doc.indexOf(begin);
  const b = doc.indexOf(end);
  if (a === -1 || b === -1) throw new Error(`bench: ${DOC} has no ${begin} … ${end} block`);
  writeFileSync(DOC, `${doc.slice(0, a + begin.length)}\n${about}\n\n${table}\n${doc.slice(b)}`);
  console.error(`\nbench: the table is in ${path.relative(process.cwd(), DOC)}`);
}
if (smoke) console.error(`\nbench: smoke passed: every item ran, in ${seconds.toFixed(0)} s (its numbers mean nothing)`);
// Whatever an item left open (a keep-alive socket, a timer) does not keep the run from ending.
process.exit(0);

function gitCommit() {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: ROOT, encoding: 'utf8' }).trim() !== '';
    return dirty ? `${head} (with uncommitted changes)` : head;
  } catch {
    return 'unknown';
  }
}
