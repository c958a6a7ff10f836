/**
 * Worktrees for tiles, on real temporary git repositories with the real git command line: made
 * outside the working tree on a new branch, each refusal a plain message with nothing left behind,
 * and the changes counted and printed exactly as `git diff` shows them.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { changesSince, changesWords, diffText, parseNumstat } from '../../src/worktree/worktree-changes.js';
import { createWorktree, WorktreeError, worktreesFolder } from '../../src/worktree/worktree-create.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const GIT_ENV = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com', GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
const gitIn = (cwd: string, ...args: string[]) => execFileSync('git', ['-C', cwd, ...args], { env: GIT_ENV, encoding: 'utf8' });

/** A repository with one commit (app.ts, README), and a state folder beside it. */
function repository(): { repo: string; state: string } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'belltower-worktree-')));
  folders.push(root);
  const repo = join(root, 'repo');
  mkdirSync(repo);
  gitIn(repo, 'init', '-q', '-b', 'main');
  writeFileSync(join(repo, 'app.ts'), 'export const a = 1;\nexport const b = 2;\n');
  writeFileSync(join(repo, 'README'), 'hello\n');
  gitIn(repo, 'add', '.');
  gitIn(repo, 'commit', '-q', '-m', 'first');
  return { repo, state: join(root, 'state') };
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WorktreeError);
  return (error as Error).message;
}

