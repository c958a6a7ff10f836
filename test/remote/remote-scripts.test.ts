/**
 * The scripts belltower runs on the remote host, run here with the real /bin/sh against a
 * throwaway HOME: the private folder, the sweep of dead tiles' folders, the files written from
 * stdin, and the boot that runs the agent and cleans up after it.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BOOT, BOOT_WAIT_TENTHS, PREPARE, WRITE, remoteSh, writePayload } from '../../src/remote/remote-scripts.js';
import { spawn as spawnPty } from 'node-pty';
import type { IPty } from 'node-pty';
import { pgrep, until } from '../tile/helpers.js';

let home: string;
let env: NodeJS.ProcessEnv;

beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'bt-remote-'));
  fs.chmodSync(home, 0o700);
  env = { PATH: process.env.PATH, HOME: home };
});
const ptys: IPty[] = [];
afterEach(() => {
  for (const term of ptys.splice(0)) {
    try {
      process.kill(-term.pid, 'SIGKILL');
    } catch {
      // gone already
    }
  }
  fs.rmSync(home, { recursive: true, force: true });
});

/** The command name of a process (from /proc), or '' once it is gone. */
function commandOf(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
}

function sh(script: string, args: string[], input = '') {
  const r = spawnSync('sh', ['-c', script, 'belltower-remote', ...args], { env, input, encoding: 'utf8', timeout: 20_000 });
  return { out: r.stdout, err: r.stderr, code: r.status };
}
const base = () => path.join(home, '.cache', 'belltower-remote');
const mode = (p: string) => fs.lstatSync(p).mode & 0o777;

