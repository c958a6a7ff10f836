/**
 * What git says of one worktree: its record in the repository's worktree list, what is
 * uncommitted in it, and the commits of its branch that are on no other branch. The inventory
 * (what is there) and the removal (what removing it would lose) read these same facts the same
 * way, so what `belltower worktrees` calls clean is what removal finds clean.
 *
 * Everything is asked of git's command line (`git-command.ts`: bounded in time and output).
 * Before git runs inside a folder belltower only found on disk, the folder must hold its own
 * `.git` (not a symlink), and git is kept from looking above it: a folder that is no worktree
 * must never be answered for by whatever repository happens to hold the state folder.
 */
import { lstatSync } from 'node:fs';
import path from 'node:path';
import { canonicalPath } from '../platform/paths.js';
import { git, GitError } from './git-command.js';

/** One entry of `git worktree list --porcelain`. */
export interface WorktreeRecord {
  path: string;
  /** The commit checked out (null: a bare repository's entry, or none yet). */
  head: string | null;
  /** The branch checked out, without `refs/heads/` (null: detached, or bare). */
  branch: string | null;
  bare: boolean;
  /** `git worktree lock`ed: the reason given ('' for none); null when not locked. */
  locked: string | null;
  /** git's word for a record whose folder is gone (`prunable …`); null otherwise. */
  prunable: string | null;
  /** The first record: the repository's main working tree (or the bare repository). */
  main: boolean;
}

/** What is uncommitted in a worktree: tracked files changed (staged or not) and untracked files
 * git does not ignore, as `git status` lists them. */
export interface Uncommitted {
  count: number;
  /** The first MAX_LISTED paths (`count` may be more). */
  files: string[];
  /** Every `git status --porcelain -z` record (`XY path`): what the loss's key is made of. */
  records: string[];
}

/** Commits of a branch (or a detached HEAD) reachable from no other local branch: what deleting
 * the branch would lose. */
export interface UniqueCommits {
  count: number;
  /** `abbreviated-hash subject` of the newest MAX_SUBJECTS. */
  subjects: string[];
  /** Their full hashes, newest first (as many as `subjects`). */
  hashes: string[];
}

/** Paths kept in a list meant for people (a count says how many more). */
export const MAX_LISTED = 50;
/** Subjects kept of the commits on no other branch. */
export const MAX_SUBJECTS = 5;
/** The most `git status` may print: more is an answer belltower cannot list, not a loss to guess. */
const MAX_STATUS_BYTES = 8 * 1024 * 1024;
const MAX_LIST_BYTES = 1024 * 1024;

export interface FactOptions {
  env?: NodeJS.ProcessEnv;
}

/** `git worktree list --porcelain` (`-z`: NUL-separated; else lines), blank-line-separated
 * records, the main working tree first. */
export function parseWorktreeList(text: string, nul: boolean): WorktreeRecord[] {
  const sep = nul ? '\0' : '\n';
  const records: WorktreeRecord[] = [];
  let current: WorktreeRecord | null = null;
  for (const line of text.split(sep)) {
    if (line === '') {
      current = null;
      continue;
    }
    const space = line.indexOf(' ');
    const word = space < 0 ? line : line.slice(0, space);
    const rest = space < 0 ? '' : line.slice(space + 1);
    if (word === 'worktree') {
      current = { path: rest, head: null, branch: null, bare: false, locked: null, prunable: null, main: records.length === 0 };
      records.push(current);
      continue;
    }
    if (!current) continue;
    if (word === 'HEAD') current.head = rest;
    else if (word === 'branch') current.branch = rest.startsWith('refs/heads/') ? rest.slice('refs/heads/'.length) : rest;
    else if (word === 'bare') current.bare = true;
    else if (word === 'locked') current.locked = rest;
    else if (word === 'prunable') current.prunable = rest || 'prunable';
  }
  return records;
}

/** The environment git runs with inside `folder`: never looking above it for a repository. */
export function confinedEnv(folder: string, env: NodeJS.ProcessEnv | undefined): NodeJS.ProcessEnv {
  return { ...(env ?? process.env), GIT_CEILING_DIRECTORIES: path.dirname(canonicalPath(folder)) };
}

/** Why git must not be asked inside `folder` as a worktree (no `.git` of its own, or a `.git`
 * that is a symlink belltower did not make); null when it may. */
export function gitEntryProblem(folder: string): string | null {
  let entry;
  try {
    entry = lstatSync(path.join(folder, '.git'));
  } catch {
    return 'it has no .git: git does not know it as a worktree';
  }
  if (entry.isSymbolicLink()) return 'its .git is a symlink (not followed)';
  return null;
}

