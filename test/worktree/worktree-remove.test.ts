/**
 * Removing a worktree belltower made, on real temporary repositories with the real git command
 * line: what it would lose is read first; with no loss it goes with its branch; with a loss it
 * goes only when that very loss is confirmed, and a confirmation of a loss that has changed since
 * (a file edited, a commit added) is refused with nothing removed.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createWorktree, worktreesFolder } from '../../src/worktree/worktree-create.js';
import { lossWords, nothingLost, removeWorktree, worktreeLoss } from '../../src/worktree/worktree-remove.js';
import { WorktreeError } from '../../src/worktree/worktree-create.js';
import { gitIn, GIT_ENV, tempRepository, type TempRepository } from '../support/git-repo.js';

const repos: TempRepository[] = [];
afterEach(() => {
  for (const repo of repos.splice(0)) repo.remove();
});

function setup() {
  const made = tempRepository({ 'app.ts': 'export const a = 1;\n', '.gitignore': 'dist/\n' }, 'belltower-remove-');
  repos.push(made);
  return { ...made, state: join(made.root, 'state') };
}

const make = (repo: string, state: string, branch: string) => createWorktree({ cwd: repo, branch, stateDir: state, env: GIT_ENV });
const branches = (repo: string) => gitIn(repo, 'branch', '--format=%(refname:short)').split('\n').filter(Boolean).sort();
const records = (repo: string) => gitIn(repo, 'worktree', 'list', '--porcelain').match(/^worktree .*$/gm)?.map((line) => line.slice('worktree '.length)) ?? [];

describe('removing a worktree', () => {
  it('with nothing to lose: no confirmation needed; its folder, its record and its branch go (its ignored files are named)', async () => {
    const { repo, state } = setup();
    const made = await make(repo, state, 'feat-done');
    mkdirSync(join(made.path, 'dist'));
    writeFileSync(join(made.path, 'dist', 'out.js'), 'built\n');
    const loss = await worktreeLoss(made.path, { env: GIT_ENV });
    expect(loss).toMatchObject({ path: made.path, repository: repo, branch: 'feat-done', head: made.base, missing: false, uncommitted: { count: 0, files: [] }, commits: { count: 0, subjects: [] }, ignored: { count: 1, files: ['dist/'] } });
    expect(nothingLost(loss)).toBe(true);
    expect(lossWords(loss)).toBe('nothing');

    expect(await removeWorktree(made.path, { env: GIT_ENV })).toEqual({ removed: true, path: made.path, branch: 'feat-done', branchDeleted: true });
    expect(existsSync(made.path)).toBe(false);
    expect(records(repo)).toEqual([repo]);
    expect(branches(repo)).toEqual(['main']);
  });

  it('with uncommitted changes: refused without confirmation, removed once the loss shown is confirmed', async () => {
    const { repo, state } = setup();
    const made = await make(repo, state, 'feat-dirty');
    writeFileSync(join(made.path, 'app.ts'), 'export const a = 2;\n');
    writeFileSync(join(made.path, 'notes.md'), 'todo\n');
    const shown = await worktreeLoss(made.path, { env: GIT_ENV });
    expect(shown.uncommitted).toEqual({ count: 2, files: expect.arrayContaining(['app.ts', 'notes.md']) as unknown as string[] });
    expect(nothingLost(shown)).toBe(false);
    expect(lossWords(shown)).toMatch(/^2 uncommitted files \((app\.ts, notes\.md|notes\.md, app\.ts)\)$/);

    const refused = await removeWorktree(made.path, { env: GIT_ENV });
    expect(refused).toMatchObject({ removed: false, why: 'unconfirmed', loss: { key: shown.key } });
    expect(refused.removed === false && refused.message).toBe(`removing ${made.path} would lose ${lossWords(shown)}: it is removed only once that loss is confirmed; nothing removed`);
    expect(existsSync(join(made.path, 'notes.md'))).toBe(true);
    expect(branches(repo)).toContain('feat-dirty');

    expect(await removeWorktree(made.path, { confirmedLoss: shown, env: GIT_ENV })).toMatchObject({ removed: true, branchDeleted: true });
    expect(existsSync(made.path)).toBe(false);
    expect(branches(repo)).toEqual(['main']);
  });

  it('refuses a confirmation of a loss that has changed since: a file edited, its list the same', async () => {
    const { repo, state } = setup();
    const made = await make(repo, state, 'feat-edited');
    writeFileSync(join(made.path, 'app.ts'), 'export const a = 2;\n');
    const shown = await worktreeLoss(made.path, { env: GIT_ENV });
    // The same file, the same size, edited after the user saw the loss.
    writeFileSync(join(made.path, 'app.ts'), 'export const a = 3;\n');
    const now = await worktreeLoss(made.path, { env: GIT_ENV });
    expect(now.uncommitted).toEqual(shown.uncommitted);
    expect(now.key).not.toBe(shown.key);

    const refused = await removeWorktree(made.path, { confirmedLoss: shown, env: GIT_ENV });
    expect(refused).toMatchObject({ removed: false, why: 'changed', loss: { key: now.key } });
    expect(refused.removed === false && refused.message).toMatch(/changed since what removing it would lose was read \(now: 1 uncommitted file \(app\.ts\)\): look again/);
    expect(existsSync(join(made.path, 'app.ts'))).toBe(true);
    expect(branches(repo)).toContain('feat-edited');
    // The loss as it is now, confirmed, is removed.
    expect(await removeWorktree(made.path, { confirmedLoss: now, env: GIT_ENV })).toMatchObject({ removed: true });
  });

  it('with commits on no other branch: refused without confirmation; a commit added after the loss was read is refused; confirmed, the branch goes with -D', async () => {
    const { repo, state } = setup();
    const made = await make(repo, state, 'feat-commits');
    writeFileSync(join(made.path, 'app.ts'), 'export const a = 7;\n');
    gitIn(made.path, 'commit', '-q', '-am', 'agent: a is 7');
    const shown = await worktreeLoss(made.path, { env: GIT_ENV });
    expect(shown.uncommitted.count).toBe(0);
    expect(shown.commits.count).toBe(1);
    expect(shown.commits.subjects[0]).toMatch(/^[0-9a-f]{7,} agent: a is 7$/);
    expect(lossWords(shown)).toMatch(/^1 commit on no other branch \([0-9a-f]+ agent: a is 7\)$/);
    expect(await removeWorktree(made.path, { env: GIT_ENV })).toMatchObject({ removed: false, why: 'unconfirmed' });

    writeFileSync(join(made.path, 'app.ts'), 'export const a = 8;\n');
    gitIn(made.path, 'commit', '-q', '-am', 'agent: a is 8');
    expect(await removeWorktree(made.path, { confirmedLoss: shown, env: GIT_ENV })).toMatchObject({ removed: false, why: 'changed', loss: { commits: { count: 2 } } });
    expect(branches(repo)).toContain('feat-commits');

    const now = await worktreeLoss(made.path, { env: GIT_ENV });
    expect(await removeWorktree(made.path, { confirmedLoss: now, env: GIT_ENV })).toMatchObject({ removed: true, branchDeleted: true });
    expect(branches(repo)).toEqual(['main']);
  });

  it('a branch whose commits are all on another branch (but not merged into HEAD) loses nothing: it goes unconfirmed', async () => {
    const { repo, state } = setup();
    const made = await make(repo, state, 'feat-shared');
    writeFileSync(join(made.path, 'app.ts'), 'export const a = 9;\n');
    gitIn(made.path, 'commit', '-q', '-am', 'agent: a is 9');
    gitIn(repo, 'branch', 'keeper', 'feat-shared');
    const loss = await worktreeLoss(made.path, { env: GIT_ENV });
    expect(loss.commits.count).toBe(0);
    // git branch -d alone would refuse it: it is not merged into main.
    expect(await removeWorktree(made.path, { env: GIT_ENV })).toEqual({ removed: true, path: made.path, branch: 'feat-shared', branchDeleted: true });
    expect(branches(repo)).toEqual(['keeper', 'main']);
    expect(gitIn(repo, 'log', '-1', '--format=%s', 'keeper').trim()).toBe('agent: a is 9');
  });

  it('a worktree whose folder was deleted by hand: its record and branch go, and no other record (never git worktree prune)', async () => {
    const { root, repo, state } = setup();
    const made = await make(repo, state, 'feat-gone');
    // A worktree of the user's own, elsewhere, whose folder is away too (an unmounted disk).
    const theirs = join(root, 'usb', 'theirs');
    gitIn(repo, 'worktree', 'add', '-q', '-b', 'theirs', theirs);
    rmSync(join(root, 'usb'), { recursive: true, force: true });
    rmSync(made.path, { recursive: true, force: true });

    await expect(worktreeLoss(made.path, { env: GIT_ENV })).rejects.toThrow(new WorktreeError(`${made.path} is gone, and no repository was named to ask about its record; nothing removed`));
    const loss = await worktreeLoss(made.path, { repository: repo, env: GIT_ENV });
    expect(loss).toMatchObject({ missing: true, branch: 'feat-gone', uncommitted: { count: 0 }, commits: { count: 0 } });
    expect(await removeWorktree(made.path, { repository: repo, env: GIT_ENV })).toMatchObject({ removed: true, branchDeleted: true });
    expect(records(repo)).toEqual([repo, theirs]);
    expect(branches(repo)).toEqual(['main', 'theirs']);
  });

  it('refuses what is not a worktree git lists, and deletes nothing of it', async () => {
    const { repo, state } = setup();
    await make(repo, state, 'feat-x');
    const leftover = join(worktreesFolder(state, repo), 'leftover');
    mkdirSync(leftover);
    writeFileSync(join(leftover, 'notes.md'), 'mine\n');
    const outcome = await removeWorktree(leftover, { env: GIT_ENV });
    expect(outcome).toEqual({ removed: false, why: 'not-removable', loss: null, message: `${leftover} is not a worktree git knows (it has no .git: git does not know it as a worktree): belltower removes only worktrees git lists; nothing removed` });
    expect(existsSync(join(leftover, 'notes.md'))).toBe(true);
    expect(await removeWorktree(repo, { env: GIT_ENV })).toMatchObject({ removed: false, why: 'not-removable', message: `${repo} is a repository's main working tree, not a worktree belltower made: nothing removed` });
    expect(existsSync(join(repo, 'app.ts'))).toBe(true);
  });

  it('refuses a locked worktree, even with its loss confirmed', async () => {
    const { repo, state } = setup();
    const made = await make(repo, state, 'feat-locked');
    gitIn(repo, 'worktree', 'lock', '--reason', 'on a stick', made.path);
    const loss = await worktreeLoss(made.path, { env: GIT_ENV });
    expect(await removeWorktree(made.path, { confirmedLoss: loss, env: GIT_ENV })).toMatchObject({ removed: false, why: 'not-removable', message: `${made.path} is locked (on a stick): git worktree unlock it first; nothing removed` });
    expect(existsSync(made.path)).toBe(true);
  });
});
