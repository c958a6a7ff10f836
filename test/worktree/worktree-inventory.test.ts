/**
 * The inventory of the worktrees belltower made, on real temporary repositories with the real git
 * command line and worktrees made by the real createWorktree: each as git sees it (branch,
 * repository, uncommitted files, commits on no other branch), a folder deleted by hand reported
 * missing, a folder git does not know reported stale, a planted symlink reported and not followed,
 * and the bounds.
 */
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createWorktree, worktreesFolder } from '../../src/worktree/worktree-create.js';
import { listWorktrees, whyKept, worktreesRoot, type WorktreeEntry } from '../../src/worktree/worktree-inventory.js';
import { gitIn, GIT_ENV, tempRepository, type TempRepository } from '../support/git-repo.js';

const repos: TempRepository[] = [];
afterEach(() => {
  for (const repo of repos.splice(0)) repo.remove();
});

function setup(files: Record<string, string> = { 'app.ts': 'export const a = 1;\n', '.gitignore': 'dist/\n' }) {
  const made = tempRepository(files, 'belltower-inventory-');
  repos.push(made);
  return { ...made, state: join(made.root, 'state') };
}

const make = (repo: string, state: string, branch: string) => createWorktree({ cwd: repo, branch, stateDir: state, env: GIT_ENV });
const list = (state: string, repositories?: string[]) => listWorktrees({ stateDir: state, env: GIT_ENV, ...(repositories ? { repositories } : {}) });
const byPath = (entries: readonly WorktreeEntry[], path: string) => entries.find((e) => e.path === path);

