import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { foldersFrom, isFolderTyped, programsOnPath } from '../../src/platform/path-completions.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'belltower-complete-'));
  made.push(dir);
  return dir;
}

describe('what Tab reads', () => {
  it('programs: executable files on PATH that start with the prefix, each once', () => {
    const a = folder();
    const b = folder();
    for (const [dir, name, mode] of [[a, 'deploy', 0o755], [a, 'deploy-staging', 0o755], [b, 'deploy', 0o755], [b, 'deploy.txt', 0o644]] as const) {
      writeFileSync(join(dir, name), '#!/bin/sh\n');
      chmodSync(join(dir, name), mode);
    }
    mkdirSync(join(a, 'deploy-dir'));
    expect(programsOnPath('depl', [a, b, '/nonexistent'].join(delimiter)).sort()).toEqual(['deploy', 'deploy-staging']);
    expect(programsOnPath('', a)).toEqual([]);
  });

  it('folders: relative, nested, from ~, hidden only when asked for', () => {
    const root = folder();
    for (const sub of ['src', 'src/ui', 'scripts', '.git']) mkdirSync(join(root, sub));
    writeFileSync(join(root, 'setup.sh'), '');
    expect(foldersFrom('s', root, undefined).sort()).toEqual(['scripts/', 'src/']);
    expect(foldersFrom('src/', root, undefined)).toEqual(['src/ui/']);
    expect(foldersFrom('.g', root, undefined)).toEqual(['.git/']);
    expect(foldersFrom('~/sc', '/', root)).toEqual(['~/scripts/']);
    expect(foldersFrom('nope/x', root, undefined)).toEqual([]);
    expect(isFolderTyped('src', root, undefined)).toBe(true);
    expect(isFolderTyped('~/scripts', '/', root)).toBe(true);
    expect(isFolderTyped('setup.sh', root, undefined)).toBe(false);
    expect(isFolderTyped('', root, undefined)).toBe(false);
  });
});
