/**
 * Usage errors exit 2, as the README's table says, through the built CLI: an unknown option or
 * command, a missing argument, `help` for a name that is no command. Help and the version exit 0.
 * Only a SPEC of one bare word can be a mistyped command: a shell command line is a command line.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

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
    [['demo', '--mouse'], "unknown option '--mouse'"],
    [['wait'], "missing required argument 'tile'"],
  ])('belltower %j exits 2 and says why', async (args, said) => {
    const result = await belltower(...args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(said);
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