/** The worktree records of the repository `cwd` is in (`confine`: `cwd` is a worktree's folder
 * found on disk, and git must not look above it). */
export async function worktreeRecords(cwd: string, options: FactOptions & { confine?: boolean } = {}): Promise<WorktreeRecord[]> {
  const env = options.confine ? confinedEnv(cwd, options.env) : options.env;
  const run = (args: string[]) => git(args, { cwd, ...(env ? { env } : {}), maxBytes: MAX_LIST_BYTES });
  try {
    return parseWorktreeList((await run(['worktree', 'list', '--porcelain', '-z'])).stdout, true);
  } catch (error) {
    // `-z` came with git 2.36; an older git lists the same records one per line.
    if (error instanceof GitError && error.reason === 'failed' && /unknown switch|usage:/i.test(error.stderr)) {
      return parseWorktreeList((await run(['worktree', 'list', '--porcelain'])).stdout, false);
    }
    throw error;
  }
}

/** The record of the worktree at `folder` among `records` (compared canonically), if any. */
export function recordOf(records: readonly WorktreeRecord[], folder: string): WorktreeRecord | undefined {
  const wanted = canonicalPath(folder);
  return records.find((record) => record.path === folder || canonicalPath(record.path) === wanted);
}

/** What is uncommitted in the worktree at `folder` (git confined to it). */
export async function uncommitted(folder: string, options: FactOptions = {}): Promise<Uncommitted> {
  const { stdout } = await git(['status', '--porcelain=v1', '-z', '--no-renames', '--untracked-files=all', '--ignore-submodules=none'], {
    cwd: folder,
    env: confinedEnv(folder, options.env),
    maxBytes: MAX_STATUS_BYTES,
  });
  const records = stdout.split('\0').filter((record) => record !== '');
  return { count: records.length, files: records.slice(0, MAX_LISTED).map((record) => record.slice(3)), records };
}

/** The ignored files of the worktree at `folder`, a folder of them as one entry (`git worktree
 * remove` deletes them with it, unasked). */
export async function ignoredFiles(folder: string, options: FactOptions = {}): Promise<{ count: number; files: string[] }> {
  const { stdout } = await git(['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory'], {
    cwd: folder,
    env: confinedEnv(folder, options.env),
    maxBytes: MAX_STATUS_BYTES,
  });
  const files = stdout.split('\0').filter((file) => file !== '');
  return { count: files.length, files: files.slice(0, MAX_LISTED) };
}

/**
 * The commits of `tip` — a branch, or a commit when HEAD is detached — that no other local branch
 * reaches, asked in the repository at `cwd`: a branch's own name is left out of `--branches`
 * (branch names cannot hold glob characters, so the pattern is the name itself).
 */
export async function commitsOnNoOtherBranch(cwd: string, tip: { branch: string } | { commit: string }, options: FactOptions = {}): Promise<UniqueCommits> {
  const range = 'branch' in tip ? [`refs/heads/${tip.branch}`, '--not', `--exclude=${tip.branch}`, '--branches'] : [tip.commit, '--not', '--branches'];
  const env = options.env ? { env: options.env } : {};
  const counted = await git(['rev-list', '--count', ...range, '--'], { cwd, ...env, maxBytes: 1024 });
  const count = Number(counted.stdout.trim());
  // A count that is no number is no answer: never taken as "nothing would be lost".
  if (counted.stdout.trim() === '' || !Number.isInteger(count) || count < 0) throw new GitError(`git rev-list printed no count (${JSON.stringify(counted.stdout.slice(0, 40))})`, 'failed');
  if (count === 0) return { count, subjects: [], hashes: [] };
  const logged = await git(['log', '--no-color', '--no-show-signature', `--max-count=${MAX_SUBJECTS}`, '--format=%H%x1f%h %s', ...range, '--'], { cwd, ...env, maxBytes: 64 * 1024 });
  const lines = logged.stdout.split('\n').filter((line) => line !== '');
  return {
    count,
    hashes: lines.map((line) => line.split('\x1f')[0] ?? ''),
    subjects: lines.map((line) => line.slice(line.indexOf('\x1f') + 1)),
  };
}

/** The folder git commands about the whole repository run in: its main working tree, or the bare
 * repository itself (never the worktree being looked at or removed). */
export function repositoryOf(records: readonly WorktreeRecord[]): string | null {
  return records.find((record) => record.main)?.path ?? null;
}
