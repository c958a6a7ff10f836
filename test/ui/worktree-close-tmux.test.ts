/**
 * A worktree tile added from the add form, and closing worktree tiles, in a real terminal (tmux),
 * with the session server: `x` asks what becomes of its worktree; `k` keeps it; `r` shows what
 * removing would lose (its uncommitted file) and only `Y` removes it — worktree and branch gone,
 * the main checkout untouched.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TileInfo } from '../../src/control/protocol.js';
import { belltowerCli } from '../support/belltower-cli.js';
import { GIT_ENV, gitIn, tempRepository } from '../support/git-repo.js';
import { closeAll, keepFolder, start } from '../support/grid-session.js';
import { headerOf, tmuxMissing } from '../support/tmux.js';

afterEach(() => closeAll());

describe.skipIf(tmuxMissing() !== null)('closing a worktree tile (tmux)', () => {
  it('the add form starts a tile in a worktree; x asks; k keeps the worktree; r shows the loss and Y removes worktree and branch', async () => {
    const made = tempRepository({ 'app.ts': 'a\n' }, 'belltower-close-tmux-');
    keepFolder(made.root);
    const { repo } = made;
    const session = 'closewt';
    const { tmux, dir } = start(['sleep 600', '--session', session], { cols: 120, rows: 36 }, [], { cwd: repo, env: GIT_ENV });
    const cli = (...args: string[]) => belltowerCli([...args, '--session', session], { env: { ...GIT_ENV, BELLTOWER_STATE_DIR: join(dir, 'state') }, cwd: repo });
    await tmux.waitFor('the first tile', (s) => headerOf(s, 1, 'sleep') !== undefined, 30_000);
    expect((await cli('add', '--worktree', 'keep-me', '--name', 'keep-me', 'sleep 600')).code).toBe(0);
    await tmux.waitFor('tile 2', (s) => headerOf(s, 2, 'keep-me') !== undefined, 30_000);
    // The other through the add form: its fourth field names the branch of a worktree of its own.
    tmux.keys('a');
    await tmux.waitFor('the add form', (s) => s.includes('add a tile') && s.includes('worktree'), 15_000);
    tmux.type('sleep 600');
    tmux.keys('Tab');
    tmux.keys('Tab');
    tmux.type('drop-me');
    tmux.keys('Tab');
    tmux.type('drop-me');
    tmux.keys('Enter');
    await tmux.waitFor('tile 3 added in its worktree', (s) => s.includes('tile 3 drop-me added in a worktree on branch drop-me'), 30_000);
    const tiles = JSON.parse((await cli('ls', '--json')).stdout) as TileInfo[];
    const kept = tiles[1]!.worktree!;
    const dropped = tiles[2]!.worktree!;
    writeFileSync(join(dropped.path, 'work.ts'), 'unsaved\n');
    await tmux.waitFor('both worktree tiles', (s) => (headerOf(s, 3, 'drop-me') ?? '').includes('drop-me +1 −0 · 1 file'), 30_000);

    tmux.keys('2');
    tmux.keys('x');
    await tmux.waitFor('the question', (s) => s.includes('close tile 2?') && s.includes(`Its worktree: ${kept.path} (branch keep-me)`) && s.includes('k closes it and keeps the worktree'), 15_000);
    tmux.keys('k');
    await tmux.waitFor('tile 2 closed, its worktree kept', (s) => headerOf(s, 2, 'keep-me') === undefined && s.includes('tile 2 keep-me closed'), 30_000);
    expect(existsSync(kept.path)).toBe(true);

    tmux.keys('3');
    tmux.keys('x');
    await tmux.waitFor('the question', (s) => s.includes('close tile 3?'), 15_000);
    tmux.keys('r');
    await tmux.waitFor('the loss shown', (s) => s.includes("remove tile 3's worktree?") && s.includes('Removing it loses 1 uncommitted file (work.ts).'), 30_000);
    // Not a lower-case y: nothing happens.
    tmux.keys('y');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(existsSync(join(dropped.path, 'work.ts'))).toBe(true);
    tmux.keys('Y');
    let said = '';
    await tmux.until('closed, and said so', () => (said = tmux.screen().split('\n').find((l) => l.includes('tile 3 drop-me closed')) ?? '') !== '', 30_000);
    expect(said).toContain('tile 3 drop-me closed; its worktree and branch drop-me removed');
    expect(existsSync(dropped.path)).toBe(false);
    expect(gitIn(repo, 'branch', '--list', 'drop-me')).toBe('');
    expect(gitIn(repo, 'branch', '--list', 'keep-me')).toContain('keep-me');
    expect(gitIn(repo, 'status', '--porcelain')).toBe('');
  }, 150_000);
});
