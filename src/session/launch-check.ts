/**
 * Why a command cannot start, in words a user can act on — found before spawning, because after
 * spawning the only trace is a message node-pty's forked child prints just before it exits, and
 * the last bytes before an exit are exactly what node-pty sometimes loses (upstream #72).
 */
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

function isDirectory(p: string): boolean | undefined {
  try {
    return statSync(p).isDirectory();
  } catch {
    return undefined; // missing (or unreadable): the caller words it
  }
}

function isExecutable(p: string): boolean {
  try {
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Undefined when `file` should start in `cwd` with `env`'s PATH; else what is wrong. */
export function launchProblem(file: string, cwd: string, env: Readonly<Record<string, string | undefined>>): string | undefined {
  if (file.trim() === '') return 'no command given';
  const cwdIsDir = isDirectory(cwd);
  if (cwdIsDir === undefined) return `working directory not found: ${cwd}`;
  if (!cwdIsDir) return `working directory is not a directory: ${cwd}`;

  if (file.includes('/')) {
    const full = path.resolve(cwd, file);
    const dir = isDirectory(full);
    if (dir === undefined) return `command not found: ${file} (no such file)`;
    if (dir) return `cannot run ${file}: it is a directory`;
    if (!isExecutable(full)) return `permission denied: ${file} is not executable (chmod +x ${file}?)`;
    return undefined;
  }

  const found = searchPath(file, cwd, env);
  if (found.path) return undefined;
  if (found.notExecutable) return `permission denied: ${found.notExecutable} is not executable`;
  return `command not found: ${file}`;
}

/** The file `file` names as execvp finds it from `cwd` with `env`'s PATH, or undefined. */
export function findProgram(file: string, cwd: string, env: Readonly<Record<string, string | undefined>>): string | undefined {
  if (file.includes('/')) {
    const full = path.resolve(cwd, file);
    return isDirectory(full) === false && isExecutable(full) ? full : undefined;
  }
  return searchPath(file, cwd, env).path;
}

function searchPath(file: string, cwd: string, env: Readonly<Record<string, string | undefined>>): { path?: string; notExecutable?: string } {
  let notExecutable: string | undefined;
  for (const entry of (env.PATH ?? '').split(path.delimiter)) {
    // An empty PATH entry means the current directory (execvp's rule).
    const candidate = path.resolve(cwd, entry, file);
    if (isDirectory(candidate) !== false) continue;
    if (isExecutable(candidate)) return { path: candidate };
    notExecutable ??= candidate;
  }
  return notExecutable ? { notExecutable } : {};
}

// What node-pty's forked child prints (perror) when chdir or exec fails, before exiting 1.
const HELPER_FAILURE = /^(execvp\(3\)|chdir\(2\)|setgid\(2\)|setuid\(2\)) failed\.: ?([^\r\n]*)/;

/** The start failure in the first output of a session, if that output is node-pty's perror line. */
export function helperFailure(firstOutput: string, file: string): string | undefined {
  const match = HELPER_FAILURE.exec(firstOutput);
  if (!match) return undefined;
  const reason = (match[2] ?? '').trim() || 'unknown error';
  if (match[1] === 'execvp(3)') {
    // launchProblem already found the file, so a missing file now is the #! interpreter.
    const hint = /no such file/i.test(reason) ? ' (is the interpreter on its #! line installed?)' : '';
    return `cannot start ${file}: ${reason}${hint}`;
  }
  if (match[1] === 'chdir(2)') return `cannot enter the working directory: ${reason}`;
  return `cannot start ${file}: ${match[1]} failed: ${reason}`;
}
