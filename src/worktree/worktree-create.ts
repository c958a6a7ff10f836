/**
 * A git worktree for one tile: a new branch from the repository's HEAD (or a chosen base), checked
 * out in a folder of belltower's own, outside the repository's working tree, so the main
 * checkout's `git status` stays as it was. Everything is git's command line (`git worktree add`);
 * every refusal is a message the user can act on, and nothing is left half made.
 */
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { ensurePrivateDir } from '../platform/private-dir.js';
import { git, GitError } from './git-command.js';

export class WorktreeError extends Error {
  override name = 'WorktreeError';
}

export interface WorktreeRequest {
  /** The folder the tile would start in: its repository is the one branched. */
  cwd: string;
  /** The new branch's name; absent: `belltower/<hint>`, numbered if taken. */
  branch?: string;
  /** What to branch from (a commit, branch or tag); absent: HEAD. */
  base?: string;
  /** A word for the branch's name when none is given (the tile's name or program). */
  hint?: string;
  /** belltower's state folder: worktrees go under `<state>/worktrees/`. */
  stateDir: string;
  env?: NodeJS.ProcessEnv;
  /** A workspace file's tile: the branch is `branch`, or `belltower/<hint>` (never numbered), and
   * the worktree belltower made for it before is opened again rather than refused — so the same
   * workspace opens the same worktrees each time. */
  reuse?: boolean;
}

export interface Worktree {
  /** The worktree's folder: where the tile starts. */
  path: string;
  branch: string;
  /** The commit it was branched from: what its changes are counted against. */
  base: string;
  /** What the user named as the base (`HEAD`'s branch, or `--base`). */
  baseName: string;
  /** The repository's top folder (the checkout it was made from). */
  repository: string;
}

/** Where worktrees of `repository` go: one folder per repository, named so a person can tell. */
export function worktreesFolder(stateDir: string, repository: string): string {
  const id = createHash('sha256').update(repository).digest('hex').slice(0, 8);
  return path.join(stateDir, 'worktrees', `${path.basename(repository) || 'repository'}-${id}`);
}

/** A branch name's form as a folder name. */
function folderOf(branch: string): string {
  return branch.replace(/[/\\]+/g, '-');
}

/** The branch a workspace file's tile named `hint` gets when its `worktree` names none. */
export function defaultBranch(hint: string | undefined): string {
  return `belltower/${slug(hint)}`;
}

/** `hint` as a branch name's last part: letters, digits, `.`, `-` and `_`. */
function slug(hint: string | undefined): string {
  const word = (hint ?? '').normalize('NFKD').replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+|[-.]+$/g, '').slice(0, 40);
  return word || 'tile';
}

async function run(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv | undefined, okStatuses: readonly number[] = []): Promise<{ status: number; stdout: string }> {
  try {
    return await git(args, { cwd, ...(env ? { env } : {}), okStatuses });
  } catch (error) {
    if (error instanceof GitError && error.reason === 'missing') throw new WorktreeError('git is not installed (or not on PATH): a worktree tile needs it; nothing started');
    throw error;
  }
}

async function branchExists(repository: string, branch: string, env: NodeJS.ProcessEnv | undefined): Promise<boolean> {
  const found = await run(['show-ref', '--verify', '--quiet', `refs/heads/${branch}`], repository, env, [1]);
  return found.status === 0;
}

/**
 * The worktree belltower made before at `where` for `branch` of `repository`, if that is what
 * `where` still is (its own top folder, on that branch, of that repository); else null. Its base is
 * where the branch left the repository's current branch (`git merge-base`).
 */
async function ownWorktree(where: string, branch: string, repository: string, baseName: string, env: NodeJS.ProcessEnv | undefined): Promise<Worktree | null> {
  if (!existsSync(where) || lstatSync(where).isSymbolicLink()) return null;
  const ask = async (cwd: string, args: string[]) => (await run(args, cwd, env, [1, 128])).stdout.trim();
  const [top, head, common, repositoryCommon] = await Promise.all([
    ask(where, ['rev-parse', '--show-toplevel']),
    ask(where, ['rev-parse', '--abbrev-ref', 'HEAD']),
    ask(where, ['rev-parse', '--path-format=absolute', '--git-common-dir']),
    ask(repository, ['rev-parse', '--path-format=absolute', '--git-common-dir']),
  ]);
  if (top !== realpathSync(where) || head !== branch || common === '' || common !== repositoryCommon) return null;
  const base = await ask(repository, ['merge-base', 'HEAD', `refs/heads/${branch}`]);
  if (!base) return null;
  return { path: where, branch, base, baseName, repository };
}

