/**
 * Usage errors exit 2, as the README's table says, through the built CLI: an unknown option or
 * command, a missing argument, `help` for a name that is no command. Help and the version exit 0.
 * Only a SPEC of one bare word can be a mistyped command: a shell command line is a command line.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { until } from '../tile/helpers.js';

const exec = promisify(execFile);
const bin = join(import.meta.dirname, '..', '..', 'bin', 'belltower.js');
const state = mkdtempSync(join(tmpdir(), 'belltower-usage-'));
afterAll(() => rmSync(state, { recursive: true, force: true }));

async function belltower(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await exec(process.execPath, [bin, ...args], { env: { ...process.env, BELLTOWER_STATE_DIR: state, CI: '' }, timeout: 30_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('exit statuses of usage errors', () => {
  it.each([
    [['--bogus'], "unknown option '--bogus'"],
    [['ls', '--bogus'], "unknown option '--bogus'"],
    [['send'], "missing required argument 'tile'"],
    [['demo', '--config', 'x'], "unknown option '--config'"],
    [['wait'], "missing required argument 'tile'"],
    [['wait', '1', '--for', 'soon'], '--for takes one of done, blocked, idle, exited, finished, any'],
  ])('belltower %j exits 2 and says why', async (args, said) => {
    const result = await belltower(...args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(said);
  });

  it('a tile name that is too long is said in plain words, before any belltower is asked', async () => {
    const name = 'n'.repeat(50);
    for (const args of [['add', 'shell', '--name', name], ['rename', '1', name]]) {
      const result = await belltower(...args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr.trim()).toBe('belltower: a tile name is at most 40 characters (got 50)');
    }
  });

  it('help for a name that is no command says so (with the closest one) and exits 2; help itself exits 0', async () => {
    const wrong = await belltower('help', 'lss');
    expect(wrong.code).toBe(2);
    expect(wrong.stderr.trim()).toBe('belltower: there is no command "lss" (did you mean: belltower help ls?); every command: belltower help');
    expect(wrong.stdout).toBe('');
    const one = await belltower('help', 'ls');
    expect(one.code).toBe(0);
    expect(one.stdout).toMatch(/^Usage: belltower ls /);
    for (const args of [['help'], ['--help'], ['-v']]) expect((await belltower(...args)).code, args.join(' ')).toBe(0);
  });

  it('a shell command line whose first word is close to a command is no typo; one bare word is', async () => {
    // Not refused as "did you mean ls": it reaches the grid, which needs a terminal (none here).
    const line = await belltower('cd /tmp && ls');
    expect(line.stderr).not.toContain('did you mean');
    expect(line.stderr).toContain('the full-screen UI needs a terminal');
    const typo = await belltower('lss');
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('did you mean:    belltower ls');
  });
});

describe('a program that is not there', () => {
  it('on the command line: said with its name before anything starts, exit 2', async () => {
    const bare = await belltower('nosuchprog');
    expect(bare.code).toBe(2);
    expect(bare.stderr.trim()).toBe('belltower: command not found: nosuchprog; nothing started');
    const inLine = await belltower('shell', 'nosuchprog --flag');
    expect(inLine.code).toBe(2);
    expect(inLine.stderr.trim()).toBe('belltower: command not found: nosuchprog (in "nosuchprog --flag"); nothing started');
  });

  it('in a (trusted) workspace file: said with the tile, exit 2', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'belltower-missing-'));
    try {
      writeFileSync(join(folder, 'belltower.json'), JSON.stringify({ tiles: [{ agent: 'shell' }, { name: 'build', command: 'nosuchprog all' }] }));
      const run = (...args: string[]) => exec(process.execPath, [bin, ...args], { cwd: folder, env: { ...process.env, BELLTOWER_STATE_DIR: state, CI: '' } }).then(() => 0, (e: { code: number; stderr: string }) => e);
      expect(await run('trust')).toBe(0);
      const result = (await run()) as { code: number; stderr: string };
      expect(result.code).toBe(2);
      expect(result.stderr.trim()).toBe('belltower: command not found: nosuchprog (tile 2 build of the workspace file); nothing started');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('belltower add refuses it, and the running tiles go on', async () => {
    const child = spawn(process.execPath, [bin, 'run', '--headless', '--session', 'add-missing', 'sleep 30'], { env: { ...process.env, BELLTOWER_STATE_DIR: state, CI: '' } });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    try {
      await until('the tile working', () => out.includes('"to":"working"'));
      const added = await belltower('add', '--session', 'add-missing', 'nosuchprog');
      expect(added.code).toBe(1);
      expect(added.stderr.trim()).toBe('belltower: command not found: nosuchprog');
      const listed = await belltower('ls', '--session', 'add-missing', '--json');
      expect((JSON.parse(listed.stdout) as unknown[]).length).toBe(1);
    } finally {
      child.kill('SIGTERM');
    }
  }, 30_000);
});
