#!/usr/bin/env node
/**
 * What keeping the workspace state costs: one save (capture every tile's screen with its saved
 * scrollback, serialise, write the temp file, fsync, rename) for N tiles that all drew since the
 * last save, and for N that did not, against the time the same screens took to parse the output
 * that filled them — ratios, on this noisy shared machine.
 * Runs the BUILT output:
 *
 *   npm run build && node bench/state-save.mjs [tiles] [runs]
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.join(here, '..', 'dist');
const load = (p) =>
  import(path.join(dist, p)).catch(() => {
    console.error('bench: dist/ is missing or stale — run `npm run build` first');
    process.exit(1);
  });
const { Screen } = await load('session/screen.js');
const { writeStateFile, stateFilePath } = await load('restore/state-file.js');
const { SAVED_SCROLLBACK, snapshotWithin } = await load('restore/capture.js');

const tiles = Number(process.argv[2] ?? 9);
const runs = Number(process.argv[3] ?? 5);
const COLS = 120;
const ROWS = 40;
const line = (i) =>
  `\x1b[2m${i}\x1b[0m \x1b[38;2;215;119;87m✻\x1b[0m \x1b[1mWorking\x1b[0m… \x1b[38;5;246m(5s · ↓ 23 tokens)\x1b[0m 漢字 😀 \x1b[32m+ added line\x1b[0m \x1b[31m- removed\x1b[0m\r\n`;
const output = Array.from({ length: 1200 }, (_, i) => line(i)).join('');

const screens = [];
let parseMs = 0;
for (let i = 0; i < tiles; i++) {
  const screen = new Screen({ cols: COLS, rows: ROWS, onReply: () => {} });
  const started = performance.now();
  await new Promise((resolve) => screen.write(output, resolve));
  parseMs += performance.now() - started;
  screens.push(screen);
}

const dir = mkdtempSync(path.join(tmpdir(), 'belltower-bench-state-'));
const file = stateFilePath(dir, 'bench');
async function save(busy) {
  const times = [];
  let bytes = 0;
  for (let r = 0; r < runs; r++) {
    // A busy screen drew since the last save: its cached snapshot is stale.
    if (busy) for (const screen of screens) await new Promise((resolve) => screen.write(line(r), resolve));
    const started = performance.now();
    const state = {
      format: 'belltower-workspace-state',
      version: 1,
      tiles: screens.map((screen, i) => ({ name: `t${i}`, screen: { cols: COLS, rows: ROWS, data: snapshotWithin(screen) } })),
    };
    writeStateFile(file, JSON.stringify(state));
    times.push(performance.now() - started);
    bytes = statSync(file).size;
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)], bytes };
}
const busy = await save(true);
const calm = await save(false);
console.log(`${tiles} tiles of ${COLS}×${ROWS}, up to ${SAVED_SCROLLBACK} lines of scrollback each, ${(busy.bytes / 1024).toFixed(0)} KB (medians of ${runs})`);
console.log(`  every screen drew since the last save: ${busy.median.toFixed(1)} ms = ${((busy.median / parseMs) * 100).toFixed(1)} % of parsing what filled them (${parseMs.toFixed(0)} ms)`);
console.log(`  no screen drew:                        ${calm.median.toFixed(1)} ms = ${((calm.median / parseMs) * 100).toFixed(1)} %`);
for (const screen of screens) screen.dispose();
rmSync(dir, { recursive: true, force: true });
