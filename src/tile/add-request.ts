/** A tile the control socket (or the UI's `a`) asks for, checked before anything starts: its SPEC, its folder, its program, its name; and the worktree it asks for. */
import { resolve } from 'node:path';
import { parseSpec, SpecError } from '../agents/launch-spec.js';
import type { LaunchSpec } from '../agents/launch-spec.js';
import { isFolder } from '../platform/paths.js';
import { PrivateDirError } from '../platform/private-dir.js';
import { belltowerDirs } from '../platform/state-dir.js';
import { launchProblem } from '../session/launch-check.js';
import { GitError } from '../worktree/git-command.js';
import { createWorktree, WorktreeError, type Worktree } from '../worktree/worktree-create.js';
import { nameProblem } from './tile-names.js';

/** The launch and its folder, or what is wrong with the request. `set`: the set's folder and
 * environment, and the names its tiles have. */
export function readAddRequest(
  spec: string,
  options: { name?: string; cwd?: string },
  set: { cwd: string; env: Record<string, string | undefined>; names: readonly string[] },
): { launch: LaunchSpec; cwd: string } | string {
  let launch: LaunchSpec;
  try {
    launch = parseSpec(spec);
  } catch (error) {
    if (error instanceof SpecError) return error.message;
    throw error;
  }
  const cwd = resolve(set.cwd, options.cwd ?? '.');
  if (!isFolder(cwd)) return `no such folder: ${cwd}`;
  const missing = launchProblem(launch.file, cwd, set.env);
  if (missing) return missing;
  if (options.name !== undefined) {
    const problem = nameProblem(options.name, set.names);
    if (problem) return problem;
  }
  return { launch, cwd };
}

/** The worktree a tile asked for (`add --worktree`, a workspace file's `worktree`: `reuse`, the one
 * made for it before), made in its folder's repository, or why not (nothing is then started). */
export async function tileWorktree(
  launch: LaunchSpec,
  cwd: string,
  asked: { branch?: string; base?: string; hint: string; reuse?: boolean },
  set: { env: Record<string, string | undefined>; stateDir?: string },
): Promise<Worktree | string> {
  if (launch.remote) return 'a worktree is made on this machine: a remote tile cannot start in one';
  try {
    return await createWorktree({ cwd, ...(asked.branch ? { branch: asked.branch } : {}), ...(asked.base ? { base: asked.base } : {}), hint: asked.hint, ...(asked.reuse ? { reuse: true } : {}), stateDir: set.stateDir ?? belltowerDirs({ env: set.env }).state, env: set.env });
  } catch (error) {
    if (error instanceof WorktreeError || error instanceof GitError || error instanceof PrivateDirError) return error.message;
    throw error;
  }
}
