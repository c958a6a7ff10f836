import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PrivateDirError, checkPrivateDir, ensureOwnDir, ensurePrivateDir, writePrivateFile } from '../../src/platform/private-dir.js';
import { NOT_ROOT_REASON, OTHER_UID, isRoot, plantDir, plantSymlink } from '../support/other-user.js';

function problemOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (error instanceof PrivateDirError) return error.message;
    throw error;
  }
  throw new Error('no PrivateDirError');
}

describe.skipIf(process.platform === 'win32')('private folders', () => {
  let root: string;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'bt-private-'));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('creates 0700 folders and tightens a looser existing one', () => {
    const dir = path.join(root, 'a', 'b');
    ensurePrivateDir(dir);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(root, 'a')).mode & 0o777).toBe(0o700);
    fs.chmodSync(dir, 0o755);
    ensurePrivateDir(dir);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
  });

  it('refuses a symlink where the folder should be', () => {
    fs.mkdirSync(path.join(root, 'elsewhere'));
    fs.symlinkSync(path.join(root, 'elsewhere'), path.join(root, 'trap'));
    expect(() => ensurePrivateDir(path.join(root, 'trap'))).toThrow(PrivateDirError);
  });

  it('refuses a folder of your own on the way that others can write, unless it is sticky (as /tmp is)', () => {
    const open = path.join(root, 'open');
    fs.mkdirSync(open);
    fs.chmodSync(open, 0o777);
    expect(problemOf(() => ensurePrivateDir(path.join(open, 'belltower')))).toMatch(new RegExp(`^${open} is writable by other users`));
    expect(fs.existsSync(path.join(open, 'belltower'))).toBe(false);
    fs.chmodSync(open, 0o1777);
    ensurePrivateDir(path.join(open, 'belltower'));
    expect(fs.statSync(path.join(open, 'belltower')).mode & 0o777).toBe(0o700);
  });

  it('follows a symlink on the way that you made (a symlinked home, /tmp → /private/tmp)', () => {
    fs.mkdirSync(path.join(root, 'real'));
    fs.symlinkSync(path.join(root, 'real'), path.join(root, 'alias'));
    ensurePrivateDir(path.join(root, 'alias', 'belltower'));
    expect(fs.statSync(path.join(root, 'real', 'belltower')).isDirectory()).toBe(true);
  });

  it('checkPrivateDir: false for a folder that does not exist, true for a private one, creating nothing', () => {
    expect(checkPrivateDir(path.join(root, 'none', 'here'))).toBe(false);
    expect(fs.existsSync(path.join(root, 'none'))).toBe(false);
    ensurePrivateDir(path.join(root, 'p'));
    expect(checkPrivateDir(path.join(root, 'p'))).toBe(true);
  });

  it('ensureOwnDir leaves the mode of your own folder alone, and refuses one that others can write', () => {
    const mine = path.join(root, 'recordings');
    fs.mkdirSync(mine, { mode: 0o755 });
    fs.chmodSync(mine, 0o755);
    ensureOwnDir(mine);
    expect(fs.statSync(mine).mode & 0o777).toBe(0o755);
    fs.chmodSync(mine, 0o777);
    expect(problemOf(() => ensureOwnDir(mine))).toMatch(/is writable by other users/);
    // Sticky and yours: others can add files but never replace or remove yours.
    fs.chmodSync(mine, 0o1777);
    ensureOwnDir(mine);
  });

  it('a folder that cannot be created is one clear error', () => {
    fs.writeFileSync(path.join(root, 'file'), '');
    expect(problemOf(() => ensurePrivateDir(path.join(root, 'file', 'below')))).toMatch(/is not a folder/);
  });

  it('writes 0600 files, fixing the mode of one that existed', () => {
    const file = path.join(root, 'f');
    fs.writeFileSync(file, 'old', { mode: 0o644 });
    writePrivateFile(file, 'new');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(file, 'utf8')).toBe('new');
  });
});

describe.skipIf(process.platform === 'win32')('private folders against a second local user', () => {
  let shared: string;
  beforeEach(() => {
    // A shared temp folder like /tmp: root's, sticky, writable by everyone.
    shared = fs.mkdtempSync(path.join(os.tmpdir(), 'bt-shared-'));
    fs.chmodSync(shared, 0o1777);
  });
  afterEach(() => fs.rmSync(shared, { recursive: true, force: true }));

  it.skipIf(!isRoot)(`refuses a /tmp/<user> that another user created first, naming it (${NOT_ROOT_REASON})`, () => {
    const planted = plantDir(path.join(shared, 'victim'), 0o777);
    const problem = problemOf(() => ensurePrivateDir(path.join(planted, 'belltower', 'control')));
    expect(problem).toMatch(new RegExp(`^${planted} belongs to uid ${OTHER_UID}, not to you \\(uid 0\\)`));
    expect(problem).toMatch(/BELLTOWER_STATE_DIR/);
    expect(problem).not.toContain('\n');
    expect(fs.existsSync(path.join(planted, 'belltower'))).toBe(false);
  });

  it.skipIf(!isRoot)(`refuses a symlink on the way that another user made (${NOT_ROOT_REASON})`, () => {
    const theirs = plantDir(path.join(shared, 'attacker-home'), 0o755);
    const link = plantSymlink(theirs, path.join(shared, 'victim'));
    expect(problemOf(() => ensurePrivateDir(path.join(link, 'belltower')))).toMatch(new RegExp(`^${link} is a symlink made by uid ${OTHER_UID}`));
    expect(fs.existsSync(path.join(theirs, 'belltower'))).toBe(false);
    expect(() => checkPrivateDir(path.join(link, 'belltower'))).toThrow(PrivateDirError);
  });

  it.skipIf(!isRoot)(`refuses a leaf folder that another user owns, even 0700 (${NOT_ROOT_REASON})`, () => {
    const leaf = plantDir(path.join(shared, 'leaf'), 0o700);
    expect(problemOf(() => ensurePrivateDir(leaf))).toMatch(/belongs to uid 4242/);
    expect(problemOf(() => ensureOwnDir(leaf))).toMatch(/belongs to uid 4242/);
  });
});
