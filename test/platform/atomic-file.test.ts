/**
 * Files belltower keeps: a write that fails on a full disk leaves nothing behind, the temporary
 * files of a belltower that was killed mid-write are swept once their process is gone, and the
 * state saver says once, in words, that it cannot save.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sweepStaleTemps, writeFileAtomic, writeFileAtomicAsync } from '../../src/platform/atomic-file.js';
import { StateSaver } from '../../src/restore/state-saver.js';
import type { WorkspaceState } from '../../src/restore/workspace-state.js';
import { isRoot } from '../support/other-user.js';

const dirs: string[] = [];
const mounts: string[] = [];
afterEach(() => {
  for (const dir of mounts.splice(0)) execFileSync('umount', [dir]);
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'belltower-atomic-'));
  dirs.push(dir);
  return dir;
}

/** A real full disk: a 64 KB tmpfs, filled. Null where this process may not mount one. */
function fullDisk(): string | null {
  if (!isRoot || process.platform !== 'linux') return null;
  const dir = tempDir();
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k,mode=0700', 'tmpfs', dir], { stdio: 'ignore' });
  } catch {
    return null;
  }
  mounts.push(dir);
  fs.mkdirSync(path.join(dir, 'workspaces'), { mode: 0o700 });
  try {
    fs.writeFileSync(path.join(dir, 'filler'), Buffer.alloc(1024 * 1024));
  } catch {
    // ENOSPC: full, as wanted
  }
  return dir;
}

const canMount = fullDisk() !== null;

describe.skipIf(!canMount)('on a full disk (a real tmpfs)', () => {
  it('a write fails with ENOSPC, keeps the old file, and leaves no temporary file', () => {
    const dir = fullDisk()!;
    const file = path.join(dir, 'workspaces', 'api.json');
    fs.rmSync(path.join(dir, 'filler'));
    writeFileAtomic(file, '{"old":true}');
    fs.writeFileSync(path.join(dir, 'filler2'), Buffer.alloc(60 * 1024), { flag: 'w' });
    let code: string | undefined;
    try {
      for (let i = 0; i < 20; i++) writeFileAtomic(file, JSON.stringify({ big: 'x'.repeat(64 * 1024) }));
    } catch (error) {
      code = (error as NodeJS.ErrnoException).code;
    }
    expect(code).toBe('ENOSPC');
    expect(fs.readFileSync(file, 'utf8')).toBe('{"old":true}');
    expect(fs.readdirSync(path.join(dir, 'workspaces'))).toEqual(['api.json']);
  });

  it('the state saver says so once, in words, and logs it', () => {
    const dir = fullDisk()!;
    const said: string[] = [];
    const logged: string[] = [];
    const saver = new StateSaver({
      file: path.join(dir, 'workspaces', 'api.json'),
      capture: () => ({ big: 'x'.repeat(128 * 1024) }) as unknown as WorkspaceState,
      logger: (_level, message) => logged.push(message),
      onTrouble: (message) => said.push(message),
    });
    saver.flush(null);
    saver.flush(null);
    saver.flush('quit');
    saver.stop();
    expect(said).toEqual(['cannot save for a restore: the disk is full']);
    expect(logged.filter((m) => m.startsWith('cannot save'))).toHaveLength(1);
    expect(fs.readdirSync(path.join(dir, 'workspaces'))).toEqual([]);
  });
});

describe('writing off the event loop', () => {
  it('replaces the file whole, private, and leaves no temporary file', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'workspaces', 'api.json');
    writeFileAtomic(file, '{"old":true}');
    expect(await writeFileAtomicAsync(file, '{"new":true}')).toBe(true);
    expect(fs.readFileSync(file, 'utf8')).toBe('{"new":true}');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(path.dirname(file))).toEqual(['api.json']);
  });

  it('a newer write made meanwhile wins: this one is dropped at its rename', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'workspaces', 'api.json');
    writeFileAtomic(file, '{"old":true}');
    const written = await writeFileAtomicAsync(file, '{"background":true}', () => {
      writeFileAtomic(file, '{"final":true}'); // belltower ending, written as it exits
      return false;
    });
    expect(written).toBe(false);
    expect(fs.readFileSync(file, 'utf8')).toBe('{"final":true}');
    expect(fs.readdirSync(path.dirname(file))).toEqual(['api.json']);
  });

  it('the state saver writes in the background, one write at a time, and its last synchronous write stands', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'workspaces', 'api.json');
    let captures = 0;
    const saver = new StateSaver({ file, capture: (ended) => ({ n: ++captures, ended }) as unknown as WorkspaceState, logger: () => {}, changeMs: 1 });
    saver.changed();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await saver.settled();
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ n: 1, ended: null });
    saver.changed();
    await new Promise((resolve) => setTimeout(resolve, 20));
    saver.flush('quit'); // whether the background write is running or done, this one is last
    await saver.settled();
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toMatchObject({ ended: 'quit' });
    expect(fs.readdirSync(path.dirname(file))).toEqual(['api.json']);
    saver.stop();
  });
});

describe('stale temporary files', () => {
  it('are removed once their process is gone: not a live one, not ours, not a link, not another name', () => {
    const dir = tempDir();
    const dead = path.join(dir, 'api.json.4000001.tmp');
    const live = path.join(dir, 'api.json.4000002.tmp');
    const mine = path.join(dir, `api.json.${process.pid}.tmp`);
    const other = path.join(dir, 'api.json');
    const target = path.join(dir, 'target');
    for (const file of [dead, live, mine, other, target]) fs.writeFileSync(file, '');
    fs.symlinkSync(target, path.join(dir, 'web.json.4000003.tmp'));
    const removed = sweepStaleTemps(dir, (pid) => pid === 4000002);
    expect(removed).toBe(1);
    expect(fs.readdirSync(dir).sort()).toEqual(['api.json', 'api.json.4000002.tmp', `api.json.${process.pid}.tmp`, 'target', 'web.json.4000003.tmp'].sort());
  });

  it('the state saver sweeps them when it starts', () => {
    const dir = tempDir();
    fs.mkdirSync(path.join(dir, 'workspaces'), { mode: 0o700 });
    const stale = path.join(dir, 'workspaces', 'api.json.4000001.tmp');
    fs.writeFileSync(stale, '');
    new StateSaver({ file: path.join(dir, 'workspaces', 'api.json'), capture: () => ({}) as unknown as WorkspaceState, logger: () => {} }).stop();
    expect(fs.existsSync(stale)).toBe(false);
  });
});
