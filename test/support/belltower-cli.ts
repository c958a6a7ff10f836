/** The built CLI run as a user or script runs it, for its status and output (never throws). */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

export const BELLTOWER_CLI = join(import.meta.dirname, '..', '..', 'bin', 'belltower.js');

export interface CliOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** `uid`/`gid`: run as that user (the one a session server runs as, whose socket is private). */
export async function belltowerCli(args: readonly string[], options: { env: NodeJS.ProcessEnv; cwd?: string; uid?: number; gid?: number }): Promise<CliOutcome> {
  try {
    const as = options.uid !== undefined && options.gid !== undefined ? { uid: options.uid, gid: options.gid } : {};
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [BELLTOWER_CLI, ...args], { env: options.env, ...(options.cwd ? { cwd: options.cwd } : {}), ...as });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as CliOutcome;
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}