describe('a worktree for a tile', () => {
  it('is a new branch from HEAD, in belltower\'s folder outside the working tree: the main checkout stays clean', async () => {
    const { repo, state } = repository();
    const head = gitIn(repo, 'rev-parse', 'HEAD').trim();
    const made = await createWorktree({ cwd: repo, hint: 'claude', stateDir: state, env: GIT_ENV });
    expect(made.branch).toBe('belltower/claude');
    expect(made.base).toBe(head);
    expect(made.baseName).toBe('main');
    expect(made.repository).toBe(repo);
    expect(made.path.startsWith(worktreesFolder(state, repo))).toBe(true);
    expect(made.path.startsWith(repo)).toBe(false);
    expect(gitIn(made.path, 'rev-parse', '--abbrev-ref', 'HEAD').trim()).toBe('belltower/claude');
    expect(gitIn(made.path, 'rev-parse', 'HEAD').trim()).toBe(head);
    expect(gitIn(repo, 'worktree', 'list', '--porcelain')).toContain(`worktree ${made.path}\n`);
    expect(gitIn(repo, 'status', '--porcelain')).toBe('');
    // A second tile of the same program gets a branch of its own.
    const second = await createWorktree({ cwd: repo, hint: 'claude', stateDir: state, env: GIT_ENV });
    expect(second.branch).toBe('belltower/claude-2');
    expect(second.path).not.toBe(made.path);
  });

  it('takes a branch name and a base', async () => {
    const { repo, state } = repository();
    const first = gitIn(repo, 'rev-parse', 'HEAD').trim();
    writeFileSync(join(repo, 'README'), 'hello again\n');
    gitIn(repo, 'commit', '-q', '-am', 'second');
    const made = await createWorktree({ cwd: repo, branch: 'feat/login', base: first, stateDir: state, env: GIT_ENV });
    expect(made.branch).toBe('feat/login');
    expect(made.base).toBe(first);
    expect(made.baseName).toBe(first);
    expect(gitIn(made.path, 'rev-parse', 'HEAD').trim()).toBe(first);
  });

  describe('refuses with a plain message, and leaves nothing behind', () => {
    it('outside a git repository', async () => {
      const dir = realpathSync(mkdtempSync(join(tmpdir(), 'belltower-norepo-')));
      folders.push(dir);
      const message = await refusal(createWorktree({ cwd: dir, stateDir: join(dir, 'state'), env: { ...GIT_ENV, GIT_CEILING_DIRECTORIES: tmpdir() } }));
      expect(message).toBe(`${dir} is not in a git repository: a worktree tile needs one (or start it without a worktree); nothing started`);
      expect(existsSync(join(dir, 'state'))).toBe(false);
    });

    it('a branch that already exists', async () => {
      const { repo, state } = repository();
      gitIn(repo, 'branch', 'taken');
      const message = await refusal(createWorktree({ cwd: repo, branch: 'taken', stateDir: state, env: GIT_ENV }));
      expect(message).toBe(`branch taken already exists in ${repo}: name another, or leave the name out for a new one; nothing started`);
      expect(gitIn(repo, 'worktree', 'list', '--porcelain').match(/^worktree /gm)).toHaveLength(1);
    });

    it('a name git does not take as a branch', async () => {
      const { repo, state } = repository();
      expect(await refusal(createWorktree({ cwd: repo, branch: 'no..dots', stateDir: state, env: GIT_ENV }))).toBe('"no..dots" is not a valid branch name; nothing started');
      expect(await refusal(createWorktree({ cwd: repo, branch: '-x', stateDir: state, env: GIT_ENV }))).toBe('"-x" is not a valid branch name; nothing started');
    });

    it('a base that is not a commit, and a repository without one', async () => {
      const { repo, state } = repository();
      expect(await refusal(createWorktree({ cwd: repo, base: 'nope', stateDir: state, env: GIT_ENV }))).toBe(`nope is not a commit in ${repo}; nothing started`);
      const empty = join(repo, '..', 'empty');
      mkdirSync(empty);
      gitIn(empty, 'init', '-q');
      expect(await refusal(createWorktree({ cwd: empty, stateDir: state, env: GIT_ENV }))).toBe(`${empty} has no commit yet: a worktree branches from one; nothing started`);
    });

    it('a lock git cannot take (a stale lock file): no branch, no worktree, no folder', async () => {
      const { repo, state } = repository();
      writeFileSync(join(repo, '.git', 'refs', 'heads', 'locked.lock'), '');
      const message = await refusal(createWorktree({ cwd: repo, branch: 'locked', stateDir: state, env: GIT_ENV }));
      expect(message).toMatch(new RegExp(`^git could not take its lock in ${repo} \\(.*locked\\.lock.*\\): another git may be running there, or it left a stale lock file; nothing started$`));
      expect(gitIn(repo, 'branch', '--list', 'locked')).toBe('');
      expect(gitIn(repo, 'worktree', 'list', '--porcelain').match(/^worktree /gm)).toHaveLength(1);
      expect(readdirSync(worktreesFolder(state, repo))).toEqual([]);
    });

    it('git missing', async () => {
      const { repo, state } = repository();
      const message = await refusal(createWorktree({ cwd: repo, stateDir: state, env: { ...GIT_ENV, PATH: '/nonexistent' } }));
      expect(message).toBe('git is not installed (or not on PATH): a worktree tile needs it; nothing started');
      // Nothing left behind: no branch, no worktree, no folder.
      expect(gitIn(repo, 'branch', '--list').trim().split('\n')).toHaveLength(1);
      expect(gitIn(repo, 'worktree', 'list', '--porcelain').match(/^worktree /gm)).toHaveLength(1);
      expect(existsSync(worktreesFolder(state, repo)) ? readdirSync(worktreesFolder(state, repo)) : []).toEqual([]);
    });
  });
});

