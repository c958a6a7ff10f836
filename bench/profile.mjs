#!/usr/bin/env node
/**
 * Where the time goes in the busy case: a V8 CPU profile of the grid (one process, `--no-server`)
 * while `tiles` tiles each stream Ink-style redraw frames at `rate` bytes a second into a 240×65
 * terminal, summed by function and by file (self time). The profile is kept for a closer look
 * (Chrome DevTools → Performance → Load profile).
 *
 *   npm run build && node bench/profile.mjs [tiles=1] [rate=50000] [seconds=10]
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startGrid } from './lib/grid.mjs';
import { sleep } from './lib/stats.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const STREAM = path.join(here, 'programs', 'redraw-stream.mjs');
const [tiles = 1, rate = 50_000, seconds = 10] = process.argv.slice(2).map(Number);
const out = mkdtempSync(path.join(tmpdir(), 'belltower-profile-'));

const grid = startGrid({
  specs: Array.from({ length: tiles }, () => `'${process.execPath}' '${STREAM}' ${rate}`),
  cols: 240,
  rows: 65,
  nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${out}`],
});
await grid.firstFrame();
grid.write('\r'); // focus tile 1, as the busy item does
await sleep(seconds * 1000);
await grid.stop();

const file = readdirSync(out).find((name) => name.endsWith('.cpuprofile'));
if (!file) throw new Error(`no profile was written in ${out}`);
const profile = JSON.parse(readFileSync(path.join(out, file), 'utf8'));
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const self = new Map();
for (let i = 0; i < profile.samples.length; i++) {
  const node = byId.get(profile.samples[i]);
  self.set(node, (self.get(node) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
}
const total = [...self.values()].reduce((a, b) => a + b, 0);
const sum = (key) => {
  const by = new Map();
  for (const [node, ms] of self) by.set(key(node), (by.get(key(node)) ?? 0) + ms);
  return [...by].sort((a, b) => b[1] - a[1]);
};
const short = (url) => url.replace(/^file:\/\//, '').replace(/^.*node_modules\//, '').replace(/^.*\/(dist|src)\//, '$1/');
const idle = (node) => ['(idle)', '(program)', '(garbage collector)'].includes(node.callFrame.functionName);
const busy = [...self].filter(([node]) => !idle(node)).reduce((a, [, ms]) => a + ms, 0);
const row = ([what, ms]) => `${ms.toFixed(0).padStart(7)} ms ${((ms / busy) * 100).toFixed(1).padStart(5)} %  ${what}`;
console.log(`${tiles} tile(s) × ${rate} B/s for ${seconds} s: ${total.toFixed(0)} ms sampled, ${busy.toFixed(0)} ms busy (${((busy / total) * 100).toFixed(1)} %); the rest idle, GC and V8 itself`);
for (const special of ['(garbage collector)', '(program)']) console.log(`  ${special}: ${(sum((n) => n.callFrame.functionName).find(([f]) => f === special)?.[1] ?? 0).toFixed(0)} ms`);
console.log('\nby file (self time, % of busy):');
for (const entry of sum((n) => (idle(n) ? null : short(n.callFrame.url) || '(native)')).filter(([f]) => f !== null).slice(0, 20)) console.log(row(entry));
console.log('\nby function:');
for (const entry of sum((n) => (idle(n) ? null : `${n.callFrame.functionName || '(anonymous)'} ${short(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`)).filter(([f]) => f !== null).slice(0, 30)) console.log(row(entry));
console.log(`\nprofile: ${path.join(out, file)}`);
