/**
 * A workspace file's `worktree` through the built CLI (`run --headless --config`), on a real
 * temporary repository: `true` gives the tile `belltower/<name>`, a string that branch; the same
 * file started again opens the same worktrees (with what was committed in them), never new ones;
 * a branch that exists and is no worktree belltower made starts nothing for that tile and says so.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { GIT_ENV, gitIn, tempRepository } from '../support/git-repo.js';

const exec = promisify(execFile);
const bin = join(import.meta.dirname, '..', '..', 'bin', 'belltower.js');
const removals: (() => void)[] = [];
afterEach(() => {
  for (const remove of removals.splice(0)) remove();
});

async function belltower(args: string[], cwd: string, state: string): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await exec(process.execPath, [bin, ...args], { cwd, env: { ...GIT_ENV, BELLTOWER_STATE_DIR: state }, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('a workspace file\'s "worktree"', () => {
  it('starts each tile in its own worktree, opens the same ones again next time, and refuses a branch it did not make', async () => {
    const made = tempRepository({ 'app.ts': 'a\n' }, 'belltower-ws-worktree-');
    removals.push(made.remove);
    const { repo, root } = made;
    const state = join(root, 'state');
    writeFileSync(
      join(repo, 'belltower.json'),
      JSON.stringify({
        tiles: [
          { name: 'api', command: 'git rev-parse --abbrev-ref HEAD > where.txt', worktree: true },
          { name: 'web', command: 'pwd > where.txt', worktree: 'feat-web' },
          { name: 'bad', command: 'touch started.txt', worktree: 'main' },
        ],
      }),
    );
    const trusted = await belltower(['trust', 'belltower.json'], repo, state);
    expect(trusted.code).toBe(0);
    expect(trusted.stdout).toContain('      in a git worktree of its repository, on branch belltower/api (made, or the one made for it before)');
    expect(trusted.stdout).toContain('on branch feat-web');

    const first = await belltower(['run', '--headless', '--config', 'belltower.json'], repo, state);
    expect(first.stderr).toContain(`belltower: not started: tile 3 bad: branch main already exists in ${repo}, and not in a worktree belltower made for it: name another branch in "worktree"; nothing started`);
    const folders = readdirSync(join(state, 'worktrees'));
    expect(folders).toHaveLength(1);
    const api = join(state, 'worktrees', folders[0]!, 'belltower-api');
    const web = join(state, 'worktrees', folders[0]!, 'feat-web');
    // Each ran in its worktree, on its branch; the refused tile ran nowhere.
    expect(gitIn(api, 'rev-parse', '--abbrev-ref', 'HEAD').trim()).toBe('belltower/api');
    expect(existsSync(join(api, 'where.txt'))).toBe(true);
    expect(existsSync(join(web, 'where.txt'))).toBe(true);
    expect(existsSync(join(repo, 'started.txt'))).toBe(false);
    expect(existsSync(join(repo, 'where.txt'))).toBe(false);

    // Work committed in a worktree is there the next time: the same worktree, not a new one.
    gitIn(api, 'add', '.');
    gitIn(api, 'commit', '-q', '-m', 'api work');
    const head = gitIn(api, 'rev-parse', 'HEAD').trim();
    const second = await belltower(['run', '--headless', '--config', 'belltower.json'], repo, state);
    expect(second.stderr).not.toContain('tile 1');
    expect(second.stderr).not.toContain('tile 2');
    expect(gitIn(api, 'rev-parse', 'HEAD').trim()).toBe(head);
    expect(readdirSync(join(state, 'worktrees', folders[0]!)).sort()).toEqual(['belltower-api', 'feat-web']);
    expect(gitIn(repo, 'worktree', 'list').trim().split('\n')).toHaveLength(3);
  }, 120_000);
});
