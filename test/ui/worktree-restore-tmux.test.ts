/**
 * A worktree tile through a crash, in a real terminal (tmux) with the session server: added with
 * `belltower add --worktree`, saved with its worktree, the server killed with SIGKILL, and the
 * next belltower brings it back in that worktree — still its own (its branch in the header and
 * in `ls`), its changes counted against the commit it branched from.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TileInfo } from '../../src/control/protocol.js';
import { parseWorkspaceState } from '../../src/restore/workspace-state.js';
import type { WorkspaceState } from '../../src/restore/workspace-state.js';
import { belltowerCli } from '../support/belltower-cli.js';
import { GIT_ENV, gitIn, tempRepository } from '../support/git-repo.js';
import { closeAll, keepFolder } from '../support/grid-session.js';
import { shellQuote as q } from '../support/shell-quote.js';
import { headerOf, Tmux, tmuxMissing } from '../support/tmux.js';

const bin = join(import.meta.dirname, '..', '..', 'bin', 'belltower.js');
const opened: Tmux[] = [];
afterEach(() => {
  for (const t of opened.splice(0)) t.close();
  closeAll();
});

function savedState(file: string): WorkspaceState | null {
  if (!existsSync(file)) return null;
  const parsed = parseWorkspaceState(readFileSync(file, 'utf8'));
  return parsed.ok ? parsed.state : null;
}

describe.skipIf(tmuxMissing() !== null)('a worktree tile through a crash (tmux)', () => {
  it('kill -9 of the server, then belltower again: the tile comes back in its worktree, still its own', async () => {
    const made = tempRepository({ 'app.ts': 'export const a = 1;\n' }, 'belltower-wt-restore-');
    keepFolder(made.root);
    const { repo } = made;
    const state = join(made.root, 'state');
    const file = join(state, 'workspaces', 'wt.json');
    const run = (n: number) => `${q(process.execPath)} ${q(bin)} --session wt ${n === 1 ? q('sleep 600') : ''} 2> ${made.root}/stderr${n}; echo "EXIT=$?" > ${made.root}/exit${n}`;
    const command = [run(1), 'echo FIRST-ENDED', run(2), 'sleep 600'].join('\n');
    const env: Record<string, string | undefined> = { ...GIT_ENV, BELLTOWER_STATE_DIR: state, NO_COLOR: undefined };
    for (const name of Object.keys(env)) if (name.startsWith('VITEST') || name === 'NODE_OPTIONS') env[name] = undefined;
    const tmux = new Tmux({ cols: 140, rows: 36, command, env, cwd: repo });
    opened.push(tmux);
    const cli = (...args: string[]) => belltowerCli([...args, '--session', 'wt'], { env: { ...GIT_ENV, BELLTOWER_STATE_DIR: state }, cwd: repo });

    await tmux.waitFor('the first tile', (s) => headerOf(s, 1, 'sleep') !== undefined, 30_000);
    const added = await cli('add', '--worktree', 'feat-x', '--name', 'wt', 'sleep 600');
    expect(added.stderr).toBe('');
    expect(added.code).toBe(0);
    const tiles = JSON.parse((await cli('ls', '--json')).stdout) as TileInfo[];
    const worktree = tiles[1]!.worktree!;
    expect(worktree).toMatchObject({ branch: 'feat-x', baseName: 'main', repository: repo });
    // Its work: a commit of its own and an edit, counted against the commit it branched from.
    writeFileSync(join(worktree.path, 'login.ts'), 'one\ntwo\n');
    gitIn(worktree.path, 'add', '.');
    gitIn(worktree.path, 'commit', '-q', '-m', 'login');
    await tmux.until('the worktree saved with the tile', () => savedState(file)?.tiles[1]?.worktree?.branch === 'feat-x', 30_000);
    process.kill(savedState(file)!.pid, 'SIGKILL');

    await tmux.waitFor('the question', (s) => /Restore 2 tiles from \d\d:\d\d \(belltower was killed\)\? \[Y\/n\]/.test(s), 30_000);
    tmux.keys('Enter');
    await tmux.waitFor('the worktree tile back, its branch in its header', (s) => (headerOf(s, 2, 'wt') ?? '').includes('feat-x +2 −0 · 1 file'), 30_000);
    const back = (JSON.parse((await cli('ls', '--json')).stdout) as TileInfo[])[1]!;
    expect(back.cwd).toBe(worktree.path);
    expect(back.worktree).toEqual(worktree);
    expect(back.changes).toEqual({ branch: 'feat-x', added: 2, removed: 0, files: 1 });
    const listed = (await cli('ls')).stdout;
    expect(listed).toContain(`    worktree: feat-x from main (${worktree.base.slice(0, 10)}), in ${worktree.path}`);
    expect(listed).toContain('    changes: feat-x +2 −0 · 1 file (against its base)');
    // The main checkout never saw any of it.
    expect(gitIn(repo, 'status', '--porcelain')).toBe('');
  }, 150_000);
});
