/**
 * The disk fills while the grid runs (a real tmpfs, in tmux): the grid says once on the status
 * line that it cannot save the workspace for a restore, and keeps running; no temporary file is
 * left behind.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closeAll, quitCleanly, start } from '../support/grid-session.js';
import { isRoot } from '../support/other-user.js';
import { tmuxMissing } from '../support/tmux.js';

const mounts: string[] = [];
afterEach(() => {
  closeAll();
  for (const dir of mounts.splice(0)) {
    execFileSync('umount', ['-l', dir]);
    rmSync(dir, { recursive: true, force: true });
  }
});

function smallDisk(): string | null {
  if (!isRoot || process.platform !== 'linux') return null;
  const dir = mkdtempSync(join(tmpdir(), 'belltower-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m,mode=0700', 'tmpfs', dir], { stdio: 'ignore' });
  } catch {
    return null;
  }
  mounts.push(dir);
  return dir;
}

/** Whether this process may mount one (root on Linux, not in every container). */
function canMount(): boolean {
  const dir = smallDisk();
  if (dir === null) return false;
  execFileSync('umount', [dir]);
  mounts.splice(mounts.indexOf(dir), 1);
  rmSync(dir, { recursive: true, force: true });
  return true;
}
const probe = canMount() ? true : null;

describe.skipIf(tmuxMissing() !== null || probe === null)('a full disk while the grid runs (tmux, a real tmpfs)', () => {
  it('says so once on the status line and goes on', async () => {
    const state = smallDisk()!;
    const { tmux, dir } = start(['sh -c "echo ready; exec sleep 600"', 'sh -c "echo two; exec sleep 600"', '--session', 'full'], { cols: 120, rows: 30 }, [], { env: { BELLTOWER_STATE_DIR: state } });
    await tmux.waitFor('the grid', (s) => /belltower · 2 tiles/.test(s) && s.includes('ready'));
    // The grid can show before the first save has made its folder.
    await tmux.until('the first save', () => existsSync(join(state, 'workspaces')) && readdirSync(join(state, 'workspaces')).includes('full.json'), 10_000);
    try {
      writeFileSync(join(state, 'filler'), Buffer.alloc(4 * 1024 * 1024));
    } catch {
      // ENOSPC: the disk is full now
    }
    tmux.keys('2'); // a change that matters: the selection
    await tmux.waitFor('the note', (s) => s.includes('cannot save for a restore: the disk is full'));
    expect(readdirSync(join(state, 'workspaces'))).toEqual(['full.json']);
    await quitCleanly(tmux, dir);
  }, 60_000);
});
