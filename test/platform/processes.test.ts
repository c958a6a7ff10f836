import { describe, expect, it } from 'vitest';
import { listProcesses, parseStat, sessionMembers } from '../../src/platform/processes.js';

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
});
