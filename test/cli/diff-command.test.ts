/**
 * `belltower add --worktree` and `belltower diff TILE` against a running belltower: a tile started
 * in a new worktree of its folder's repository, what it changed exactly as `git diff` prints it
 * with untracked files included, and plain refusals.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startHeadlessAgent, type HeadlessAgent } from '../support/headless-agent.js';

const runs: HeadlessAgent[] = [];
const folders: string[] = [];
afterEach(async () => {
  for (const run of runs.splice(0)) await run.stop();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const GIT_ENV: Record<string, string> = Object.fromEntries(
  Object.entries({ ...process.env, CI: undefined, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com', GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' }).filter((e): e is [string, string] => e[1] !== undefined),
);
const gitIn = (cwd: string, ...args: string[]) => execFileSync('git', ['-C', cwd, ...args], { env: GIT_ENV, encoding: 'utf8' });

function belltowerIn(cwd: string, dir: string, session: string): HeadlessAgent {
  const run = startHeadlessAgent({ spec: 'sleep 600', env: GIT_ENV, cwd, dir, session });
  runs.push(run);
  return run;
}

describe('belltower diff', () => {
  it("prints the tile's changes as git diff does, untracked files included", async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'belltower-diff-')));
    folders.push(root);
    const repo = join(root, 'repo');
    mkdirSync(repo);
    gitIn(repo, 'init', '-q', '-b', 'main');
    writeFileSync(join(repo, 'app.ts'), 'export const a = 1;\n');
    gitIn(repo, 'add', '.');
    gitIn(repo, 'commit', '-q', '-m', 'first');
    writeFileSync(join(repo, 'app.ts'), 'export const a = 2;\n');
    writeFileSync(join(repo, 'new.ts'), 'export const n = 1;\n');
    const run = belltowerIn(repo, join(root, 'bt'), `diff-${process.pid}`);
    await run.until('the tile running', () => run.verdicts.length > 0 || undefined, 15_000);

    const printed = await run.cli('diff', '1');
    expect(printed.stderr).toBe('');
    expect(printed.code).toBe(0);
    // git's own answer: the new file marked intent-to-add, then git diff against HEAD.
    gitIn(repo, 'add', '--intent-to-add', 'new.ts');
    expect(printed.stdout).toBe(gitIn(repo, 'diff', '--no-color', 'HEAD'));
    expect(printed.stdout).toContain('+++ b/new.ts');
  }, 60_000);

  it('outside a git repository says so, exit 1', async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'belltower-nodiff-')));
    folders.push(root);
    const plain = join(root, 'plain');
    mkdirSync(plain);
    const run = belltowerIn(plain, join(root, 'bt'), `nodiff-${process.pid}`);
    await run.until('the tile running', () => run.verdicts.length > 0 || undefined, 15_000);
    const printed = await run.cli('diff', '1');
    expect(printed.code).toBe(1);
    expect(printed.stdout).toBe('');
    expect(printed.stderr).toBe(`belltower: tile 1's folder ${plain} is not in a git repository: there is nothing to diff\n`);
  }, 60_000);

  it('add --worktree starts the tile in a new worktree on a new branch; diff counts from its base, its commits included', async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'belltower-addwt-')));
    folders.push(root);
    const repo = join(root, 'repo');
    mkdirSync(repo);
    gitIn(repo, 'init', '-q', '-b', 'main');
    writeFileSync(join(repo, 'app.ts'), 'export const a = 1;\n');
    gitIn(repo, 'add', '.');
    gitIn(repo, 'commit', '-q', '-m', 'first');
    const base = gitIn(repo, 'rev-parse', 'HEAD').trim();
    const run = belltowerIn(repo, join(root, 'bt'), `addwt-${process.pid}`);
    await run.until('the first tile running', () => run.verdicts.length > 0 || undefined, 15_000);

    const added = await run.cli('add', '--worktree', 'feat-x', '--name', 'agent', 'sleep 600');
    expect(added.stderr).toBe('');
    expect(added.code).toBe(0);
    const listed = JSON.parse((await run.cli('ls', '--json')).stdout) as { id: number; cwd?: string; worktree?: { path: string; branch: string; base: string; baseName: string; repository: string } }[];
    const tile = listed.find((t) => t.id === 2);
    expect(tile?.worktree).toMatchObject({ branch: 'feat-x', base, baseName: 'main', repository: repo });
    const where = tile!.worktree!.path;
    expect(tile?.cwd).toBe(where);
    expect(where.startsWith(repo)).toBe(false);
    expect(gitIn(where, 'rev-parse', '--abbrev-ref', 'HEAD').trim()).toBe('feat-x');
    expect(gitIn(repo, 'status', '--porcelain')).toBe('');
    expect((await run.cli('ls')).stdout).toContain(`    worktree: feat-x from main (${base.slice(0, 10)}), in ${where}`);

    // The agent commits one change and leaves another: both are its changes.
    writeFileSync(join(where, 'app.ts'), 'export const a = 2;\n');
    gitIn(where, 'commit', '-q', '-am', 'agent: a = 2');
    writeFileSync(join(where, 'notes.md'), 'todo\n');
    const printed = await run.cli('diff', '2');
    expect(printed.code).toBe(0);
    gitIn(where, 'add', '--intent-to-add', 'notes.md');
    expect(printed.stdout).toBe(gitIn(where, 'diff', '--no-color', base));
    expect(printed.stdout).toContain('-export const a = 1;');
    expect(printed.stdout).toContain('+++ b/notes.md');
  }, 60_000);

  it('add --worktree refuses a branch that exists and a folder outside a repository: nothing started', async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'belltower-addwt-no-')));
    folders.push(root);
    const repo = join(root, 'repo');
    mkdirSync(repo);
    gitIn(repo, 'init', '-q', '-b', 'main');
    writeFileSync(join(repo, 'a'), 'a\n');
    gitIn(repo, 'add', '.');
    gitIn(repo, 'commit', '-q', '-m', 'first');
    gitIn(repo, 'branch', 'taken');
    const plain = join(root, 'plain');
    mkdirSync(plain);
    const run = belltowerIn(repo, join(root, 'bt'), `addwtno-${process.pid}`);
    await run.until('the first tile running', () => run.verdicts.length > 0 || undefined, 15_000);

    const taken = await run.cli('add', '--worktree', 'taken', 'sleep 600');
    expect(taken.code).toBe(1);
    expect(taken.stderr).toBe(`belltower: branch taken already exists in ${repo}: name another, or leave the name out for a new one; nothing started\n`);
    const outside = await run.cli('add', '--worktree', '--cwd', plain, 'sleep 600');
    expect(outside.code).toBe(1);
    expect(outside.stderr).toBe(`belltower: ${plain} is not in a git repository: a worktree tile needs one (or start it without a worktree); nothing started\n`);
    const baseAlone = await run.cli('add', '--base', 'main', 'sleep 600');
    expect(baseAlone.code).toBe(2);
    expect(baseAlone.stderr).toBe('belltower: --base is where a new worktree branches from: give --worktree too\n');
    const tiles = JSON.parse((await run.cli('ls', '--json')).stdout) as unknown[];
    expect(tiles).toHaveLength(1);
    expect(gitIn(repo, 'worktree', 'list', '--porcelain').match(/^worktree /gm)).toHaveLength(1);
  }, 60_000);
});