export async function createWorktree(request: WorktreeRequest): Promise<Worktree> {
  const { env } = request;
  if (!existsSync(request.cwd)) throw new WorktreeError(`${request.cwd} does not exist; nothing started`);
  const top = await run(['rev-parse', '--show-toplevel'], request.cwd, env).catch((error: unknown) => {
    if (error instanceof GitError) throw new WorktreeError(`${request.cwd} is not in a git repository: a worktree tile needs one (or start it without a worktree); nothing started`);
    throw error;
  });
  const repository = top.stdout.trim();

  const baseName = request.base ?? ((await run(['rev-parse', '--abbrev-ref', 'HEAD'], repository, env, [128])).stdout.trim() || 'HEAD');
  const resolved = await run(['rev-parse', '--verify', '--quiet', `${request.base ?? 'HEAD'}^{commit}`], repository, env, [1, 128]);
  const base = resolved.status === 0 ? resolved.stdout.trim() : '';
  if (!base) {
    throw new WorktreeError(request.base ? `${request.base} is not a commit in ${repository}; nothing started` : `${repository} has no commit yet: a worktree branches from one; nothing started`);
  }

  let branch: string;
  if (request.branch !== undefined || request.reuse) {
    branch = request.branch ?? defaultBranch(request.hint);
    const valid = await run(['check-ref-format', '--branch', branch], repository, env, [1, 128]);
    if (valid.status !== 0 || branch.startsWith('-')) throw new WorktreeError(`"${branch}" is not a valid branch name; nothing started`);
    if (await branchExists(repository, branch, env)) {
      const again = request.reuse ? await ownWorktree(path.join(worktreesFolder(request.stateDir, repository), folderOf(branch)), branch, repository, baseName, env) : null;
      if (again) return again;
      throw new WorktreeError(
        request.reuse
          ? `branch ${branch} already exists in ${repository}, and not in a worktree belltower made for it: name another branch in "worktree"; nothing started`
          : `branch ${branch} already exists in ${repository}: name another, or leave the name out for a new one; nothing started`,
      );
    }
  } else {
    const stem = `belltower/${slug(request.hint)}`;
    branch = stem;
    for (let n = 2; await branchExists(repository, branch, env); n++) {
      if (n > 999) throw new WorktreeError(`branches ${stem} to ${stem}-999 all exist in ${repository}: name one; nothing started`);
      branch = `${stem}-${n}`;
    }
  }

  const folder = worktreesFolder(request.stateDir, repository);
  ensurePrivateDir(folder);
  const where = path.join(folder, folderOf(branch));
  if (existsSync(where)) throw new WorktreeError(`${where} already exists (a worktree left from before?): remove it or name another branch; nothing started`);

  try {
    await run(['worktree', 'add', '--quiet', '-b', branch, where, base], repository, env);
  } catch (error) {
    // Nothing half made: a branch git made before failing goes again (it did not exist before).
    if (await branchExists(repository, branch, env).catch(() => false)) await run(['branch', '-D', branch], repository, env).catch(() => undefined);
    if (error instanceof GitError && error.reason === 'failed') {
      const said = error.stderr.split('\n').find((line) => line.trim() !== '') ?? error.message;
      const locked = /\block\b|\.lock\b|locked/i.test(error.stderr);
      throw new WorktreeError(
        locked
          ? `git could not take its lock in ${repository} (${said.trim()}): another git may be running there, or it left a stale lock file; nothing started`
          : `git worktree add failed in ${repository}: ${said.trim()}; nothing started`,
      );
    }
    throw error;
  }
  return { path: where, branch, base, baseName, repository };
}
