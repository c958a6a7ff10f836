/**
 * Set up for every test file (vitest.config.ts): after each file, a session server whose state
 * folder its test has already removed is an orphan — it outlived its window by design, and its
 * test ended without ending it (a failure midway, or a test that needed only its client). End it,
 * so leftovers never load the tests that follow. Servers of other files, still running their
 * tests beside this one, have their folders and are left alone.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { afterAll } from 'vitest';

function orphanServers(): number[] {
  const orphans: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (!argv.includes('--as-server')) continue;
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
