/**
 * Removing a worktree belltower made, and never losing anything the user was not shown:
 * `worktreeLoss` says what removing it would lose — uncommitted changes and the commits of its
 * branch on no other branch — and `removeWorktree` removes it (`git worktree remove`, then
 * `git branch -d` of its branch) only when there is no loss, or when the caller hands back the
 * very loss it showed the user and nothing changed since. The grid's close-a-tile dialog and
 * `belltower worktrees --prune` are its callers.
 *
 * "Nothing changed since" is a key over everything the loss is made of: git's status records,
 * each changed file's content (or, past a budget, its size and times), the branch's commit and its
 * commits on no other branch. An edit made after the loss was read, even one that leaves the file
 * list as it was, makes the confirmation stale, and the removal is refused.
 */
import { createHash, type Hash } from 'node:crypto';
import { constants, lstatSync } from 'node:fs';
import { lstat, open, readlink } from 'node:fs/promises';
import path from 'node:path';
import { canonicalPath } from '../platform/paths.js';
import { git, GitError } from './git-command.js';
import { commitsOnNoOtherBranch, gitEntryProblem, ignoredFiles, recordOf, repositoryOf, uncommitted, worktreeRecords, type WorktreeRecord } from './worktree-facts.js';
import { WorktreeError } from './worktree-create.js';

export interface WorktreeLoss {
  path: string;
  /** The repository's main working tree: where the removal runs. */
  repository: string;
  branch: string | null;
  /** The commit checked out. */
  head: string | null;
  /** Its folder is gone already: removing drops git's record of it (and its branch). */
  missing: boolean;
  /** Tracked files changed and untracked files not ignored: lost with the folder. */
  uncommitted: { count: number; files: string[] };
  /** Commits on no other branch: lost with the branch (or, detached, with the worktree). */
  commits: { count: number; subjects: string[] };
  /** Ignored files (build output, dependencies; a folder of them as one): `git worktree remove`
   * deletes them too. Shown, not confirmed: they are what tools make again. */
  ignored: { count: number; files: string[] };
  /** Equal keys, equal loss: what a confirmation is checked against. */
  key: string;
}

export interface RemoveOptions {
  /** The loss the user was shown and accepted (from worktreeLoss). Needed when there is one. */
  confirmedLoss?: WorktreeLoss;
  /** The repository (any of its checkouts), for a worktree whose folder is gone. */
  repository?: string;
  env?: NodeJS.ProcessEnv;
}

export type RemoveOutcome =
  | {
      removed: true;
      path: string;
      branch: string | null;
      /** The branch was deleted too (false: detached, or git kept it: `branchNote` says why). */
      branchDeleted: boolean;
      branchNote?: string;
    }
  | {
      removed: false;
      /** `unconfirmed`: there is a loss and no confirmation; `changed`: the loss is not the one
       * confirmed; `not-removable`: not a worktree git lists, locked, or the main working tree;
       * `failed`: git said no. Nothing was removed. */
      why: 'unconfirmed' | 'changed' | 'not-removable' | 'failed';
      message: string;
      /** The loss as it is now, when it could be read: to show again. */
      loss: WorktreeLoss | null;
    };

const countWords = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Bytes of changed files read into the key; past this, a file counts by its size and times. */
const CONTENT_BUDGET = 64 * 1024 * 1024;

/** Whether removing loses nothing (ignored files aside). */
export function nothingLost(loss: WorktreeLoss): boolean {
  return loss.uncommitted.count === 0 && loss.commits.count === 0;
}

/** The loss in words: `2 uncommitted files (app.ts, notes.md) and 1 commit on no other branch
 * (a1b2c3d agent: b)`; `nothing` when there is none. */
export function lossWords(loss: WorktreeLoss, shown = 3): string {
  const some = (files: readonly string[], count: number) => `${files.slice(0, shown).join(', ')}${count > shown ? ', …' : ''}`;
  const parts: string[] = [];
  if (loss.uncommitted.count > 0) parts.push(`${countWords(loss.uncommitted.count, 'uncommitted file')} (${some(loss.uncommitted.files, loss.uncommitted.count)})`);
  if (loss.commits.count > 0) parts.push(`${countWords(loss.commits.count, 'commit')} on no other branch (${some(loss.commits.subjects, loss.commits.count)})`);
  return parts.length === 0 ? 'nothing' : parts.join(' and ');
}

interface Located {
  record: WorktreeRecord;
  repository: string;
  /** The folder is there (else only git's record is). */
  present: boolean;
}