describe('PREPARE: the tile’s private folder', () => {
  it('makes ~/.cache/belltower-remote/ID, every new folder 0700, and prints its path', () => {
    const r = sh(PREPARE, ['t1']);
    expect(r.out.trim()).toBe(`BELLTOWER-DIR ${base()}/t1`);
    expect(mode(path.join(home, '.cache'))).toBe(0o700);
    expect(mode(base())).toBe(0o700);
    expect(mode(path.join(base(), 't1'))).toBe(0o700);
  });

  it('uses XDG_RUNTIME_DIR when it is the user’s own and private', () => {
    const run = path.join(home, 'run');
    fs.mkdirSync(run, { mode: 0o700 });
    env.XDG_RUNTIME_DIR = run;
    expect(sh(PREPARE, ['t1']).out.trim()).toBe(`BELLTOWER-DIR ${run}/belltower-remote/t1`);
    // A shared XDG_RUNTIME_DIR is not trusted: the home cache is used instead.
    fs.chmodSync(run, 0o777);
    expect(sh(PREPARE, ['t2']).out.trim()).toBe(`BELLTOWER-DIR ${base()}/t2`);
  });

  it('refuses a folder on the way that is a link or writable by others, and writes nothing there', () => {
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'bt-elsewhere-'));
    try {
      fs.symlinkSync(elsewhere, path.join(home, '.cache'));
      const linked = sh(PREPARE, ['t1']);
      expect(linked.code).toBe(1);
      expect(linked.out).toMatch(/^BELLTOWER-ERROR no private folder/);
      expect(fs.readdirSync(elsewhere)).toEqual([]);
      fs.unlinkSync(path.join(home, '.cache'));
      fs.mkdirSync(base(), { recursive: true, mode: 0o700 });
      fs.chmodSync(base(), 0o777);
      expect(sh(PREPARE, ['t1']).out).toMatch(/^BELLTOWER-ERROR/);
      expect(fs.readdirSync(base())).toEqual([]);
      fs.chmodSync(base(), 0o770);
      expect(sh(PREPARE, ['t1']).out).toMatch(/^BELLTOWER-ERROR/);
      fs.chmodSync(base(), 0o700);
      // A home others may write: they could swap ~/.cache for a link after the checks.
      fs.chmodSync(home, 0o777);
      expect(sh(PREPARE, ['t1']).out).toMatch(/^BELLTOWER-ERROR/);
      fs.chmodSync(home, 0o755);
      expect(sh(PREPARE, ['t1']).out).toMatch(/^BELLTOWER-DIR /);
    } finally {
      fs.rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('refuses an ID folder that already exists (it never writes into a folder it did not make)', () => {
    expect(sh(PREPARE, ['t1']).code).toBe(0);
    fs.writeFileSync(path.join(base(), 't1', 'pid'), `${process.pid} ${os.hostname()}`); // alive: not swept
    const again = sh(PREPARE, ['t1']);
    expect(again.code).toBe(1);
    expect(again.out).toMatch(/^BELLTOWER-ERROR cannot make/);
  });

  it('sweeps the folders of tiles that are gone, and nothing else', () => {
    fs.mkdirSync(base(), { recursive: true, mode: 0o700 });
    const folder = (name: string, pid?: string, ageMinutes = 0) => {
      const p = path.join(base(), name);
      fs.mkdirSync(p, { mode: 0o700 });
      if (pid !== undefined) fs.writeFileSync(path.join(p, 'pid'), `${pid}\n`);
      const when = new Date(Date.now() - ageMinutes * 60_000);
      fs.utimesSync(p, when, when);
      return p;
    };
    const dead = spawnSync('sh', ['-c', 'echo $$']).stdout.toString().trim();
    const here = os.hostname();
    folder('dead', `${dead} ${here}`);
    folder('alive', `${process.pid} ${here}`);
    // A home shared with another machine: its tiles' pids mean nothing here.
    folder('elsewhere', `${dead} another-host`);
    folder('starting', undefined, 1); // made, not yet booted: a tile that is setting up now
    folder('abandoned', undefined, 11); // made and never booted
    const target = fs.mkdtempSync(path.join(os.tmpdir(), 'bt-target-'));
    fs.writeFileSync(path.join(target, 'keep'), 'x');
    fs.symlinkSync(target, path.join(base(), 'link'));
    try {
      expect(sh(PREPARE, ['new']).code).toBe(0);
      expect(fs.readdirSync(base()).sort()).toEqual(['alive', 'elsewhere', 'link', 'new', 'starting']);
      expect(fs.readdirSync(target)).toEqual(['keep']);
    } finally {
      fs.rmSync(target, { recursive: true, force: true });
    }
  });
});

describe('WRITE: files from stdin', () => {
  it('decodes each file (in as many lines as it takes) and marks the folder ready', () => {
    const dir = sh(PREPARE, ['t1']).out.trim().replace('BELLTOWER-DIR ', '');
    const big = 'é'.repeat(2_000) + '\n$HOME `x` \\ \'"';
    const r = sh(WRITE, [dir], writePayload({ 'settings.json': big, args: "--settings '/x y'" }));
    expect(r.out.trim()).toBe('BELLTOWER-READY');
    expect(fs.readFileSync(path.join(dir, 'settings.json'), 'utf8')).toBe(big);
    expect(fs.readFileSync(path.join(dir, 'args'), 'utf8')).toBe("--settings '/x y'");
    expect(fs.existsSync(path.join(dir, 'ready'))).toBe(true);
    expect(mode(path.join(dir, 'settings.json'))).toBe(0o600);
  });

  it('stops at a name that could leave the folder, and is never ready then', () => {
    const dir = sh(PREPARE, ['t1']).out.trim().replace('BELLTOWER-DIR ', '');
    for (const name of ['../escape', '.hidden', 'a/b', '']) {
      const r = sh(WRITE, [dir], `${name} ${Buffer.from('x').toString('base64')}\nEND\n`);
      expect(r.code, name).toBe(1);
    }
    expect(fs.existsSync(path.join(dir, 'ready'))).toBe(false);
    expect(fs.existsSync(path.join(home, '.cache', 'escape'))).toBe(false);
    // Cut off before END: not ready either.
    expect(sh(WRITE, [dir], writePayload({ args: 'x' }).replace('END\n', '')).code).toBe(1);
    expect(fs.existsSync(path.join(dir, 'ready'))).toBe(false);
    expect(() => writePayload({ '../x': '' })).toThrow(/a-z and dots only/);
  });

  it('never writes into a file that was there before it', () => {
    const dir = sh(PREPARE, ['t1']).out.trim().replace('BELLTOWER-DIR ', '');
    fs.writeFileSync(path.join(dir, 'args'), 'planted', { mode: 0o666 });
    expect(sh(WRITE, [dir], writePayload({ args: 'token' })).code).toBe(1);
    expect(fs.readFileSync(path.join(dir, 'args'), 'utf8')).toBe('planted');
    expect(fs.existsSync(path.join(dir, 'ready'))).toBe(false);
  });

  it('refuses a folder that is a link', () => {
    const real = sh(PREPARE, ['t1']).out.trim().replace('BELLTOWER-DIR ', '');
    const link = path.join(base(), 'l');
    fs.symlinkSync(real, link);
    expect(sh(WRITE, [link], 'END\n').code).toBe(1);
    expect(fs.existsSync(path.join(real, 'ready'))).toBe(false);
  });
});

describe('BOOT: runs the agent with the folder’s arguments, then removes the folder', () => {
  const printArgs = `printf '[%s]'`;

  it('puts the written arguments between the program and its own, and cleans up on exit', () => {
    const dir = sh(PREPARE, ['t1']).out.trim().replace('BELLTOWER-DIR ', '');
    sh(WRITE, [dir], writePayload({ args: "--settings '/a b/settings.json'" }));
    const r = sh(BOOT, ['t1', printArgs, "--model 'x y'"]);
    expect(r.out).toBe('[--settings][/a b/settings.json][--model][x y]');
    expect(fs.existsSync(dir)).toBe(false);
  });

  it('waits for the folder to be ready, and runs the agent without hooks when it never is', () => {
    const quick = BOOT.replace(`bt_wait ${BOOT_WAIT_TENTHS}`, 'bt_wait 3');
    expect(quick).not.toBe(BOOT);
    const dir = sh(PREPARE, ['t1']).out.trim().replace('BELLTOWER-DIR ', ''); // made, never written
    const started = Date.now();
    const r = sh(quick, ['t1', printArgs, 'only']);
    expect(r.out).toBe('[only]');
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    // It gave up on the folder and took it away: a WRITE that comes late fails (the hooks say off)
    // rather than leaving the tile's files behind for an agent that runs without them.
    expect(fs.existsSync(dir)).toBe(false);
    expect(sh(quick, ['missing', printArgs, 'x']).out).toBe('[x]');
  });

  it('a WRITE that finished first wins the race with a BOOT giving up', () => {
    const dir = sh(PREPARE, ['t1']).out.trim().replace('BELLTOWER-DIR ', '');
    fs.writeFileSync(path.join(dir, 'args'), '--hooked');
    fs.mkdirSync(path.join(dir, 'claim')); // WRITE has claimed it; its ready comes a moment later
    spawn('sh', ['-c', `sleep 0.4; : > '${dir}/ready'`], { stdio: 'ignore' });
    const quick = BOOT.replace(`bt_wait ${BOOT_WAIT_TENTHS}`, 'bt_wait 1');
    expect(sh(quick, ['t1', printArgs, 'x']).out).toBe('[--hooked][x]');
  });

  it('records its pid while the agent runs; a hang-up ends the agent and removes the folder at once', async () => {
    const dir = sh(PREPARE, ['t1']).out.trim().replace('BELLTOWER-DIR ', '');
    sh(WRITE, [dir], writePayload({ args: '' }));
    // As sshd runs it: the session leader of a real terminal. The "agent" is a sleep, which never
    // reads the terminal: only a SIGHUP ends it before its 60 s are up.
    const term = spawnPty('sh', ['-c', BOOT, 'belltower-remote', 't1', 'sleep', '60'], { env: env as Record<string, string>, cols: 80, rows: 24 });
    ptys.push(term);
    await until('the pid recorded', () => fs.existsSync(path.join(dir, 'pid')), 10_000);
    expect(fs.readFileSync(path.join(dir, 'pid'), 'utf8').trim()).toBe(`${term.pid} ${os.hostname()}`);
    await until('the agent running', () => pgrep('-P', String(term.pid)).some((pid) => commandOf(pid) === 'sleep'), 10_000);
    const session = String(term.pid);
    // The connection drops: sshd closes the terminal's master side, and the kernel hangs it up.
    // Issue 28: BOOT trapped HUP, sh ran the trap only once the agent returned, so the agent (and
    // the folder with the token) stayed 13–17 s after the drop — here the whole 60 s.
    // (node-pty's UnixTerminal has destroy(): close the master; IPty does not declare it.)
    const master = term as IPty & { destroy?: () => void };
    expect(typeof master.destroy).toBe('function');
    master.destroy!();
    await until('nothing of the tile left: no process of its session, no folder', () => pgrep('-s', session).length === 0 && !fs.existsSync(dir), 10_000);
  });

  it('an agent that ends by itself takes its folder with it, as the EXIT trap does', async () => {
    const dir = sh(PREPARE, ['t1']).out.trim().replace('BELLTOWER-DIR ', '');
    sh(WRITE, [dir], writePayload({ args: '' }));
    const term = spawnPty('sh', ['-c', BOOT, 'belltower-remote', 't1', 'sh', "-c 'read line; exit 3'"], { env: env as Record<string, string>, cols: 80, rows: 24 });
    ptys.push(term);
    const exited = new Promise<number>((resolve) => term.onExit(({ exitCode }) => resolve(exitCode)));
    await until('the pid recorded', () => fs.existsSync(path.join(dir, 'pid')), 10_000);
    // The agent reads the terminal: BOOT left it the terminal's input (not /dev/null).
    await until('the agent reading', () => pgrep('-P', String(term.pid)).length > 0, 10_000);
    term.write('bye\r');
    expect(await exited).toBe(3);
    await until('the folder removed', () => !fs.existsSync(dir), 10_000);
    await until('nothing of the tile left', () => pgrep('-s', String(term.pid)).length === 0, 10_000);
  });
});

describe('remoteSh: one line for the remote login shell', () => {
  it('reads back as the same script and arguments through sh', () => {
    const line = remoteSh(`printf '%s|' "$@"`, ["it's", '$HOME', 'a\\b', '']);
    const r = spawnSync('sh', ['-c', line], { encoding: 'utf8' });
    expect(r.stdout).toBe("it's|$HOME|a\\b||");
  });
});
