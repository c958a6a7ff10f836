import { chmodSync, closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PtySession, type ExitInfo } from '../../src/session/pty-session.js';
import { waitFor } from './helpers.js';

const started: PtySession[] = [];
afterEach(() => {
  for (const session of started.splice(0)) session.kill('SIGKILL');
});

function spawn(file: string, args: string[], env?: Record<string, string | undefined>): { session: PtySession; out: { text: string }; exit: Promise<ExitInfo> } {
  const session = PtySession.spawn(file, args, { cols: 80, rows: 24, env });
  started.push(session);
  const out = { text: '' };
  session.onData((data) => (out.text += data));
  const exit = new Promise<ExitInfo>((resolve) => session.onExit(resolve));
  return { session, out, exit };
}

/**
 * `promise`, or a failure naming `what` once `ms` have passed: a deadline generous enough for a
 * loaded machine, for things that would otherwise never happen. How soon they do is not asserted.
 */
function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: nothing after ${ms} ms`)), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

describe('PtySession', () => {
  it('keeps a master of its own for keys from another thread while the program runs, and closes it with the exit', async () => {
    const open = () => readdirSync('/proc/self/fd').length;
    const before = open();
    const { session, out, exit } = spawn('sh', ['-c', 'read line; echo "got $line"; exit 0']);
    const master = session.master;
    expect(master).toBeGreaterThan(2);
    // Its own: the program reads what is written there, as from node-pty's.
    writeSync(master!, 'hello\r');
    await waitFor(() => out.text.includes('got hello'), 'the line');
    await exit;
    expect(session.master).toBeUndefined();
    // Nothing of the session's stays open: node-pty's master and this one are both closed.
    await waitFor(() => open() === before, 'every descriptor closed');
  });

  it('runs a command in a pty and reports its output and exit code', async () => {
    const { out, exit } = spawn('sh', ['-c', 'test -t 0 && test -t 1 && echo "tty ok"; exit 3']);
    expect(await exit).toEqual({ code: 3, signal: null });
    // (The output is not awaited through exit: the last bytes before an exit may be lost.)
    await waitFor(() => out.text.includes('tty ok'), 'output');
  });

  it('strips TMUX and TMUX_PANE and sets TERM=xterm-256color', async () => {
    const { out } = spawn('sh', ['-c', 'echo "[${TMUX-unset}][${TMUX_PANE-unset}][$TERM][$KEEP]"; sleep 5'], {
      ...process.env,
      TMUX: '/tmp/tmux-1000/default,42,0',
      TMUX_PANE: '%3',
      TERM: 'screen',
      KEEP: 'kept',
    });
    await waitFor(() => out.text.includes(']\r\n'), 'the environment line');
    expect(out.text).toContain('[unset][unset][xterm-256color][kept]');
  });

  it('turns a missing binary into an exit with an actionable error, not a throw', async () => {
    const { session, exit } = spawn('no-such-binary', []);
    expect(session.pid).toBeUndefined();
    expect(await exit).toEqual({ code: null, signal: null, error: 'command not found: no-such-binary' });
    // A listener that subscribes late still hears it.
    expect(await new Promise((resolve) => session.onExit(resolve))).toMatchObject({ error: 'command not found: no-such-binary' });
  });

  it('turns a missing working directory into an exit with an error', async () => {
    const session = PtySession.spawn('sh', [], { cols: 80, rows: 24, cwd: '/no/such/dir' });
    const info = await new Promise<ExitInfo>((resolve) => session.onExit(resolve));
    expect(info.error).toBe('working directory not found: /no/such/dir');
  });

  it('turns a synchronous node-pty failure into an exit (no file descriptor left for a pty)', async (ctx) => {
    // Exhaust this process's file descriptors, spawn, release them — all synchronously, so
    // nothing else in the process runs short meanwhile. forkpty then throws inside node-pty.
    const fds: number[] = [];
    let exhausted = false;
    try {
      while (fds.length < 200_000) fds.push(openSync('/dev/null', 'r'));
    } catch {
      exhausted = true;
    }
    let session: PtySession;
    try {
      session = PtySession.spawn('sh', ['-c', 'exit 0'], { cols: 80, rows: 24 });
    } finally {
      for (const fd of fds) closeSync(fd);
    }
    if (!exhausted) ctx.skip('the file descriptor limit is too high to exhaust quickly');
    const info = await new Promise<ExitInfo>((resolve) => session.onExit(resolve));
    expect(info).toEqual({
      code: null,
      signal: null,
      error: 'cannot start sh: forkpty(3) failed. (out of ptys or file descriptors? close some sessions)',
    });
  });

  it('reports an exec failure after the fork (a #! interpreter that does not exist)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'belltower-pty-'));
    const script = path.join(dir, 'bad-interpreter');
    writeFileSync(script, '#!/no/such/interpreter\necho never\n');
    chmodSync(script, 0o755);
    const { out, exit } = spawn(script, []);
    const info = await exit;
    // node-pty's child prints the reason and exits 1. The reason rides on the last bytes before
    // an exit, which node-pty can lose: then the exit is still reported, with code 1.
    if (info.error !== undefined) {
      expect(info).toEqual({
        code: null,
        signal: null,
        error: `cannot start ${script}: No such file or directory (is the interpreter on its #! line installed?)`,
      });
      expect(out.text).not.toContain('execvp');
    } else {
      expect(info).toEqual({ code: 1, signal: null });
    }
  });

  it('reports a signal by name', async () => {
    const { session, out, exit } = spawn('sh', ['-c', 'echo ready; exec sleep 30']);
    await waitFor(() => out.text.includes('ready'), 'the child to start');
    session.kill('SIGTERM');
    expect(await exit).toEqual({ code: null, signal: 'SIGTERM' });
  });

  it('reports the exit even when the last bytes never arrive', { timeout: 60_000 }, async () => {
    // Reading is paused, so what the child prints just before exiting stays in the kernel for as
    // long as the test runs: the exit must be reported anyway, not wait for a read that never comes.
    const { session, out, exit } = spawn('sh', ['-c', 'echo started; read line; printf "LAST-BYTES"; exit 5']);
    await waitFor(() => out.text.includes('started'), 'the child to start');
    session.pause();
    session.write('go\r');
    expect(await within(30_000, 'the exit, with reading paused', exit)).toEqual({ code: 5, signal: null });
    expect(out.text).not.toContain('LAST-BYTES');
  });

  it('reports the exit while a grandchild still holds the pty open', { timeout: 60_000 }, async () => {
    // The grandchild keeps the pty as its stdout and stderr (it ignores the hangup, from before
    // its fork) and outlives the deadline: the exit is reported while it still holds them, not
    // when it lets go.
    const dir = mkdtempSync(path.join(tmpdir(), 'bt-pty-grandchild-'));
    const pidFile = path.join(dir, 'pid');
    const { exit } = spawn('sh', ['-c', `trap '' HUP; sleep 600 & echo $! > '${pidFile}'; exit 4`]);
    const grandchild = () => Number(readFileSync(pidFile, 'utf8'));
    try {
      expect(await within(30_000, 'the exit, with the pty held open', exit)).toEqual({ code: 4, signal: null });
      expect(() => process.kill(grandchild(), 0), 'the grandchild still runs').not.toThrow();
    } finally {
      try {
        process.kill(grandchild(), 'SIGKILL');
      } catch {
        // never started, or already gone
      }
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('ignores writes, resizes and kills after the exit', async () => {
    const { session, exit } = spawn('true', []);
    await exit;
    expect(() => {
      session.write('x');
      session.resize(100, 30);
      session.kill();
      session.pause();
      session.resume();
    }).not.toThrow();
  });
});