/** The worktree at `folder` as git records it, and its repository; WorktreeError when git does
 * not list it as a linked worktree. */
async function locate(folder: string, options: RemoveOptions): Promise<Located> {
  const env = options.env ? { env: options.env } : {};
  let present: boolean;
  try {
    const st = lstatSync(folder);
    if (st.isSymbolicLink()) throw new WorktreeError(`${folder} is a symlink, not a worktree belltower made: not followed, nothing removed`);
    present = true;
  } catch (error) {
    if (error instanceof WorktreeError) throw error;
    present = false;
  }
  const problem = present ? gitEntryProblem(folder) : null;
  if (problem) throw new WorktreeError(`${folder} is not a worktree git knows (${problem}): belltower removes only worktrees git lists; nothing removed`);
  if (!present && !options.repository) throw new WorktreeError(`${folder} is gone, and no repository was named to ask about its record; nothing removed`);
  let records: WorktreeRecord[];
  try {
    records = present ? await worktreeRecords(folder, { ...env, confine: true }) : await worktreeRecords(options.repository as string, env);
  } catch (error) {
    if (error instanceof GitError) throw new WorktreeError(`${folder}: git could not list its worktrees (${error.message}); nothing removed`);
    throw error;
  }
  const record = recordOf(records, folder);
  const repository = repositoryOf(records);
  if (!record || !repository) throw new WorktreeError(`${folder} is not a worktree git lists${present ? '' : ` in ${options.repository}`}: nothing removed`);
  if (record.main) throw new WorktreeError(`${folder} is a repository's main working tree, not a worktree belltower made: nothing removed`);
  return { record, repository, present };
}

/** What removing the worktree at `folder` would lose. Throws WorktreeError (a message to show)
 * when it is not a worktree git lists, or git cannot say. */
export async function worktreeLoss(folder: string, options: Omit<RemoveOptions, 'confirmedLoss'> = {}): Promise<WorktreeLoss> {
  return (await readLoss(folder, options)).loss;
}

async function readLoss(folder: string, options: RemoveOptions): Promise<{ loss: WorktreeLoss; located: Located }> {
  const located = await locate(folder, options);
  const { record, repository, present } = located;
  const env = options.env ? { env: options.env } : {};
  try {
    const changes = present ? await uncommitted(folder, env) : { count: 0, files: [], records: [] };
    const ignored = present ? await ignoredFiles(folder, env) : { count: 0, files: [] };
    const tip = record.branch ? { branch: record.branch } : record.head ? { commit: record.head } : null;
    const commits = tip ? await commitsOnNoOtherBranch(repository, tip, env) : { count: 0, subjects: [], hashes: [] };
    const key = createHash('sha256')
      .update(JSON.stringify({ path: canonicalPath(folder), present, branch: record.branch, head: record.head, status: changes.records, commits: [commits.count, commits.hashes] }))
      .update(present ? await contentKey(folder, changes.records) : '')
      .digest('hex');
    const loss: WorktreeLoss = {
      path: folder,
      repository,
      branch: record.branch,
      head: record.head,
      missing: !present,
      uncommitted: { count: changes.count, files: changes.files },
      commits: { count: commits.count, subjects: commits.subjects },
      ignored,
      key,
    };
    return { loss, located };
  } catch (error) {
    if (error instanceof GitError) throw new WorktreeError(`${folder}: what removing it would lose is not known (${error.message}); nothing removed`);
    throw error;
  }
}

/**
 * The changed files' content, so that an edit after the loss was read — one that leaves git's
 * list as it was — changes the key. Read without following links, and without blocking (the
 * grid's server reads a loss while its tiles run); past CONTENT_BUDGET bytes a file counts by its
 * size and times (an edit changes its ctime, which no program can set back).
 */
async function contentKey(folder: string, records: readonly string[]): Promise<string> {
  const hash = createHash('sha256');
  let budget = CONTENT_BUDGET;
  for (const record of records) {
    const file = path.join(folder, record.slice(3));
    hash.update(`\0${record}\0`);
    const st = await lstat(file, { bigint: true }).catch(() => null);
    if (st === null) hash.update('gone');
    else if (st.isSymbolicLink()) hash.update(`link:${await readlink(file).catch(() => '?')}`);
    else if (st.isFile() && st.size <= BigInt(budget)) {
      budget -= Number(st.size);
      hash.update(`file:${st.mode}:`);
      await hashFile(file, hash);
    } else hash.update(`stat:${st.mode}:${st.size}:${st.mtimeNs}:${st.ctimeNs}:${st.ino}`);
  }
  return hash.digest('hex');
}

