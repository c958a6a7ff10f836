/**
 * The worktrees belltower made: every folder under `<state>/worktrees/<repository>-<hash>/`
 * (worktree-create.ts), each as git sees it — its branch and repository, whether anything is
 * uncommitted in it, how many of its commits are on no other branch — and the worktrees git still
 * records there whose folders are gone.
 *
 * The folders are found on disk, never through a symlink: belltower makes none there, so a link
 * is reported as a link and not followed (a link planted there must not make belltower read, or
 * later remove, whatever it points at). What is read is bounded: so many repository folders, so
 * many worktrees in each, so many git runs at a time; git's own time and output are bounded by
 * git-command.ts.
 */
import { lstatSync, opendirSync } from 'node:fs';
import path from 'node:path';
import { canonicalPath } from '../platform/paths.js';
import { GitError } from './git-command.js';
import { WorktreeError } from './worktree-create.js';
import { commitsOnNoOtherBranch, gitEntryProblem, recordOf, repositoryOf, uncommitted, worktreeRecords, type WorktreeRecord } from './worktree-facts.js';

export type WorktreeState =
  /** A worktree git knows, its folder there. */
  | 'worktree'
  /** git records a worktree there, but its folder is gone (deleted by hand). */
  | 'missing'
  /** A folder there that git does not know as a worktree (any more), or that cannot be read. */
  | 'stale'
  /** A symlink there: belltower made none, so it is not followed. */
  | 'link'
  /** A file or something else that is no folder. */
  | 'not-a-folder';

export interface WorktreeEntry {
  path: string;
  state: WorktreeState;
  /** The branch checked out (null: detached, or not known). */
  branch: string | null;
  /** The repository's main working tree (null: not known). */
  repository: string | null;
  /** The commit checked out (null: not known). */
  head: string | null;
  /** `git worktree lock`ed (git then refuses to remove it). */
  locked: boolean;
  /** Uncommitted changes; null when not known (missing, stale, or git could not say). */
  uncommitted: { count: number; files: string[] } | null;
  /** Commits on no other branch; null when not known. */
  commits: { count: number; subjects: string[] } | null;
  /** Why it is stale, where a link points, or what git could not answer. */
  note?: string;
}

export interface Inventory {
  /** `<state>/worktrees`. */
  root: string;
  worktrees: WorktreeEntry[];
  /** More folders than the bounds let be read: only the first are listed. */
  truncated: boolean;
}

export interface InventoryOptions {
  stateDir: string;
  /** More repositories to ask for worktrees whose folders are gone (a repository none of whose
   * worktrees is left on disk can be found no other way: the folder's name holds a hash). */
  repositories?: readonly string[];
  env?: NodeJS.ProcessEnv;
  /** The most entries read in all (default 1024) — and in any one folder. */
  maxEntries?: number;
}

const DEFAULT_MAX_ENTRIES = 1024;
/** git runs at a time: enough to list quickly, few enough to leave the machine to its agents. */
const PARALLEL = 4;

/** Where belltower's worktrees are: `<state>/worktrees` (worktreesFolder's parent). */
export function worktreesRoot(stateDir: string): string {
  return path.join(stateDir, 'worktrees');
}

/** Every worktree belltower made, and what else is in its folders. Throws WorktreeError when git
 * is not installed; anything git cannot say of one worktree is said in its entry. */
export async function listWorktrees(options: InventoryOptions): Promise<Inventory> {
  const root = worktreesRoot(options.stateDir);
  const max = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
  const found = scan(root, max);
  const facts = options.env ? { env: options.env } : {};

  const described = await inTurn(found.folders, PARALLEL, (folder) => describe(folder, facts));
  const entries = [...found.others, ...described.map((d) => d.entry)];

  // Worktrees git records under the root whose folders are gone: asked of every repository one of
  // them led to, and of the repositories the caller named.
  const byRepository = new Map<string, WorktreeRecord[]>();
  for (const { records } of described) {
    const repository = records && repositoryOf(records);
    if (records && repository) byRepository.set(canonicalPath(repository), records);
  }
  for (const hint of options.repositories ?? []) {
    if (byRepository.size >= max) break;
    const records = await worktreeRecords(hint, facts).catch(() => null); // a hint that is gone is no answer
    const repository = records && repositoryOf(records);
    if (records && repository && !byRepository.has(canonicalPath(repository))) byRepository.set(canonicalPath(repository), records);
  }
  const listed = new Set(entries.map((entry) => canonicalPath(entry.path)));
  const gone: { record: WorktreeRecord; repository: string }[] = [];
  for (const [repository, records] of byRepository) {
    for (const record of records) {
      if (record.main || !inside(root, record.path) || listed.has(canonicalPath(record.path)) || exists(record.path)) continue;
      listed.add(canonicalPath(record.path));
      gone.push({ record, repository });
    }
  }
  let truncated = found.truncated;
  if (entries.length + gone.length > max) {
    truncated = true;
    gone.length = Math.max(0, max - entries.length);
  }
  entries.push(...(await inTurn(gone, PARALLEL, ({ record, repository }) => describeMissing(record, repository, facts))));
  entries.sort((a, b) => a.path.localeCompare(b.path));
  return { root, worktrees: entries, truncated };
}

