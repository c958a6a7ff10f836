/**
 * `belltower worktrees [--prune] [--json]` on real temporary repositories, worktrees made by the
 * real createWorktree (and by `belltower add --worktree` in a real headless session): one line
 * each; --prune removes those that lose nothing and names the rest with why; a worktree a tile of
 * a running session is in is never pruned, and neither is any while a session does not answer.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { CommanderError } from 'commander';
import { afterEach, describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/main.js';
import type { Output } from '../../src/cli/output.js';
import { worktreesCommand, type WorktreesFlags } from '../../src/cli/worktrees-command.js';
import { ensurePrivateDir } from '../../src/platform/private-dir.js';
import { createWorktree, worktreesFolder } from '../../src/worktree/worktree-create.js';
import { gitIn, GIT_ENV, tempRepository, type TempRepository } from '../support/git-repo.js';
import { belltowerCli } from '../support/belltower-cli.js';
import { startHeadlessAgent, type HeadlessAgent } from '../support/headless-agent.js';

const repos: TempRepository[] = [];
const runs: HeadlessAgent[] = [];
const servers: Server[] = [];
afterEach(async () => {
  for (const run of runs.splice(0)) await run.stop();
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
  for (const repo of repos.splice(0)) repo.remove();
});

function setup() {
  const made = tempRepository({ 'app.ts': 'export const a = 1;\n' }, 'belltower-wtcli-');
  repos.push(made);
  return { ...made, state: join(made.root, 'state') };
}

const make = (repo: string, state: string, branch: string) => createWorktree({ cwd: repo, branch, stateDir: state, env: GIT_ENV });
const branches = (repo: string) => gitIn(repo, 'branch', '--format=%(refname:short)').split('\n').filter(Boolean).sort();
const records = (repo: string) => gitIn(repo, 'worktree', 'list', '--porcelain').match(/^worktree .*$/gm)?.map((line) => line.slice('worktree '.length)) ?? [];

/** The command as main.ts runs it, with belltower's folders under `state`, from `cwd`. */
async function worktrees(state: string, cwd: string, flags: WorktreesFlags = {}): Promise<{ code: number; stdout: string[]; stderr: string[] }> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const out: Output = { line: (text) => stdout.push(text), error: (text) => stderr.push(text) };
  const code = await worktreesCommand(flags, out, { ...GIT_ENV, BELLTOWER_STATE_DIR: state }, cwd);
  return { code, stdout, stderr };
}

/** The one line that names `path` (columns two spaces apart, padded). */
function lineOf(lines: readonly string[], path: string): string[] {
  const found = lines.filter((line) => line.split(/ {2,}/).includes(path));
  expect(found, `one line for ${path} in:\n${lines.join('\n')}`).toHaveLength(1);
  return (found[0] as string).split(/ {2,}/);
}