describe('the worktrees belltower made', () => {
  it('are listed with their branch and repository; uncommitted and untracked files count, ignored ones do not', async () => {
    const { repo, state } = setup();
    const clean = await make(repo, state, 'feat-clean');
    const dirty = await make(repo, state, 'feat/dirty');
    writeFileSync(join(dirty.path, 'app.ts'), 'export const a = 2;\n');
    writeFileSync(join(dirty.path, 'new.ts'), 'new\n');
    mkdirSync(join(dirty.path, 'dist'));
    writeFileSync(join(dirty.path, 'dist', 'out.js'), 'built\n');

    const { worktrees, truncated, root } = await list(state);
    expect(root).toBe(worktreesRoot(state));
    expect(truncated).toBe(false);
    expect(worktrees.map((e) => e.path).sort()).toEqual([clean.path, dirty.path].sort());
    expect(byPath(worktrees, clean.path)).toEqual({
      path: clean.path,
      state: 'worktree',
      branch: 'feat-clean',
      repository: repo,
      head: clean.base,
      locked: false,
      uncommitted: { count: 0, files: [] },
      commits: { count: 0, subjects: [] },
    });
    const seen = byPath(worktrees, dirty.path)!;
    expect(seen.branch).toBe('feat/dirty');
    expect(seen.uncommitted?.count).toBe(2);
    expect(seen.uncommitted?.files.sort()).toEqual(['app.ts', 'new.ts']);
    expect(whyKept(seen)).toBe('2 uncommitted files');
    expect(whyKept(byPath(worktrees, clean.path)!)).toBeNull();
  });

  it('count the commits of a branch that are on no other branch, and none once another branch has them', async () => {
    const { repo, state } = setup();
    const made = await make(repo, state, 'feat-work');
    writeFileSync(join(made.path, 'app.ts'), 'export const a = 3;\n');
    gitIn(made.path, 'commit', '-q', '-am', 'agent: a is 3');
    writeFileSync(join(made.path, 'app.ts'), 'export const a = 4;\n');
    gitIn(made.path, 'commit', '-q', '-am', 'agent: a is 4');

    let entry = byPath((await list(state)).worktrees, made.path)!;
    expect(entry.uncommitted).toEqual({ count: 0, files: [] });
    expect(entry.commits?.count).toBe(2);
    expect(entry.commits?.subjects.map((s) => s.replace(/^\w+ /, ''))).toEqual(['agent: a is 4', 'agent: a is 3']);
    expect(whyKept(entry)).toBe('2 commits on no other branch');

    // Merged into main: nothing of the branch is its alone any more.
    gitIn(repo, 'merge', '-q', '--ff-only', 'feat-work');
    entry = byPath((await list(state)).worktrees, made.path)!;
    expect(entry.commits).toEqual({ count: 0, subjects: [] });
    expect(whyKept(entry)).toBeNull();
  });

  it('report a worktree whose folder was deleted by hand as missing, found through its repository', async () => {
    const { repo, state } = setup();
    const kept = await make(repo, state, 'feat-kept');
    const gone = await make(repo, state, 'feat-gone');
    writeFileSync(join(gone.path, 'app.ts'), 'export const a = 5;\n');
    gitIn(gone.path, 'commit', '-q', '-am', 'agent: a is 5');
    rmSync(gone.path, { recursive: true, force: true });

    const entry = byPath((await list(state)).worktrees, gone.path);
    expect(entry).toMatchObject({ state: 'missing', branch: 'feat-gone', repository: repo, uncommitted: null, commits: { count: 1 } });
    expect(whyKept(entry!)).toBe('1 commit on no other branch');

    // With no worktree of the repository left on disk, nothing on disk names it (its folder's name
    // holds a hash): only a repository the caller names finds them.
    rmSync(kept.path, { recursive: true, force: true });
    expect((await list(state)).worktrees).toEqual([]);
    const named = (await list(state, [repo])).worktrees;
    expect(named.map((e) => [e.path, e.state, e.branch])).toEqual(
      [
        [gone.path, 'missing', 'feat-gone'],
        [kept.path, 'missing', 'feat-kept'],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
    expect(whyKept(byPath(named, kept.path)!)).toBeNull();
  });

  it('report a folder git does not know as stale, even inside another repository', async () => {
    const { root, repo } = setup();
    // A state folder inside a repository of the user's: git must not answer for it.
    const outer = join(root, 'outer');
    mkdirSync(outer);
    gitIn(outer, 'init', '-q', '-b', 'main');
    const state = join(outer, 'state');
    const made = await make(repo, state, 'feat-a');
    const other = await make(repo, state, 'feat-b');
    const folder = worktreesFolder(state, repo);
    mkdirSync(join(folder, 'leftover'));
    writeFileSync(join(folder, 'leftover', 'notes.md'), 'mine\n');
    mkdirSync(join(folder, 'own-repo'));
    gitIn(join(folder, 'own-repo'), 'init', '-q');
    // git's record of one worktree removed behind its back: its folder points to nothing.
    rmSync(join(repo, '.git', 'worktrees', 'feat-b'), { recursive: true, force: true });

    const { worktrees } = await list(state);
    expect(byPath(worktrees, made.path)?.state).toBe('worktree');
    expect(byPath(worktrees, join(folder, 'leftover'))).toMatchObject({ state: 'stale', branch: null, repository: null, note: 'it has no .git: git does not know it as a worktree' });
    expect(byPath(worktrees, join(folder, 'own-repo'))).toMatchObject({ state: 'stale', note: 'a repository of its own, not a worktree' });
    expect(byPath(worktrees, other.path)).toMatchObject({ state: 'stale', uncommitted: null });
    expect(byPath(worktrees, other.path)?.note).toMatch(/^git no longer knows it as a worktree/);
    expect(whyKept(byPath(worktrees, join(folder, 'leftover'))!)).toMatch(/belltower removes only worktrees git lists/);
    expect(worktrees).toHaveLength(4);
  });

  it('report a symlink planted among them, and never follow it', async () => {
    const { root, repo, state } = setup();
    const made = await make(repo, state, 'feat-real');
    // A real, dirty worktree somewhere else, and links to it (and to its folder) planted in
    // belltower's folders: what they point at must not be read.
    const elsewhere = join(root, 'elsewhere', 'wt');
    mkdirSync(dirname(elsewhere));
    gitIn(repo, 'worktree', 'add', '-q', '-b', 'theirs', elsewhere);
    writeFileSync(join(elsewhere, 'secret.txt'), 'not belltower\'s\n');
    const planted = join(worktreesFolder(state, repo), 'planted');
    symlinkSync(elsewhere, planted);
    const plantedFolder = join(worktreesRoot(state), 'planted-repo');
    symlinkSync(dirname(elsewhere), plantedFolder);

    const { worktrees } = await list(state);
    expect(worktrees.map((e) => e.path).sort()).toEqual([made.path, planted, plantedFolder].sort());
    for (const link of [planted, plantedFolder]) {
      expect(byPath(worktrees, link)).toEqual({ path: link, state: 'link', branch: null, repository: null, head: null, locked: false, uncommitted: null, commits: null, note: 'a symlink belltower did not make (not followed)' });
      expect(whyKept(byPath(worktrees, link)!)).toBe('a symlink belltower did not make: not followed, not removed');
    }
    // Its own record, outside belltower's folders, is not belltower's either.
    expect(worktrees.some((e) => e.path.startsWith(join(root, 'elsewhere')))).toBe(false);
  });

  it('read a bounded number of entries, and say when there were more', async () => {
    const { repo, state } = setup();
    for (const branch of ['one', 'two', 'three']) await make(repo, state, branch);
    const bounded = await listWorktrees({ stateDir: state, env: GIT_ENV, maxEntries: 2 });
    expect(bounded.truncated).toBe(true);
    expect(bounded.worktrees).toHaveLength(2);
    const all = await listWorktrees({ stateDir: state, env: GIT_ENV, maxEntries: 3 });
    expect(all.truncated).toBe(false);
    expect(all.worktrees).toHaveLength(3);
  });

  it('is empty when belltower made none', async () => {
    const { state } = setup();
    expect(await list(state)).toEqual({ root: worktreesRoot(state), worktrees: [], truncated: false });
  });
});
