/**
 * `belltower diff TILE` against a running belltower: what the tile's folder changed, exactly as
 * `git diff` prints it with untracked files included, and a plain refusal outside a repository.
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
});