/** The folders under the root (`<root>/<repository>-<hash>/<branch>`), lstat'ed all the way:
 * what is not a folder becomes an entry of its own. */
function scan(root: string, max: number): { folders: string[]; others: WorktreeEntry[]; truncated: boolean } {
  const folders: string[] = [];
  const others: WorktreeEntry[] = [];
  let truncated = false;
  const rootKind = kindOf(root);
  if (rootKind === null) return { folders, others, truncated };
  if (rootKind !== 'folder') return { folders, others: [other(root, rootKind)], truncated };
  const room = () => max - folders.length - others.length;
  const outer = readNames(root, room());
  truncated ||= outer.truncated;
  // A folder that cannot be read hides what is in it: said, never taken as empty.
  if (outer.unreadable) others.push({ ...unknown(root, 'stale'), note: outer.unreadable });
  for (const name of outer.names) {
    const repositoryFolder = path.join(root, name);
    const kind = kindOf(repositoryFolder);
    if (kind === null) continue;
    if (kind !== 'folder') {
      if (room() <= 0) truncated = true;
      else others.push(other(repositoryFolder, kind));
      continue;
    }
    const inner = readNames(repositoryFolder, room());
    truncated ||= inner.truncated;
    if (inner.unreadable) others.push({ ...unknown(repositoryFolder, 'stale'), note: inner.unreadable });
    for (const child of inner.names) {
      const folder = path.join(repositoryFolder, child);
      const childKind = kindOf(folder);
      if (childKind === 'folder') folders.push(folder);
      else if (childKind !== null) others.push(other(folder, childKind));
    }
  }
  return { folders, others, truncated };
}

type Kind = 'folder' | 'link' | 'not-a-folder';

/** What is at `p`, without following a link; null when nothing is (gone meanwhile). */
function kindOf(p: string): Kind | null {
  try {
    const st = lstatSync(p);
    return st.isSymbolicLink() ? 'link' : st.isDirectory() ? 'folder' : 'not-a-folder';
  } catch {
    return null;
  }
}

function other(p: string, kind: 'link' | 'not-a-folder'): WorktreeEntry {
  return { ...unknown(p, kind), note: kind === 'link' ? 'a symlink belltower did not make (not followed)' : 'not a folder' };
}

function unknown(p: string, state: WorktreeState): WorktreeEntry {
  return { path: p, state, branch: null, repository: null, head: null, locked: false, uncommitted: null, commits: null };
}

/** At most `max` names in `dir`, read one by one (a folder of millions is not read whole);
 * `unreadable`: why it could not be read at all. */
