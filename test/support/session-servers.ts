/**
 * The session servers a test started: a server outlives the terminal it was started in by
 * design, so a test that closes its windows ends its servers too, found by what each says of
 * itself in its state folder (`run/attach/SESSION.json`).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { processRuns } from '../../src/platform/processes.js';

/** The pids of the session servers still running under a state folder. */
export function serverPids(state: string): number[] {
  const dir = join(state, 'run', 'attach');
  if (!existsSync(dir)) return [];
  const pids: number[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    try {
      const pid = (JSON.parse(readFileSync(join(dir, file), 'utf8')) as { pid?: unknown }).pid;
      if (typeof pid === 'number' && processRuns(pid)) pids.push(pid);
    } catch {
      // being written, or gone meanwhile
    }
  }
  return pids;
}

/** Ask every server under these state folders to end (as kill-session does); their pids. */
export function endServers(states: readonly string[]): number[] {
  const pids = states.flatMap(serverPids);
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // gone
    }
  }
  return pids;
}

/** Wait for them to be gone; what still runs after `ms` is killed. */
export async function awaitEnded(pids: readonly number[], ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (pids.some((pid) => processRuns(pid)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  for (const pid of pids.filter((pid) => processRuns(pid))) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
}
