/** A tile the control socket (or the UI's `a`) asks for, checked before anything starts: its SPEC, its folder, its program, its name. */
import { resolve } from 'node:path';
import { parseSpec, SpecError } from '../agents/launch-spec.js';
import type { LaunchSpec } from '../agents/launch-spec.js';
import { isFolder } from '../platform/paths.js';
import { launchProblem } from '../session/launch-check.js';
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
