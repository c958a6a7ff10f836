#!/usr/bin/env node
/**
 * One busy-grid measurement on its own (the full set is `npm run bench`, item 2): N tiles, each
 * streaming Ink-style redraw frames at a byte rate, through the real UI (the built CLI) into a
 * counting pty — and the same panes through tmux 3.x in the same run, as the baseline.
 *
 *   npm run build && node bench/grid-busy.mjs [tiles=9] [bytesPerSecond=50000] [seconds=10]
 */
import { loadavg } from 'node:os';
import { busyBelltower, busyTmux, BUSY_TERMINAL } from './items/busy.mjs';

const [tiles = 9, rate = 50_000, seconds = 10] = process.argv.slice(2).map(Number);
const load = loadavg()[0].toFixed(2);
const bt = await busyBelltower({ tiles, rate, seconds });
const tm = await busyTmux({ tiles, rate, seconds });
const pct = (x) => `${(x * 100).toFixed(1)}%`;
const ms = (x) => `${x.toFixed(1)} ms`;
console.log(`grid-busy: ${tiles} tiles × ${(rate / 1000).toFixed(0)} KB/s, ${seconds} s quiet then ${seconds} s typing, on ${BUSY_TERMINAL.cols}×${BUSY_TERMINAL.rows} (load avg ${load} before)`);
console.log(`  belltower  CPU ${pct(bt.cpu)} of a core (${pct(bt.cpuTyping)} typing) · ${bt.fps.toFixed(1)} frames/s · ${bt.kbps.toFixed(0)} KB/s to the terminal · loop p99 ${ms(bt.loopP99)} (idle node ${ms(bt.idleLoopP99)}) · key p99 ${ms(bt.keyP99)}`);
console.log(`  tmux       CPU ${pct(tm.cpu)} of a core (${pct(tm.cpuTyping)} typing) · ${tm.kbps.toFixed(0)} KB/s to the terminal · key p99 ${ms(tm.keyP99)}`);
console.log(`  ratio      belltower / tmux CPU = ${(bt.cpu / tm.cpu).toFixed(2)}`);
