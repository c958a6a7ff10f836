/**
 * What /proc says about one process: its own CPU time (not its children's), how often it woke,
 * its resident memory. Linux only, like the machine the numbers are for.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';

const TICK = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

/** utime + stime of `pid` (all its threads, none of its children), in seconds. */
export function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICK;
}

/** Times any thread of `pid` went to sleep of its own accord and was woken: its wake-ups. */
export function wakeups(pid) {
  let total = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      const status = readFileSync(`/proc/${pid}/task/${task}/status`, 'utf8');
      total += Number(/voluntary_ctxt_switches:\s+(\d+)/.exec(status)?.[1] ?? 0);
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return total;
}

/** Resident set size of `pid`, in bytes. */
export function rssBytes(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

/** Every descendant of `pid` (children, grandchildren…). */
export function descendants(pid) {
  const out = [];
  const children = (p) => {
    try {
      return readFileSync(`/proc/${p}/task/${p}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    } catch {
      return [];
    }
  };
  const queue = [pid];
  while (queue.length) for (const c of children(queue.shift())) (out.push(c), queue.push(c));
  return out;
}

/** A counter sampled at the start and end of a window: rate per second over it. */
export function sampler(read) {
  const v0 = read();
  const t0 = performance.now();
  return () => ({ delta: read() - v0, seconds: (performance.now() - t0) / 1000 });
}
