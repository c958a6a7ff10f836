/**
 * What a folder changed against a base commit, exactly as git shows it: committed and uncommitted
 * edits of tracked files and the files git does not track yet but would (untracked, not
 * ignored) — `git diff BASE` as it would print after `git add --intent-to-add` of those files.
 * That is done on a copy of the index, so the user's own index (what they staged) is never
 * touched and nothing is written into the repository. The header's `+120 −8 · 4 files` and the
 * review are the same diff, counted or printed.
 */
import { copyFile, mkdtemp, rm, stat, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { git, GitError, type GitOptions } from './git-command.js';

export interface FileChange {
  path: string;
  /** Lines added and removed; null for a binary file (git's `-`). */
  added: number | null;
  removed: number | null;
}

export interface Changes {
  files: FileChange[];
  added: number;
  removed: number;
}

/** The most a diff may print before it is refused (an agent that wrote a huge file git does not
 * ignore must not fill belltower's memory). */
export const MAX_DIFF_BYTES = 32 * 1024 * 1024;

export interface ChangesOptions {
  env?: NodeJS.ProcessEnv;
}

/** `git diff --numstat -z`'s records: `added\tremoved\tpath\0` (renames are off). */
export function parseNumstat(text: string): FileChange[] {
  return text
    .split('\0')
    .filter((record) => record !== '')
    .map((record) => {
      const [added = '', removed = '', ...name] = record.split('\t');
      return { path: name.join('\t'), added: added === '-' ? null : Number(added), removed: removed === '-' ? null : Number(removed) };
    });
}

/** Where the index of `cwd`'s repository (or worktree) is. */
async function indexOf(cwd: string, options: ChangesOptions): Promise<string> {
  return (await git(['rev-parse', '--path-format=absolute', '--git-path', 'index'], { cwd, ...(options.env ? { env: options.env } : {}) })).stdout.trim();
}

/**
 * Run `args` (a `git diff …`) in `cwd` with the untracked files marked intent-to-add, on a private
 * copy of the index (at `indexPath`) that is removed afterwards. Every file operation is
 * asynchronous: a large repository's index is megabytes, and this runs beside the grid.
 */
async function withUntrackedShown(cwd: string, indexPath: string, options: ChangesOptions, args: readonly string[], extra: Partial<GitOptions> = {}): Promise<string> {
  const env = options.env ? { env: options.env } : {};
  const dir = await mkdtemp(path.join(tmpdir(), 'belltower-index-'));
  const index = path.join(dir, 'index');
  try {
    const times = await stat(indexPath).catch(() => null);
    if (times) {
      await copyFile(indexPath, index);
      // The copy keeps the index's own time: git takes an entry whose file changed in the same
      // second as the index was written as "racily clean" and compares its content; with the
      // copy's newer time it would trust the equal size and time, and miss the edit.
      await utimes(index, times.atime, times.mtime);
    }
    const own = { cwd, ...env, indexFile: index };
    await git(['add', '--intent-to-add', '--ignore-errors', '--', '.'], own);
    return (await git(args, { ...own, maxBytes: MAX_DIFF_BYTES, ...extra })).stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function changesSince(cwd: string, base: string, options: ChangesOptions = {}, indexPath?: string): Promise<Changes> {
  const index = indexPath ?? (await indexOf(cwd, options));
  const files = parseNumstat(await withUntrackedShown(cwd, index, options, ['diff', '--numstat', '-z', '--no-renames', base, '--', '.']));
  const sum = (pick: (f: FileChange) => number | null) => files.reduce((total, f) => total + (pick(f) ?? 0), 0);
  return { files, added: sum((f) => f.added), removed: sum((f) => f.removed) };
}

/** What a tile's header shows of its folder: the branch and the counts against the base. */
export interface ChangesSummary {
  /** The branch checked out (null: a detached HEAD). */
  branch: string | null;
  added: number;
  removed: number;
  files: number;
}

/**
 * The changes of `cwd` against `base`, with its branch (`branch` when known, else asked of git);
 * null when `cwd` is not in a git repository (or git is not installed): there is nothing to count.
 */
export async function countChanges(cwd: string, base: string, branch: string | null, options: ChangesOptions = {}): Promise<ChangesSummary | null> {
  const env = options.env ? { env: options.env } : {};
  // One rev-parse says where the index is and, when it is not known, the branch: three git runs a
  // count, not four (each a process started beside the grid).
  const asked = await git(['rev-parse', '--path-format=absolute', '--git-path', 'index', ...(branch === null ? ['--abbrev-ref', 'HEAD'] : [])], { cwd, ...env, okStatuses: [128] }).catch(notARepository);
  if (asked === undefined || asked.status !== 0) return null;
  const [indexPath = '', head = ''] = asked.stdout.split('\n').map((line) => line.trim());
  const named = branch ?? head;
  const changes = await changesSince(cwd, base, options, indexPath);
  return { branch: named === '' || named === 'HEAD' ? null : named, added: changes.added, removed: changes.removed, files: changes.files.length };
}

/** git missing or failing in a folder is "no repository to count": the header shows nothing. */
function notARepository(error: unknown): undefined {
  if (error instanceof GitError) return undefined;
  throw error;
}

/** `feat-login +120 −8 · 4 files`: the header's words for a branch and its changes. */
export function changesWords(branch: string | null, changes: Pick<Changes, 'added' | 'removed'> & { files: readonly FileChange[] | number }): string {
  const count = typeof changes.files === 'number' ? changes.files : changes.files.length;
  const stat = count === 0 ? 'no changes' : `+${changes.added} −${changes.removed} · ${count} ${count === 1 ? 'file' : 'files'}`;
  return branch ? `${branch} ${stat}` : stat;
}

/** The changes hunk by hunk, as `git diff BASE` prints them; `color`: git's own colours (for a
 * terminal), else plain text. */
export async function diffText(cwd: string, base: string, options: ChangesOptions & { color?: boolean } = {}): Promise<string> {
  return withUntrackedShown(cwd, await indexOf(cwd, options), options, ['diff', options.color ? '--color=always' : '--no-color', '--no-renames', base, '--', '.']);
}

/** What to tell the user when counting or printing `tile`'s changes in `cwd` failed with `error`
 * (a GitError); null for anything else (a bug, not the user's to act on). */
export function changesProblem(error: unknown, tile: string, cwd: string): string | null {
  if (!(error instanceof GitError)) return null;
  if (error.reason === 'failed' && /not a git repository/i.test(error.stderr)) return `${tile}'s folder ${cwd} is not in a git repository: there is nothing to diff`;
  if (error.reason === 'too-much-output') return `${tile}: its diff is larger than ${MAX_DIFF_BYTES / 1024 / 1024} MiB: look at it with git itself`;
  return `${tile}: ${error.message}`;
}
