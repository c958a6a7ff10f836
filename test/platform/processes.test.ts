import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { listProcesses, parseStat, sessionMembers, sessionOpenFiles } from '../../src/platform/processes.js';
import { waitFor } from '../transcript/wait-for.js';

describe('/proc', () => {
  it('parses a stat line whose name holds spaces and parentheses', () => {
    expect(parseStat('4242 (my (odd) name) S 1 4240 4240 34816 4240 4194304 ...')).toEqual({
      pid: 4242,
      name: 'my (odd) name',
      state: 'S',
      ppid: 1,
      pgid: 4240,
      sid: 4240,
    });
    expect(parseStat('garbage')).toBeNull();
  });

  it.skipIf(process.platform !== 'linux')('lists this process, and counts no zombie as a member of a session', () => {
    const list = listProcesses() ?? [];
    const self = list.find((p) => p.pid === process.pid);
    expect(self?.ppid).toBe(process.ppid);
    const zombie = { pid: 9, ppid: 1, pgid: 9, sid: 9, state: 'Z', name: 'x' };
    expect(sessionMembers([zombie, { ...zombie, pid: 10, state: 'S' }], 9).map((p) => p.pid)).toEqual([10]);
  });

  it('has no listing where there is no /proc', () => {
    expect(listProcesses('/no/such/proc')).toBeNull();
  });

  it.skipIf(process.platform !== 'linux')('names the files the processes of a session hold open, and none of another session', async () => {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bt-openfiles-')));
    const file = path.join(dir, 'held.jsonl');
    fs.writeFileSync(file, '');
    // A session of its own (setsid, as a tile's program has), holding the file open on fd 3.
    const child = spawn('sh', ['-c', `exec 3<"$0"; exec sleep 30`, file], { detached: true, stdio: 'ignore' });
    try {
      const sid = child.pid!;
      await waitFor(() => (sessionOpenFiles(sid) ?? []).includes(file), { timeoutMs: 10_000, what: 'the file among its open files' });
      expect(sessionOpenFiles(process.pid) ?? []).not.toContain(file);
      expect(sessionOpenFiles(sid, '/no/such/proc')).toBeNull();
    } finally {
      child.kill('SIGKILL');
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
