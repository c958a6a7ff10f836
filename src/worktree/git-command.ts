/**
 * Running the git command line: belltower never reimplements git (its worktrees, refs and diffs
 * are git's). Each run is bounded — in time and in what it may print — and runs without a
 * terminal, a pager, an editor or a prompt for credentials, so it can never wait on the user.
 */
import { execFile } from 'node:child_process';

export class GitError extends Error {
  override name = 'GitError';
  constructor(
    message: string,
    /** Why, for callers that word their own message: git is missing, or it said no. */
    readonly reason: 'missing' | 'failed' | 'timeout' | 'too-much-output',
    /** What git printed on stderr (trimmed), when it ran. */
    readonly stderr = '',
  ) {
    super(message);
  }
}

export interface GitOptions {
  /** The folder git runs in (`-C`). */
  cwd: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  /** The most stdout kept; more fails the run (a diff of a huge tree must not fill memory). */
  maxBytes?: number;
  /** Exit statuses that are answers, not failures (`git diff --no-index` exits 1 when files
   * differ; `show-ref --quiet` 1 when the ref is absent). */
  okStatuses?: readonly number[];
  /** An index of the caller's own instead of the repository's (GIT_INDEX_FILE). */
  indexFile?: string;
}

export interface GitResult {
  status: number;
  stdout: string;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_BYTES = 16 * 1024 * 1024;

/** What git sees of the environment: the user's, without anything that would make it wait on a
 * terminal or write somewhere else than asked. */
function gitEnv(env: NodeJS.ProcessEnv, indexFile: string | undefined): NodeJS.ProcessEnv {
  const clean: NodeJS.ProcessEnv = { ...env, GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat', PAGER: 'cat', GIT_EDITOR: 'true', GIT_OPTIONAL_LOCKS: '0' };
  // A repository chosen by the environment would not be the tile's folder's.
  for (const name of ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_COMMON_DIR']) delete clean[name];
  if (indexFile !== undefined) clean.GIT_INDEX_FILE = indexFile;
  return clean;
}

export function git(args: readonly string[], options: GitOptions): Promise<GitResult> {
  const ok = new Set([0, ...(options.okStatuses ?? [])]);
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      ['-C', options.cwd, ...args],
      { env: gitEnv(options.env ?? process.env, options.indexFile), timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS, maxBuffer: options.maxBytes ?? DEFAULT_MAX_BYTES, windowsHide: true, encoding: 'utf8' },
      (error, stdout, stderr) => {
        if (!error) return resolve({ status: 0, stdout });
        const failure = error as NodeJS.ErrnoException & { code?: string | number; killed?: boolean; signal?: string | null };
        if (failure.code === 'ENOENT') return reject(new GitError('git is not installed (or not on PATH)', 'missing'));
        if (failure.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') return reject(new GitError(`git ${args[0]} printed more than ${options.maxBytes ?? DEFAULT_MAX_BYTES} bytes`, 'too-much-output'));
        if (failure.killed || failure.signal === 'SIGTERM') return reject(new GitError(`git ${args[0]} did not finish within ${Math.round((options.timeoutMs ?? DEFAULT_TIMEOUT_MS) / 1000)} s`, 'timeout'));
        const status = typeof failure.code === 'number' ? failure.code : 1;
        if (ok.has(status)) return resolve({ status, stdout });
        const said = String(stderr).trim();
        reject(new GitError(`git ${args[0]} failed${said ? `: ${firstLines(said)}` : ` (exit ${status})`}`, 'failed', said));
      },
    );
  });
}

/** The first lines of what git said, enough to act on. */
function firstLines(text: string, max = 3): string {
  return text.split('\n').slice(0, max).join(' / ');
}