describe('belltower worktrees', () => {
  it('lists each with branch, folder, repository and state; --prune removes the merged and clean ones and names the rest with why', async () => {
    const { root, repo, state } = setup();
    const done = await make(repo, state, 'feat-done');
    writeFileSync(join(done.path, 'app.ts'), 'export const a = 2;\n');
    gitIn(done.path, 'commit', '-q', '-am', 'agent: a is 2');
    gitIn(repo, 'merge', '-q', '--ff-only', 'feat-done');
    const dirty = await make(repo, state, 'feat-dirty');
    writeFileSync(join(dirty.path, 'notes.md'), 'todo\n');
    const committed = await make(repo, state, 'feat-commits');
    writeFileSync(join(committed.path, 'app.ts'), 'export const a = 3;\n');
    gitIn(committed.path, 'commit', '-q', '-am', 'agent: a is 3');
    const gone = await make(repo, state, 'feat-gone');
    rmSync(gone.path, { recursive: true, force: true });
    // The user's own worktree elsewhere, its folder away too: not belltower's to touch.
    const theirs = join(root, 'usb', 'theirs');
    gitIn(repo, 'worktree', 'add', '-q', '-b', 'theirs', theirs);
    rmSync(join(root, 'usb'), { recursive: true, force: true });
    // A link planted among belltower's worktrees, to a folder with something in it.
    const target = join(root, 'precious');
    mkdirSync(target);
    writeFileSync(join(target, 'keep.txt'), 'keep\n');
    const planted = join(worktreesFolder(state, repo), 'planted');
    symlinkSync(target, planted);

    const listed = await worktrees(state, root);
    expect(listed.stderr).toEqual([]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toHaveLength(5);
    expect(lineOf(listed.stdout, done.path)).toEqual(['feat-done', done.path, repo, 'clean']);
    expect(lineOf(listed.stdout, dirty.path)).toEqual(['feat-dirty', dirty.path, repo, '1 uncommitted file']);
    expect(lineOf(listed.stdout, committed.path)).toEqual(['feat-commits', committed.path, repo, '1 commit on no other branch']);
    expect(lineOf(listed.stdout, gone.path)).toEqual(['feat-gone', gone.path, repo, 'missing (its folder is gone)']);
    expect(lineOf(listed.stdout, planted)).toEqual(['-', planted, '-', 'a symlink, not followed']);

    const json = JSON.parse((await worktrees(state, root, { json: true })).stdout.join('\n')) as { path: string; state: string; branch: string | null; inUse: unknown[] }[];
    expect(json.map((e) => [e.path, e.state, e.branch]).sort()).toEqual(
      [
        [done.path, 'worktree', 'feat-done'],
        [dirty.path, 'worktree', 'feat-dirty'],
        [committed.path, 'worktree', 'feat-commits'],
        [gone.path, 'missing', 'feat-gone'],
        [planted, 'link', null],
      ].sort(),
    );
    expect(json.every((e) => Array.isArray(e.inUse) && e.inUse.length === 0)).toBe(true);

    const pruned = await worktrees(state, root, { prune: true });
    expect(pruned.stderr).toEqual([]);
    expect(pruned.code).toBe(0);
    expect(pruned.stdout.sort()).toEqual(
      [
        `removed: feat-done  ${done.path}`,
        `removed: feat-gone  ${gone.path}  (its folder was gone already: git's record of it removed)`,
        `kept:    feat-dirty  ${dirty.path}  (1 uncommitted file)`,
        `kept:    feat-commits  ${committed.path}  (1 commit on no other branch)`,
        `kept:    -  ${planted}  (a symlink belltower did not make: not followed, not removed)`,
      ].sort(),
    );
    expect(existsSync(done.path)).toBe(false);
    expect(readFileSync(join(dirty.path, 'notes.md'), 'utf8')).toBe('todo\n');
    expect(existsSync(committed.path)).toBe(true);
    expect(readFileSync(join(target, 'keep.txt'), 'utf8')).toBe('keep\n');
    expect(branches(repo)).toEqual(['feat-commits', 'feat-dirty', 'main', 'theirs']);
    // Only the records of what it removed went: the user's own missing worktree keeps its own.
    expect(records(repo).sort()).toEqual([repo, dirty.path, committed.path, theirs].sort());

    const after = await worktrees(state, root);
    expect(after.stdout).toHaveLength(3);
  });

  it('exits 1 when something could not be removed, and says what', async () => {
    const { root, repo, state } = setup();
    const made = await make(repo, state, 'feat-stuck');
    // A stale lock on the branch: git cannot delete it.
    writeFileSync(join(repo, '.git', 'refs', 'heads', 'feat-stuck.lock'), '');
    const pruned = await worktrees(state, root, { prune: true });
    expect(pruned.code).toBe(1);
    expect(pruned.stdout).toEqual([`removed: feat-stuck  ${made.path}`]);
    expect(pruned.stderr).toHaveLength(1);
    expect(pruned.stderr[0]).toMatch(/^belltower: the worktree is gone, but its branch feat-stuck is kept: git branch failed: .*feat-stuck\.lock/);
    expect(branches(repo)).toContain('feat-stuck');
  });

  it('with nothing made says so', async () => {
    const { root, state } = setup();
    expect(await worktrees(state, root)).toEqual({ code: 0, stdout: [`no worktree made by belltower (under ${join(state, 'worktrees')})`], stderr: [] });
    expect(await worktrees(state, root, { json: true })).toEqual({ code: 0, stdout: ['[]'], stderr: [] });
  });

  it('never prunes a worktree a tile of a running session is in (add --worktree in a real headless session)', async () => {
    const { root, repo } = setup();
    const dir = join(root, 'bt');
    const session = `wt-inuse-${process.pid}`;
    const run = startHeadlessAgent({ spec: 'sleep 600', env: GIT_ENV, cwd: repo, dir, session });
    runs.push(run);
    await run.until('the first tile running', () => run.verdicts.length > 0 || undefined, 15_000);
    const added = await run.cli('add', '--worktree', 'feat-used', '--name', 'agent', 'sleep 600');
    expect(added.stderr).toBe('');
    expect(added.code).toBe(0);
    const state = join(dir, 'state');
    const used = join(worktreesFolder(state, repo), 'feat-used');
    expect(existsSync(used)).toBe(true);
    const free = await make(repo, state, 'feat-free');

    const listed = await worktrees(state, root);
    expect(listed.stderr).toEqual([]);
    expect(lineOf(listed.stdout, used)).toEqual(['feat-used', used, repo, `clean, in use by session ${session} tile 2`]);
    expect(lineOf(listed.stdout, free.path)).toEqual(['feat-free', free.path, repo, 'clean']);
    const json = JSON.parse((await worktrees(state, root, { json: true })).stdout.join('\n')) as { path: string; inUse: unknown[] }[];
    expect(json.find((e) => e.path === used)?.inUse).toEqual([{ session, tile: 2, name: 'agent' }]);
    // The built CLI, as a user runs it (npm run build first).
    const built = await belltowerCli(['worktrees'], { env: { ...GIT_ENV, BELLTOWER_STATE_DIR: state }, cwd: root });
    expect(built.stderr).toBe('');
    expect(built.code).toBe(0);
    expect(lineOf(built.stdout.trimEnd().split('\n'), used)).toEqual(['feat-used', used, repo, `clean, in use by session ${session} tile 2`]);

    const pruned = await worktrees(state, root, { prune: true });
    expect(pruned.stderr).toEqual([]);
    expect(pruned.code).toBe(0);
    expect(pruned.stdout.sort()).toEqual([`kept:    feat-used  ${used}  (in use by session ${session} tile 2)`, `removed: feat-free  ${free.path}`].sort());
    expect(existsSync(used)).toBe(true);
    expect(branches(repo)).toEqual(['feat-used', 'main']);
  }, 60_000);

  it('while a session cannot be asked for its tiles, says so and prunes nothing (exit 1)', async () => {
    const { root, repo, state } = setup();
    const made = await make(repo, state, 'feat-maybe');
    // A session that reads the request and closes the connection without answering.
    const control = join(state, 'run', 'control');
    ensurePrivateDir(control);
    const server = createServer((socket) => socket.once('data', () => socket.end()));
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(join(control, 'mute.sock'), resolve));

    const pruned = await worktrees(state, root, { prune: true });
    expect(pruned.code).toBe(1);
    expect(pruned.stderr).toEqual(['belltower: session mute could not be asked for its tiles (it closed the connection without answering): any worktree may be in use by it']);
    expect(pruned.stdout).toEqual([`kept:    feat-maybe  ${made.path}  (possibly in use (session mute did not answer))`]);
    expect(existsSync(made.path)).toBe(true);
  });

  it('is a command of belltower: --prune and --json, and an unknown option is a usage error', async () => {
    const out: Output = { line: () => undefined, error: () => undefined };
    const program = buildProgram(out, () => undefined);
    const command = program.commands.find((c) => c.name() === 'worktrees');
    expect(command?.options.map((o) => o.long).sort()).toEqual(['--json', '--prune']);
    const error = await program.parseAsync(['node', 'belltower', 'worktrees', '--nope']).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CommanderError);
    expect((error as CommanderError).code).toBe('commander.unknownOption');
    const { root } = setup();
    const built = await belltowerCli(['worktrees', '--nope'], { env: { ...GIT_ENV, BELLTOWER_STATE_DIR: join(root, 'state') }, cwd: root });
    expect(built).toEqual({ code: 2, stdout: '', stderr: "error: unknown option '--nope'\n" });
  });
});
