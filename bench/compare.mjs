#!/usr/bin/env node
/**
 * Before and after: the measurements an optimisation is meant to move, for two builds of the CLI,
 * interleaved in one run (A, B, A, B…) so both see the same machine. Medians of `rounds`.
 *
 *   node bench/compare.mjs <before/bin/belltower.js> [after/bin/belltower.js] [rounds=3]
 *
 * To build an earlier commit beside this checkout:
 *   git archive <commit> | tar -x -C /tmp/before && ln -s "$PWD/node_modules" /tmp/before/ &&
 *   (cd /tmp/before && npx tsc -p tsconfig.build.json)
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './lib/stats.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const [beforeArg, afterArg = path.join(here, '..', 'bin', 'belltower.js'), rounds = '3'] = process.argv.slice(2);
if (!beforeArg) {
  console.error('usage: node bench/compare.mjs <before/bin/belltower.js> [after/bin/belltower.js] [rounds]');
  process.exit(2);
}
const before = path.resolve(beforeArg);
const after = path.resolve(afterArg);

/** One measurement of one build, in a process of its own (the items read the CLI's path once). */
function measure(bin, what) {
  const script = {
    startup: `const { startup } = await import('./items/startup.mjs'); const r = await startup({ runs: 1 }); out({ firstFrameMs: r.grid });`,
    busy: `const { busyBelltower } = await import('./items/busy.mjs'); const r = await busyBelltower({ tiles: 9, rate: 50000, seconds: 6 }); out({ cpu: r.cpu * 100, cpuTyping: r.cpuTyping * 100, fps: r.fps, keyP99: r.keyP99, loopP99: r.loopP99 });`,
    latency: `const { latency } = await import('./items/latency.mjs'); const r = await latency({ source: 'hook', turns: 60 }); out({ hookP50: r.p50, hookP99: r.p99 });`,
  }[what];
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', `const out = (o) => process.stdout.write(JSON.stringify(o)); ${script}`], {
    cwd: here,
    env: { ...process.env, BENCH_BELLTOWER_BIN: bin },
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`${what} with ${bin} failed:\n${run.stderr}`);
  return JSON.parse(run.stdout);
}

const samples = { before: [], after: [] };
for (let i = 0; i < Number(rounds); i++) {
  for (const [name, bin] of [['before', before], ['after', after]]) {
    const one = { ...measure(bin, 'startup'), ...measure(bin, 'busy'), ...measure(bin, 'latency') };
    samples[name].push(one);
    console.error(`round ${i + 1} ${name}: ${JSON.stringify(one)}`);
  }
}
const keys = Object.keys(samples.before[0]);
console.log('| measure | before | after | after ÷ before |\n|---|---|---|---|');
for (const key of keys) {
  const b = median(samples.before.map((s) => s[key]));
  const a = median(samples.after.map((s) => s[key]));
  console.log(`| ${key} | ${b.toFixed(1)} | ${a.toFixed(1)} | ${(a / b).toFixed(2)} |`);
}
