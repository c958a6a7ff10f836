import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PrivateDirError, ensurePrivateDir, writePrivateFile } from '../../src/platform/private-dir.js';

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
    fs.chmodSync(dir, 0o755);
    ensurePrivateDir(dir);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
  });

  it('refuses a symlink where the folder should be', () => {
    fs.mkdirSync(path.join(root, 'elsewhere'));
    fs.symlinkSync(path.join(root, 'elsewhere'), path.join(root, 'trap'));
    expect(() => ensurePrivateDir(path.join(root, 'trap'))).toThrow(PrivateDirError);
  });

  it('writes 0600 files, fixing the mode of one that existed', () => {
    const file = path.join(root, 'f');
    fs.writeFileSync(file, 'old', { mode: 0o644 });
    writePrivateFile(file, 'new');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(file, 'utf8')).toBe('new');
  });
});
