/**
 * What a folder changed against a base commit, exactly as git shows it: committed and uncommitted
 * edits of tracked files and the files git does not track yet but would (untracked, not
 * ignored) — `git diff BASE` as it would print after `git add --intent-to-add` of those files.
 * That is done on a copy of the index, so the user's own index (what they staged) is never
 * touched and nothing is written into the repository. The header's `+120 −8 · 4 files` and the
 * review are the same diff, counted or printed.
 */
import { constants } from 'node:fs';
import { copyFile, mkdtemp, open, rm, stat, utimes } from 'node:fs/promises';
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

/** Where a folder's repository keeps what a count reads: its index and its HEAD (a linked
 * worktree's own), as absolute paths; they stay where they are while the repository does. */
export interface RepositoryFiles {
  index: string;
  head: string;
}

/**
 * The changes of `cwd` against `base`, with its branch (`branch` when known, else asked of git);
 * null when `cwd` is not in a git repository (or git is not installed): there is nothing to count.
 */
export async function countChanges(cwd: string, base: string, branch: string | null, options: ChangesOptions = {}): Promise<ChangesSummary | null> {
  return (await countChangesIn(cwd, base, branch, options))?.summary ?? null;
}

/**
 * `countChanges`, and where the repository's files are. `known`: those files from an earlier
 * count of the same folder: the branch is then read from the HEAD file and git runs twice a
 * count, not three times (each a process started beside the grid, and starting one blocks the
 * grid's thread for milliseconds).
 */
export async function countChangesIn(
  cwd: string,
  base: string,
  branch: string | null,
  options: ChangesOptions = {},
  known?: RepositoryFiles,
): Promise<{ summary: ChangesSummary; repository: RepositoryFiles } | null> {
  const env = options.env ? { env: options.env } : {};
  // An index that is not where it was (the repository moved or went) is asked of git again: a
  // count without it would take every tracked file for a new one.
  let repository = known && (await stat(known.index).then(() => true, () => false)) ? known : undefined;
  let named: string | null | undefined = branch ?? (repository ? await branchInHead(repository.head) : undefined);
  if (repository === undefined || named === undefined) {
    // One rev-parse says where the index and HEAD are and, when it is not known, the branch (an
    // unborn branch fails it: nothing to count yet).
    const asked = await git(['rev-parse', '--path-format=absolute', '--git-path', 'index', '--git-path', 'HEAD', ...(branch === null ? ['--abbrev-ref', 'HEAD'] : [])], { cwd, ...env, okStatuses: [128] }).catch(notARepository);
    if (asked === undefined || asked.status !== 0) return null;
    const [index = '', head = '', abbreviated = ''] = asked.stdout.split('\n').map((line) => line.trim());
    repository = { index, head };
    named = branch ?? (abbreviated === '' || abbreviated === 'HEAD' ? null : abbreviated);
  }
  const changes = await changesSince(cwd, base, options, repository.index);
  return { summary: { branch: named, added: changes.added, removed: changes.removed, files: changes.files.length }, repository };
}

/** What HEAD names, read from its file: a branch (`ref: refs/heads/NAME`), null for a detached
 * HEAD (a commit id); undefined for anything else (another ref, a link, no such file): git is
 * asked then. Read without following a link, at most a few hundred bytes. */
export async function branchInHead(headPath: string): Promise<string | null | undefined> {
  let text: string;
  try {
    const file = await open(headPath, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    try {
      if (!(await file.stat()).isFile()) return undefined;
      const buffer = Buffer.alloc(512);
      const { bytesRead } = await file.read(buffer, 0, buffer.length, 0);
      if (bytesRead === buffer.length) return undefined; // longer than any HEAD git writes for a branch it names briefly
      text = buffer.toString('utf8', 0, bytesRead);
    } finally {
      await file.close();
    }
  } catch {
    return undefined;
  }
  const ref = /^ref: refs\/heads\/([^\s]+)\s*$/.exec(text);
  if (ref) return ref[1]!;
  return /^([0-9a-f]{40}|[0-9a-f]{64})\s*$/.test(text) ? null : undefined;
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
