/**
 * The foreground probe: the parsing of `/proc` lines, and the probe on real processes in a real
 * pty (Linux): a shell's command asleep in `read` on the terminal reads it; a `sleep` does not.
 */
import { spawn } from 'node-pty';
import { afterEach, describe, expect, it } from 'vitest';
import { foregroundGroup, readForeground, readingFd, statFields, waitingInPoll } from '../../src/platform/foreground.js';

describe('reading /proc lines', () => {
  it('takes stat fields after the command name, which may hold spaces and parentheses', () => {
    const stat = '4242 (my (odd) name) S 4200 4242 4242 34817 4250 4194304 100 0 0 0';
    expect(statFields(stat)?.[0]).toBe('S');
    expect(foregroundGroup(stat)).toBe(4250);
    expect(foregroundGroup('4242 (sh) S 1 4242 4242 0 -1 0')).toBeNull(); // no terminal
  });

  it('knows a read of a descriptor by architecture, and a poll', () => {
    expect(readingFd('0 0x0 0x7f39bfff1b03 0x1 0x0 0x0 0x0 0x7ffd 0x7f39', 'x64')).toBe(0);
    expect(readingFd('0 0x3 0x7f39 0x1 0x0 0x0 0x0 0x7ffd 0x7f39', 'x64')).toBe(3);
    expect(readingFd('63 0x0 0x1 0x1 0x0 0x0 0x0 0x1 0x1', 'arm64')).toBe(0);
    expect(readingFd('230 0x0 0x0 0x7ffd 0x7ffd 0x0 0x0 0x7ffd 0x7fef', 'x64')).toBeNull(); // nanosleep
    expect(readingFd('running', 'x64')).toBeNull();
    expect(readingFd('-1 0x7ffd 0x5616', 'x64')).toBeNull();
    expect(waitingInPoll('270 0x1 0x5616 0x5616 0x5616 0x7ffd 0x0 0x7ffd 0x7fa1', 'x64')).toBe(true);
    expect(waitingInPoll('0 0x0 0x7f39 0x1 0x0 0x0 0x0 0x7ffd 0x7f39', 'x64')).toBe(false);
  });

  it('answers null where nothing can be known (no such process)', () => {
    expect(readForeground(2 ** 22 + 12345)).toBeNull();
  });
});

const spawned: { kill: () => void }[] = [];
afterEach(() => {
  for (const p of spawned.splice(0)) p.kill();
});

async function until<T>(what: string, probe: () => T | null | false, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.skipIf(process.platform !== 'linux')('the probe on real processes in a pty', () => {
  it('a command asleep reading the terminal reads it; a sleeping one does not; the facts name the foreground leader', async () => {
    // An interactive sh with job control puts each command in its own foreground group.
    const shell = spawn('/bin/sh', ['-i'], { cols: 80, rows: 24, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', PS1: '$ ' } });
    spawned.push(shell);
    await until('the shell to be at its prompt', () => readForeground(shell.pid)?.pid === shell.pid);
    shell.write('sleep 30\r');
    const sleeping = await until('sleep in the foreground', () => {
      const facts = readForeground(shell.pid);
      return facts && facts.pid !== shell.pid ? facts : null;
    });
    expect(sleeping.reading).toBe(false);
    shell.write('\x03');
    await until('the shell back in the foreground', () => readForeground(shell.pid)?.pid === shell.pid);
    shell.write("cat\r");
    const reading = await until('cat reading the terminal', () => {
      const facts = readForeground(shell.pid);
      return facts && facts.pid !== shell.pid && facts.reading ? facts : null;
    });
    expect(reading.reading).toBe(true);
    // cat reading a pipe, not the terminal, is no wait for the user.
    shell.write('\x04');
    await until('the shell back in the foreground', () => readForeground(shell.pid)?.pid === shell.pid);
    shell.write('sleep 30 | cat\r');
    await until('a pipeline in the foreground', () => {
      const facts = readForeground(shell.pid);
      return facts && facts.pid !== shell.pid ? facts : null;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(readForeground(shell.pid)?.reading).toBe(false);
  }, 30_000);
});