async function hashFile(file: string, hash: Hash): Promise<void> {
  let handle;
  try {
    handle = await open(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch {
    hash.update('unreadable');
    return;
  }
  try {
    const chunk = Buffer.allocUnsafe(1024 * 1024);
    for (;;) {
      const { bytesRead } = await handle.read(chunk, 0, chunk.length);
      if (bytesRead === 0) break;
      hash.update(chunk.subarray(0, bytesRead));
    }
  } finally {
    await handle.close();
  }
}

/**
 * Removes the worktree at `folder` and then its branch. With no loss, no confirmation is needed.
 * With one, `confirmedLoss` must be the loss the user was shown and it must still be the loss
 * now: then `--force` for its uncommitted changes, `git branch -D` for its commits. Anything else
 * is refused with nothing removed. Never throws for what git or the folder says: the outcome does.
 */
export async function removeWorktree(folder: string, options: RemoveOptions = {}): Promise<RemoveOutcome> {
  let read;
  try {
    read = await readLoss(folder, options);
  } catch (error) {
    if (error instanceof WorktreeError) return { removed: false, why: 'not-removable', message: error.message, loss: null };
    throw error;
  }
  const { loss, located } = read;
  const confirmed = options.confirmedLoss;
  if (confirmed === undefined && !nothingLost(loss)) {
    return { removed: false, why: 'unconfirmed', message: `removing ${folder} would lose ${lossWords(loss)}: it is removed only once that loss is confirmed; nothing removed`, loss };
  }
  if (confirmed !== undefined && confirmed.key !== loss.key) {
    return { removed: false, why: 'changed', message: `${folder} changed since what removing it would lose was read (now: ${lossWords(loss)}): look again, and confirm what it would lose now; nothing removed`, loss };
  }
  if (located.record.locked !== null) {
    const reason = located.record.locked ? ` (${located.record.locked})` : '';
    return { removed: false, why: 'not-removable', message: `${folder} is locked${reason}: git worktree unlock it first; nothing removed`, loss };
  }

  const env = options.env ? { env: options.env } : {};
  try {
    // A folder that is gone: git drops only this worktree's record (never `git worktree prune`,
    // which would drop the records of every worktree of the repository whose folder is away —
    // one on an unmounted disk included).
    await git(['worktree', 'remove', ...(loss.uncommitted.count > 0 ? ['--force'] : []), '--', folder], { cwd: loss.repository, ...env });
  } catch (error) {
    if (!(error instanceof GitError)) throw error;
    return { removed: false, why: 'failed', message: `git could not remove ${folder}: ${error.message}`, loss };
  }
  const branch = loss.branch;
  if (branch === null) return { removed: true, path: folder, branch: null, branchDeleted: false, branchNote: 'it had no branch checked out (detached HEAD)' };
  return { removed: true, path: folder, branch, ...(await deleteBranch({ ...loss, branch }, env)) };
}

/** `git branch -d`, or `-D` when the confirmed loss holds the branch's commits. git's `-d` also
 * refuses a branch whose commits are all on other branches but not merged into HEAD: nothing of it
 * would be lost, which is checked again just before `-D` is used for it. */
async function deleteBranch(loss: WorktreeLoss & { branch: string }, env: { env?: NodeJS.ProcessEnv }): Promise<{ branchDeleted: boolean; branchNote?: string }> {
  const run = (flag: '-d' | '-D') => git(['branch', flag, '--', loss.branch], { cwd: loss.repository, ...env });
  const kept = (error: GitError) => ({ branchDeleted: false, branchNote: `the worktree is gone, but its branch ${loss.branch} is kept: ${error.message}` });
  try {
    await run(loss.commits.count > 0 ? '-D' : '-d');
    return { branchDeleted: true };
  } catch (error) {
    if (!(error instanceof GitError)) throw error;
    if (loss.commits.count > 0 || !/not fully merged/i.test(error.stderr)) return kept(error);
    try {
      const again = await commitsOnNoOtherBranch(loss.repository, { branch: loss.branch }, env);
      if (again.count > 0) return kept(error);
      await run('-D');
      return { branchDeleted: true };
    } catch (second) {
      if (second instanceof GitError) return kept(second);
      throw second;
    }
  }
}
