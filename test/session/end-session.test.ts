/**
 * endSession's decisions against a process table given as data (the real-process behaviour is in
 * test/tile/process-end.test.ts): which groups get which signal, and when nothing is ours to end.
 */
import { describe, expect, it } from 'vitest';
import { endSession } from '../../src/session/end-session.js';
import type { ProcessEntry } from '../../src/platform/processes.js';

const proc = (pid: number, pgid: number, sid: number, state = 'S'): ProcessEntry => ({ pid, ppid: 1, pgid, sid, state, name: 'p' });
const fast = { hupGraceMs: 30, termGraceMs: 30, killWaitMs: 30, exitSettleMs: 0 };

/** A table where each process dies at the first signal it does not ignore. */
function world(processes: ProcessEntry[], ignores: Record<number, string[]> = {}) {
  let table = [...processes];
  const calls: string[] = [];
  const kill = (target: number, signal: NodeJS.Signals | 0) => {
    if (signal === 0) {
      if (!table.some((p) => p.pgid === -target)) throw Object.assign(new Error('ESRCH'), { code: 'ESRCH' });
      return;
    }
    calls.push(`${signal} ${target}`);
    if (signal === 'SIGCONT') return;
    table = table.filter((p) => p.pgid !== -target || (ignores[p.pid] ?? []).includes(signal));
  };
  return { list: () => table, kill, calls };
}

describe('endSession', () => {
  it('signals every process group of the session, HUP then TERM, with CONT for stopped jobs; others are left alone', async () => {
    const w = world([proc(100, 100, 100), proc(101, 101, 100, 'T'), proc(102, 102, 100), proc(200, 200, 200)], { 100: ['SIGHUP'], 102: ['SIGHUP'] });
    const report = await endSession(100, { timing: fast, list: w.list, kill: w.kill });
    expect(report).toEqual({ sent: ['SIGHUP', 'SIGTERM'], survivors: [] });
    expect(w.calls).toEqual(['SIGHUP -100', 'SIGCONT -100', 'SIGHUP -101', 'SIGCONT -101', 'SIGHUP -102', 'SIGCONT -102', 'SIGTERM -100', 'SIGCONT -100', 'SIGTERM -102', 'SIGCONT -102']);
    expect(w.list().map((p) => p.pid)).toEqual([200]);
  });

  it('names what even SIGKILL did not end', async () => {
    const w = world([proc(100, 100, 100)], { 100: ['SIGHUP', 'SIGTERM', 'SIGKILL'] });
    expect(await endSession(100, { timing: fast, list: w.list, kill: w.kill })).toEqual({ sent: ['SIGHUP', 'SIGTERM', 'SIGKILL'], survivors: [100] });
  });

  it('zombies have ended: nothing to signal', async () => {
    const w = world([proc(100, 100, 100, 'Z')]);
    expect(await endSession(100, { timing: fast, list: w.list, kill: w.kill })).toEqual({ sent: [], survivors: [] });
    expect(w.calls).toEqual([]);
  });

  it('after the leader exited, a live process with its number means the id was reused: nothing is signalled', async () => {
    const reused = world([proc(100, 100, 100)]);
    expect(await endSession(100, { timing: fast, leaderGone: true, list: reused.list, kill: reused.kill })).toEqual({ sent: [], survivors: [] });
    expect(reused.calls).toEqual([]);
    // Members of the old session are still ours: the id cannot be reused while they exist.
    const ours = world([proc(101, 100, 100)]);
    expect((await endSession(100, { timing: fast, leaderGone: true, list: ours.list, kill: ours.kill })).sent).toEqual(['SIGHUP']);
  });
});
