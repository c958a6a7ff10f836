/** A TileSet in this process with real ptys, a private runtime folder, and its log in an array. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '../../src/platform/logger.js';
import { listProcesses, parseStat } from '../../src/platform/processes.js';
import type { EndTiming } from '../../src/session/end-session.js';
import { TileSet } from '../../src/tile/tile-set.js';
import type { VerdictChange } from '../../src/tile/tile.js';
import { resolveTiming } from '../../src/verdict/timing.js';
import type { Timing } from '../../src/verdict/timing.js';

export interface TestSet {
  set: TileSet;
  log: string[];
  changes: VerdictChange[];
  dir: string;
  cleanup(): Promise<void>;
}

export function testSet(options: { timing?: Partial<Timing>; endTiming?: EndTiming; env?: Record<string, string | undefined>; cwd?: string; changesAfter?: Promise<unknown> } = {}): TestSet {
  const dir = mkdtempSync(join(tmpdir(), 'belltower-tiles-'));
  const log: string[] = [];
  const logger: Logger = (level, message) => log.push(`${level}: ${message}`);
  const set = new TileSet({
    cwd: options.cwd ?? dir,
    env: options.env ?? process.env,
    cols: 80,
    rows: 24,
    timing: resolveTiming(options.timing ?? {}),
    runtimeDir: join(dir, 'run'),
    hooks: false,
    logger,
    ...(options.endTiming ? { endTiming: options.endTiming } : {}),
    ...(options.changesAfter ? { changesAfter: options.changesAfter } : {}),
  });
  const changes: VerdictChange[] = [];
  set.onVerdict((change) => changes.push(change));
  return {
    set,
    log,
    changes,
    dir,
    async cleanup() {
      await set.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Resolve once `predicate` holds; reject naming `what` after `timeoutMs`. */
export async function until(what: string, predicate: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** pgrep's answer (pids) without zombies, empty when nothing matches. A zombie has ended and only
 * waits for its parent to collect it: orphans go to PID 1, and in a container whose PID 1 does not
 * reap (this machine's does not), pgrep lists them long after they died. Without pgrep, the same
 * question (-g PGID, -s SID, -P PPID) is asked of /proc. */
export function pgrep(flag: '-g' | '-s' | '-P', id: string): number[] {
  if (!HAS_PGREP) {
    const field = flag === '-g' ? 'pgid' : flag === '-s' ? 'sid' : 'ppid';
    return (listProcesses() ?? []).filter((p) => p[field] === Number(id) && p.state !== 'Z').map((p) => p.pid);
  }
  let pids: number[];
  try {
    pids = execFileSync('pgrep', [flag, id], { encoding: 'utf8' })
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map(Number);
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
  return pids.filter((pid) => {
    try {
      return parseStat(readFileSync(`/proc/${pid}/stat`, 'utf8'))?.state !== 'Z';
    } catch {
      return false; // gone since
    }
  });
}

/** Is `command` on PATH? */
export function installed(command: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const HAS_PGREP = installed('pgrep');
