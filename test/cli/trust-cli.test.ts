/**
 * The workspace file through the built CLI, as a script or an attacker meets it: a file planted in
 * /tmp by another user, or in a folder another user can write, starts nothing and says why in one
 * line; `run --headless --config` refuses an untrusted file with the command that trusts it, and
 * `belltower trust` / `--revoke` / `--list` work as the README says.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isRoot, NOT_ROOT_REASON, OTHER_GID, OTHER_UID, plantDir } from '../support/other-user.js';

const exec = promisify(execFile);
const bin = join(import.meta.dirname, '..', '..', 'bin', 'belltower.js');

let state = '';
let work = '';
beforeEach(() => {
  state = fs.mkdtempSync(join(tmpdir(), 'belltower-state-'));
  work = fs.mkdtempSync(join(tmpdir(), 'belltower-work-'));
});
afterEach(() => {
  fs.rmSync(state, { recursive: true, force: true });
  fs.rmSync(work, { recursive: true, force: true });
});

async function belltower(args: string[], cwd = work): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await exec(process.execPath, [bin, ...args], { cwd, env: { ...process.env, BELLTOWER_STATE_DIR: state, CI: '' }, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

function hostile(dir: string): { file: string; pwned: string } {
  const pwned = join(dir, 'PWNED');
  const file = join(dir, 'belltower.json');
  fs.writeFileSync(file, JSON.stringify({ tiles: [{ name: 'x', command: `id > ${pwned}` }] }));
  return { file, pwned };
}

describe('run --headless --config and belltower trust', () => {
  it('an untrusted file is refused with the command that trusts it; trusted, it runs; revoked, refused again', async () => {
    const { pwned } = hostile(work);
    const refused = await belltower(['run', '--headless', '--config', 'belltower.json']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('belltower: belltower.json is not trusted yet: belltower starts nothing from a workspace file you have not seen. To see what it starts and trust it: belltower trust belltower.json');
    expect(fs.existsSync(pwned)).toBe(false);

    const trusted = await belltower(['trust']);
    expect(trusted.code).toBe(0);
    expect(trusted.stdout).toContain(`  1 x: id > ${pwned}\n      a shell command line, run by /bin/sh -c`);
    expect(trusted.stdout).toContain('trusted: `belltower` starts belltower.json without asking until the file changes');
    expect(fs.statSync(join(state, 'trusted-workspaces.json')).mode & 0o777).toBe(0o600);

    const ran = await belltower(['run', '--headless', '--config', 'belltower.json']);
    expect(ran.code).toBe(0);
    expect(ran.stdout).toMatch(/"name":"x".*"to":"done"/);
    expect(fs.existsSync(pwned)).toBe(true);

    const listed = await belltower(['trust', '--list']);
    expect(listed.stdout).toMatch(new RegExp(`trusted\\s+${fs.realpathSync(join(work, 'belltower.json')).replace(/[.]/g, '\\.')}`));

    fs.appendFileSync(join(work, 'belltower.json'), ' ');
    expect((await belltower(['run', '--headless', '--config', 'belltower.json'])).stderr).toContain('belltower.json changed since you trusted it');
    expect((await belltower(['trust', '--list'])).stdout).toContain('changed since: asks again');

    await belltower(['trust']);
    expect((await belltower(['trust', '--revoke'])).stdout).toContain('belltower.json is no longer trusted');
    expect((await belltower(['run', '--headless', '--config', 'belltower.json'])).code).toBe(2);
  }, 120_000);

  it('without a terminal, the grid refuses an untrusted workspace file the same way, before anything starts', async () => {
    const { pwned } = hostile(work);
    const result = await belltower([]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('To see what it starts and trust it: belltower trust belltower.json');
    expect(fs.existsSync(pwned)).toBe(false);
  });

  it('a FIFO named belltower.json is refused, not opened (belltower does not hang)', async () => {
    await exec('mkfifo', [join(work, 'belltower.json')]);
    const result = await belltower(['trust']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('belltower: belltower.json: is a FIFO, not a file: belltower does not open it');
  });
});

describe.skipIf(!isRoot)(`a workspace file another user wrote or can change (${NOT_ROOT_REASON})`, () => {
  it('in /tmp, written by another user: refused in one line that says whose it is, nothing started', async () => {
    const shared = join(work, 'tmp');
    fs.mkdirSync(shared);
    fs.chmodSync(shared, 0o1777); // root's and sticky, as /tmp is
    const { file, pwned } = hostile(shared);
    fs.chownSync(file, OTHER_UID, OTHER_GID);
    for (const args of [[], ['trust'], ['run', '--headless', '--config', file], ['--config', file]]) {
      const result = await belltower(args, shared);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(/belltower\.json: belongs to uid 4242, not to you \(uid 0\): someone else wrote it; /);
    }
    expect(fs.existsSync(pwned)).toBe(false);
  });

  it('your own file in a folder another user can write: refused, nothing started', async () => {
    const open = plantDir(join(work, 'open'), 0o777);
    const { pwned } = hostile(open);
    const result = await belltower([], open);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/belltower\.json: not read: .*open (belongs to uid 4242|is writable by other users)/);
    expect(fs.existsSync(pwned)).toBe(false);
  });
});
