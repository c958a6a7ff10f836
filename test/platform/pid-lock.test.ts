/**
 * The session lock: one holder at a time, a dead holder's lock is broken (by one process), a lock
 * is never taken through a link, and a release never removes another holder's lock.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { acquirePidLock } from '../../src/platform/pid-lock.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
function lockPath(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'belltower-lock-'));
  dirs.push(dir);
  return path.join(dir, 's.sock.lock');
}

describe.skipIf(process.platform !== 'linux')('the pid lock', () => {
  it('has one holder: a second is told who holds it, and takes it once it is released', () => {
    const file = lockPath();
    const first = acquirePidLock(file, 1001, () => true);
    expect(first.ok).toBe(true);
    expect(acquirePidLock(file, 1002, () => true)).toEqual({ ok: false, pid: 1001 });
    if (first.ok) first.release();
    expect(acquirePidLock(file, 1002, () => true).ok).toBe(true);
    expect(fs.readFileSync(file, 'utf8')).toBe('1002\n');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it("breaks a dead holder's lock, and a release leaves another holder's lock alone", () => {
    const file = lockPath();
    fs.writeFileSync(file, '424242\n');
    const taken = acquirePidLock(file, 1003, (pid) => pid !== 424242);
    expect(taken.ok).toBe(true);
    expect(fs.readFileSync(file, 'utf8')).toBe('1003\n');
    fs.writeFileSync(file, '1004\n'); // someone else's now
    if (taken.ok) taken.release();
    expect(fs.readFileSync(file, 'utf8')).toBe('1004\n');
  });

  it('leaves a lock being written (empty, young) alone, and breaks an empty one left long ago', () => {
    const file = lockPath();
    fs.writeFileSync(file, '');
    expect(acquirePidLock(file, 1005, () => false).ok).toBe(false);
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(file, old, old);
    expect(acquirePidLock(file, 1005, () => false).ok).toBe(true);
  });

  it("breaks a lock whose holder is a zombie (dead, never collected: a PID 1 that does not reap)", async () => {
    const file = lockPath();
    // `sleep 0.1` exits and stays a zombie: its parent became `sleep 5`, which never waits.
    const parent = spawn('sh', ['-c', 'sleep 0.1 & echo $!; exec sleep 5'], { stdio: ['ignore', 'pipe', 'ignore'] });
    const zombie = await new Promise<number>((resolve) => parent.stdout.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim()))));
    try {
      const deadline = Date.now() + 10_000;
      while (!/\) Z /.test(fs.readFileSync(`/proc/${zombie}/stat`, 'utf8')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      process.kill(zombie, 0); // it still "exists"
      fs.writeFileSync(file, `${zombie}\n`);
      const taken = acquirePidLock(file, 1007);
      expect(taken.ok).toBe(true);
    } finally {
      parent.kill('SIGKILL');
    }
  });

  it('never takes a lock through a link', () => {
    const file = lockPath();
    const target = path.join(path.dirname(file), 'elsewhere');
    fs.symlinkSync(target, file);
    expect(() => acquirePidLock(file, 1006, () => false)).toThrow(/is not a lock belltower made \(a link\); remove it/);
    expect(fs.lstatSync(file).isSymbolicLink()).toBe(true);
    expect(fs.existsSync(target)).toBe(false);
  });

  it('of many processes racing for it, exactly one gets it', async () => {
    const file = lockPath();
    fs.writeFileSync(file, '424242\n'); // a dead holder's, so that breaking races too
    const module = path.join(import.meta.dirname, '..', '..', 'dist', 'platform', 'pid-lock.js');
    const script = `import(${JSON.stringify(module)}).then((m) => { const r = m.acquirePidLock(process.argv[1]); console.log(r.ok ? 'got' : 'busy'); if (r.ok) setTimeout(() => r.release(), 1500); })`;
    const runs = Array.from({ length: 8 }, () =>
      new Promise<string>((resolve) => {
        const child = spawn(process.execPath, ['-e', script, file], { stdio: ['ignore', 'pipe', 'inherit'] });
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
        child.on('exit', () => resolve(out.trim()));
      }),
    );
    const said = await Promise.all(runs);
    expect(said.filter((s) => s === 'got')).toHaveLength(1);
    expect(said.filter((s) => s === 'busy')).toHaveLength(7);
  });
});
