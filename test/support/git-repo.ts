/** Temporary git repositories for tests, with the real git command line and nobody's own config. */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** git as a test runs it: a fixed author, no global or system config (the machine's own must not matter). */
export const GIT_ENV: Record<string, string> = Object.fromEntries(
  Object.entries({ ...process.env, CI: undefined, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com', GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' }).filter((e): e is [string, string] => e[1] !== undefined),
);

export const gitIn = (cwd: string, ...args: string[]): string => execFileSync('git', ['-C', cwd, ...args], { env: GIT_ENV, encoding: 'utf8' });

export interface TempRepository {
  root: string;
  /** The repository (branch main, one commit holding `files`). */
  repo: string;
  remove(): void;
}

/** A folder holding `repo/`, a repository on `main` with one commit of `files`. */
export function tempRepository(files: Record<string, string> = { 'app.ts': 'export const a = 1;\n' }, prefix = 'belltower-repo-'): TempRepository {
  const root = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  const repo = join(root, 'repo');
  mkdirSync(repo);
  gitIn(repo, 'init', '-q', '-b', 'main');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(repo, name), text);
  gitIn(repo, 'add', '.');
  gitIn(repo, 'commit', '-q', '-m', 'first');
  return { root, repo, remove: () => rmSync(root, { recursive: true, force: true }) };
}