function readNames(dir: string, max: number): { names: string[]; truncated: boolean; unreadable?: string } {
  const names: string[] = [];
  let handle;
  try {
    handle = opendirSync(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? { names, truncated: false } : { names, truncated: false, unreadable: `it cannot be read (${code ?? String(error)})` };
  }
  try {
    for (let entry = handle.readSync(); entry !== null; entry = handle.readSync()) {
      if (names.length >= max) return { names: names.sort(), truncated: true };
      names.push(entry.name);
    }
  } finally {
    handle.closeSync();
  }
  return { names: names.sort(), truncated: false };
}

/** One folder found on disk, as git sees it; with its repository's records (for the missing). */
async function describe(folder: string, facts: { env?: NodeJS.ProcessEnv }): Promise<{ entry: WorktreeEntry; records: WorktreeRecord[] | null }> {
  const problem = gitEntryProblem(folder);
  if (problem) return { entry: { ...unknown(folder, 'stale'), note: problem }, records: null };
  let records: WorktreeRecord[];
  try {
    records = await worktreeRecords(folder, { ...facts, confine: true });
  } catch (error) {
    if (!(error instanceof GitError)) throw error;
    if (error.reason === 'missing') throw new WorktreeError('git is not installed (or not on PATH): the worktrees belltower made are git\'s to describe');
    // Only git's "no" makes it stale; a run that timed out or printed too much says nothing of it.
    if (error.reason !== 'failed') return { entry: { ...unknown(folder, 'worktree'), note: `git could not say what it is: ${error.message}` }, records: null };
    return { entry: { ...unknown(folder, 'stale'), note: `git no longer knows it as a worktree (${firstLine(error.stderr) || error.message})` }, records: null };
  }
  const record = recordOf(records, folder);
  const repository = repositoryOf(records);
  if (!record || record.main) {
    const note = record ? 'a repository of its own, not a worktree' : 'its repository does not list it as a worktree (it was moved, or its record removed)';
    return { entry: { ...unknown(folder, 'stale'), repository, note }, records };
  }
  const entry: WorktreeEntry = { path: folder, state: 'worktree', branch: record.branch, repository, head: record.head, locked: record.locked !== null, uncommitted: null, commits: null };
  const problems: string[] = [];
  try {
    const changes = await uncommitted(folder, facts);
    entry.uncommitted = { count: changes.count, files: changes.files };
  } catch (error) {
    if (!(error instanceof GitError)) throw error;
    problems.push(`its uncommitted changes are not known: ${error.message}`);
  }
  entry.commits = await ownCommits(folder, record, facts, problems);
  if (problems.length > 0) entry.note = problems.join('; ');
  return { entry, records };
}

/** A worktree git records whose folder is gone: nothing uncommitted survives; its branch may
 * still hold commits on no other branch. */
async function describeMissing(record: WorktreeRecord, repository: string, facts: { env?: NodeJS.ProcessEnv }): Promise<WorktreeEntry> {
  const problems: string[] = [];
  const commits = await ownCommits(repository, record, facts, problems);
  return {
    path: record.path,
    state: 'missing',
    branch: record.branch,
    repository,
    head: record.head,
    locked: record.locked !== null,
    uncommitted: null,
    commits,
    note: ['its folder is gone', ...problems].join('; '),
  };
}

async function ownCommits(cwd: string, record: WorktreeRecord, facts: { env?: NodeJS.ProcessEnv }, problems: string[]): Promise<WorktreeEntry['commits']> {
  const tip = record.branch ? { branch: record.branch } : record.head ? { commit: record.head } : null;
  if (!tip) {
    problems.push('it has no commit checked out');
    return null;
  }
  try {
    const unique = await commitsOnNoOtherBranch(cwd, tip, facts);
    return { count: unique.count, subjects: unique.subjects };
  } catch (error) {
    if (!(error instanceof GitError)) throw error;
    problems.push(`its commits on no other branch are not known: ${error.message}`);
    return null;
  }
}

/**
 * Why `entry` must not be pruned by its own facts (in use by a tile is the caller's to add), or
 * null: a worktree, or a missing one, with nothing uncommitted and no commit on no other branch,
 * not locked. Anything not known keeps it.
 */
export function whyKept(entry: WorktreeEntry): string | null {
  if (entry.state === 'link') return 'a symlink belltower did not make: not followed, not removed';
  if (entry.state === 'not-a-folder') return 'not a folder belltower made: not removed';
  if (entry.state === 'stale') return `${entry.note ?? 'git does not know it'}: belltower removes only worktrees git lists; look inside, and delete it yourself if nothing in it matters`;
  if (entry.locked) return `locked (git worktree unlock ${entry.path} first)`;
  if (entry.commits === null) return `its commits on no other branch are not known${entry.note ? ` (${entry.note})` : ''}`;
  if (entry.commits.count > 0) return `${countWords(entry.commits.count, 'commit')} on no other branch`;
  if (entry.state === 'missing') return null;
  if (entry.uncommitted === null) return `its uncommitted changes are not known${entry.note ? ` (${entry.note})` : ''}`;
  if (entry.uncommitted.count > 0) return `${countWords(entry.uncommitted.count, 'uncommitted file')}`;
  return null;
}

export function countWords(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** Runs `work` over `items`, at most `parallel` at a time, results in order. */
async function inTurn<T, R>(items: readonly T[], parallel: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, items.length) }, worker));
  return results;
}

function inside(root: string, p: string): boolean {
  const within = (base: string) => p.startsWith(base.endsWith(path.sep) ? base : base + path.sep);
  return within(root) || within(canonicalPath(root));
}

function exists(p: string): boolean {
  return kindOf(p) !== null;
}

function firstLine(text: string): string {
  return text.split('\n').find((line) => line.trim() !== '')?.trim() ?? '';
}
