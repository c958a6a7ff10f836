import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { canonicalPath, sameFolder } from '../../src/platform/paths.js';

describe('canonicalPath (real files)', () => {
  let root: string;
  beforeEach(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bt-paths-')));
    fs.mkdirSync(path.join(root, 'real', 'projects'), { recursive: true });
    fs.symlinkSync(path.join(root, 'real'), path.join(root, 'link'));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('resolves symlinks of existing paths', () => {
    expect(canonicalPath(path.join(root, 'link', 'projects'))).toBe(path.join(root, 'real', 'projects'));
  });

  it('resolves the deepest existing ancestor and re-appends what does not exist yet', () => {
    const future = path.join(root, 'link', 'projects', '-work-app', 's1.jsonl');
    expect(canonicalPath(future)).toBe(path.join(root, 'real', 'projects', '-work-app', 's1.jsonl'));
  });

  it('normalises relative segments before resolving', () => {
    expect(canonicalPath(path.join(root, 'link', 'projects', '..', 'projects', 'x'))).toBe(path.join(root, 'real', 'projects', 'x'));
  });

  it('treats a symlink alias as the same folder on POSIX, but not a different case', () => {
    expect(sameFolder(path.join(root, 'link'), path.join(root, 'real'), { platform: 'linux' })).toBe(true);
    expect(sameFolder(path.join(root, 'real'), `${path.join(root, 'real')}/`, { platform: 'linux' })).toBe(true);
    expect(sameFolder(path.join(root, 'Real'), path.join(root, 'real'), { platform: 'linux' })).toBe(false);
  });
});

describe('sameFolder on Windows (the platform as a parameter)', () => {
  // What GetFinalPathNameByHandle (realpathSync.native) answers on a machine with 8.3 names on.
  const disk: Record<string, string> = {
    'c:\\users\\runner~1': 'C:\\Users\\runneradmin',
    'c:\\users\\runneradmin': 'C:\\Users\\runneradmin',
    'c:\\users': 'C:\\Users',
    'c:\\': 'C:\\',
  };
  const realpath = (p: string) => {
    const hit = disk[p.toLowerCase()];
    if (!hit) throw Object.assign(new Error(`ENOENT ${p}`), { code: 'ENOENT' });
    return hit;
  };
  const win = { platform: 'win32' as const, realpath };

  it('ignores case and trailing separators', () => {
    expect(sameFolder('C:\\Users\\RunnerAdmin\\', 'c:\\users\\runneradmin', win)).toBe(true);
    expect(sameFolder('C:/Users/runneradmin', 'C:\\Users\\runneradmin', win)).toBe(true);
  });

  it('expands an 8.3 short name through the canonical fallback', () => {
    expect(sameFolder('C:\\Users\\RUNNER~1\\AppData\\Local\\Temp', 'C:\\Users\\runneradmin\\AppData\\Local\\Temp', win)).toBe(true);
  });

  it('still tells different folders apart', () => {
    expect(sameFolder('C:\\Users\\RUNNER~1\\a', 'C:\\Users\\runneradmin\\b', win)).toBe(false);
  });

  it('canonicalises a not-yet-existing file under a short name', () => {
    expect(canonicalPath('C:\\Users\\RUNNER~1\\.claude\\projects\\x.jsonl', win)).toBe('C:\\Users\\runneradmin\\.claude\\projects\\x.jsonl');
  });
});