describe("a tile's changes against its base", () => {
  /** A worktree where an agent committed one edit, left another uncommitted, added a new file,
   * a binary one and an ignored one. */
  async function worked() {
    const { repo, state } = repository();
    writeFileSync(join(repo, '.gitignore'), 'dist/\n');
    gitIn(repo, 'add', '.gitignore');
    gitIn(repo, 'commit', '-q', '-m', 'ignore dist');
    const made = await createWorktree({ cwd: repo, hint: 'codex', stateDir: state, env: GIT_ENV });
    writeFileSync(join(made.path, 'app.ts'), 'export const a = 1;\nexport const b = 3;\nexport const c = 4;\n');
    gitIn(made.path, 'commit', '-q', '-am', 'agent: b and c');
    writeFileSync(join(made.path, 'README'), 'hello\nmore\n');
    writeFileSync(join(made.path, 'new.ts'), 'one\ntwo\nthree');
    writeFileSync(join(made.path, 'logo.bin'), Buffer.from([1, 0, 2, 3]));
    mkdirSync(join(made.path, 'dist'));
    writeFileSync(join(made.path, 'dist', 'out.js'), 'ignored\n');
    // Something the user staged in the worktree stays as staged.
    gitIn(made.path, 'add', 'README');
    return { repo, made };
  }

  /** What git itself prints once the untracked files are marked intent-to-add (on a copy of the
   * index, the user's own being the thing the code must not touch). */
  function gitOwn(made: { path: string; base: string }, args: string[]): string {
    const copy = mkdtempSync(join(tmpdir(), 'belltower-oracle-'));
    folders.push(copy);
    const env = { ...GIT_ENV, GIT_INDEX_FILE: join(copy, 'oracle-index') };
    execFileSync('cp', [gitIn(made.path, 'rev-parse', '--path-format=absolute', '--git-path', 'index').trim(), env.GIT_INDEX_FILE]);
    execFileSync('git', ['-C', made.path, 'add', '--intent-to-add', '--', '.'], { env });
    return execFileSync('git', ['-C', made.path, ...args], { env, encoding: 'utf8' });
  }

  it('counts committed, uncommitted and untracked changes as git does; ignored files are not changes', async () => {
    const { made } = await worked();
    const changes = await changesSince(made.path, made.base, { env: GIT_ENV });
    const expected = parseNumstat(gitOwn(made, ['diff', '--numstat', '-z', '--no-renames', made.base, '--', '.']));
    expect(changes.files).toEqual(expected);
    expect(changes.files.map((f) => f.path).sort()).toEqual(['README', 'app.ts', 'logo.bin', 'new.ts']);
    expect(changes.files.find((f) => f.path === 'logo.bin')).toEqual({ path: 'logo.bin', added: null, removed: null });
    expect(changes.files.find((f) => f.path === 'new.ts')).toEqual({ path: 'new.ts', added: 3, removed: 0 });
    expect(changesWords(made.branch, changes)).toBe(`belltower/codex +${changes.added} −${changes.removed} · 4 files`);
    expect(changes.added).toBe(2 + 1 + 3);
    expect(changes.removed).toBe(1);
  });

  it('prints exactly what git diff prints, plain and in colour; the index the user staged is untouched', async () => {
    const { made } = await worked();
    const staged = gitIn(made.path, 'diff', '--cached', '--name-only');
    expect(await diffText(made.path, made.base, { env: GIT_ENV })).toBe(gitOwn(made, ['diff', '--no-color', '--no-renames', made.base, '--', '.']));
    expect(await diffText(made.path, made.base, { env: GIT_ENV, color: true })).toBe(gitOwn(made, ['diff', '--color=always', '--no-renames', made.base, '--', '.']));
    expect(gitIn(made.path, 'diff', '--cached', '--name-only')).toBe(staged);
    expect(gitIn(made.path, 'status', '--porcelain')).toContain('?? new.ts');
  });

  it('sees an edit of the same size made in the same second as the commit (git\'s racily clean entries)', async () => {
    const { repo } = repository();
    const head = gitIn(repo, 'rev-parse', 'HEAD').trim();
    writeFileSync(join(repo, 'app.ts'), 'export const a = 9;\nexport const b = 2;\n');
    // Same size, and the file's time made the index's own: git can tell only by its content.
    const indexTime = statSync(join(repo, '.git', 'index')).mtime;
    utimesSync(join(repo, 'app.ts'), indexTime, indexTime);
    expect(gitIn(repo, 'diff', '--numstat', 'HEAD')).toBe('1\t1\tapp.ts\n');
    const changes = await changesSince(repo, head, { env: GIT_ENV });
    expect(changes.files).toEqual([{ path: 'app.ts', added: 1, removed: 1 }]);
    expect(await diffText(repo, head, { env: GIT_ENV })).toContain('+export const a = 9;');
  });

  it('says so when nothing changed', async () => {
    const { repo } = repository();
    const head = gitIn(repo, 'rev-parse', 'HEAD').trim();
    const changes = await changesSince(repo, head, { env: GIT_ENV });
    expect(changesWords('main', changes)).toBe('main no changes');
    expect(await diffText(repo, head, { env: GIT_ENV })).toBe('');
  });
});
