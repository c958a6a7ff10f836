/**
 * Loaded into the belltower process under test with `node --import`: it measures from inside what
 * /proc cannot see, and writes it to $BENCH_PROBE_OUT when sent SIGUSR2 (then starts afresh), so
 * the benchmark reads exactly its own measuring window. Nothing of it is in belltower itself.
 *
 *   BENCH_PROBE_LOOP=1    event-loop delay (perf_hooks histogram, 10 ms resolution)
 *   BENCH_PROBE_TIMERS=1  every timer callback that ran, counted by where the timer was created
 * and, in every report, the garbage collections since the last report and the process's memory —
 * after a full garbage collection when node runs with --expose-gc.
 */
import { writeFileSync, renameSync } from 'node:fs';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';

const out = process.env.BENCH_PROBE_OUT;
const loop = process.env.BENCH_PROBE_LOOP === '1' ? monitorEventLoopDelay({ resolution: 10 }) : null;
loop?.enable();

// Garbage collections (count and time), always: they explain wake-ups no timer accounts for.
const gcs = { count: 0, ms: 0, maxMs: 0 };
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    gcs.count++;
    gcs.ms += entry.duration;
    gcs.maxMs = Math.max(gcs.maxMs, entry.duration);
  }
}).observe({ entryTypes: ['gc'] });

const timers = new Map();
if (process.env.BENCH_PROBE_TIMERS === '1') {
  const site = () => {
    const frames = (new Error().stack ?? '').split('\n').slice(3);
    const ours = frames.find((f) => !f.includes('probe.mjs') && !f.includes('node:internal')) ?? frames[0] ?? '?';
    return ours.trim().replace(/^at /, '').replace(/\(?file:\/\/[^)]*\/(dist|node_modules)\//, '$1/');
  };
  const count = (where) => timers.set(where, (timers.get(where) ?? 0) + 1);
  for (const name of ['setTimeout', 'setInterval', 'setImmediate']) {
    const original = globalThis[name];
    globalThis[name] = function (callback, ...rest) {
      if (typeof callback !== 'function') return original.call(this, callback, ...rest);
      const where = `${name} ${site()}`;
      return original.call(this, function (...args) {
        count(where);
        return callback.apply(this, args);
      }, ...rest);
    };
  }
}

process.on('SIGUSR2', () => {
  if (!out) return;
  globalThis.gc?.();
  const report = {
    loop: loop
      ? { p50: loop.percentile(50) / 1e6, p99: loop.percentile(99) / 1e6, max: loop.max / 1e6, mean: loop.mean / 1e6, samples: loop.count }
      : null,
    timers: Object.fromEntries([...timers.entries()].sort((a, b) => b[1] - a[1])),
    gc: { ...gcs },
    memory: process.memoryUsage(),
  };
  loop?.reset();
  timers.clear();
  Object.assign(gcs, { count: 0, ms: 0, maxMs: 0 });
  writeFileSync(`${out}.tmp`, JSON.stringify(report));
  renameSync(`${out}.tmp`, out);
});
