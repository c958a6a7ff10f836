/**
 * Set up for every test file (vitest.config.ts): after each file, a session server whose state
 * folder its test has already removed is an orphan — it outlived its window by design, and its
 * test ended without ending it (a failure midway, or a test that needed only its client). End it,
 * so leftovers never load the tests that follow. Servers of other files, still running their
 * tests beside this one, have their folders and are left alone — and a server under a minute old
 * is left alone too: it may not have made its folder yet.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { afterAll } from 'vitest';

/** A server this young may not have made its state folder yet: it is no orphan. */
const YOUNG_S = 60;
/** Linux's clock ticks per second for /proc/PID/stat's start time (USER_HZ, 100 everywhere). */
const TICKS = 100;

/** Seconds since process `pid` started. */
function ageOf(pid: string): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const started = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]) / TICKS;
  const uptime = Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0]);
  return uptime - started;
}

function orphanServers(): number[] {
  const orphans: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (!argv.includes('--as-server') || ageOf(entry) < YOUNG_S) continue;
      const state = readFileSync(`/proc/${entry}/environ`, 'utf8')
        .split('\0')
        .find((v) => v.startsWith('BELLTOWER_STATE_DIR='))
        ?.slice('BELLTOWER_STATE_DIR='.length);
      if (state && !existsSync(state)) orphans.push(Number(entry));
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return orphans;
}

afterAll(() => {
  if (process.platform !== 'linux') return;
  for (const pid of orphanServers()) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // gone
    }
  }
});
