/**
 * The machine's own event-loop noise: an idle Node process measuring its event-loop delay the way
 * the probe measures belltower's, at the same time. On a shared machine the scheduler alone delays
 * timers by milliseconds; this says by how much.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { atExit } from './cleanup.mjs';
import { until } from './stats.mjs';

const PROBE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'probe.mjs');

export async function idleNode() {
  const dir = mkdtempSync(path.join(tmpdir(), 'belltower-bench-idle-'));
  const out = path.join(dir, 'probe.json');
  const child = spawn(process.execPath, ['--import', PROBE, '-e', 'setInterval(() => {}, 1 << 30)'], {
    env: { ...process.env, BENCH_PROBE_LOOP: '1', BENCH_PROBE_OUT: out },
    stdio: 'ignore',
  });
  const undo = atExit(() => {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });
  const report = async () => {
    rmSync(out, { force: true });
    child.kill('SIGUSR2');
    await until(() => existsSync(out), 'the idle node probe', 30_000, 5);
    return JSON.parse(readFileSync(out, 'utf8'));
  };
  await new Promise((resolve) => setTimeout(resolve, 300)); // let it load the probe
  return {
    report,
    stop() {
      child.kill();
      rmSync(dir, { recursive: true, force: true });
      undo();
    },
  };
}
