/**
 * Attaching to a session's server: which session, whether its door may be used, the client's
 * terminal, and the status the client ends with. Kept apart from the rest of the command line so
 * that `belltower attach` (cli/attach-fast.ts) loads only this, the client and the wire protocol.
 */
import { existsSync } from 'node:fs';
import { attach } from '../client/attach-client.js';
import type { AttachOptions, AttachOutcome } from '../client/attach-client.js';
import { checkSessionName } from '../control/socket-path.js';
import { checkPrivateDir, PrivateDirError } from '../platform/private-dir.js';
import { socketProblem } from '../platform/private-socket.js';
import { belltowerDirs } from '../platform/state-dir.js';
import { attachDir, attachSocketPath } from '../wire/attach-socket-path.js';
import type { ClientOptions } from '../wire/wire-protocol.js';
import { EXIT } from '../platform/exit-codes.js';
import type { Output } from './output.js';
import { sessionFromFolder } from './session-name.js';
import { packageVersion } from './version.js';

export interface AttachFlags {
  session?: string;
  bell?: string;
  notify?: string;
  escapeKey?: string;
}

export function sessionOf(flags: { session?: string }, cwd: string): string | { error: string } {
  const session = flags.session ?? sessionFromFolder(cwd);
  const problem = checkSessionName(session);
  return problem ? { error: problem } : session;
}

export function attachOptions(path: string, session: string, out: Output, clientOptions: ClientOptions = {}): AttachOptions {
  return { path, session, version: packageVersion(), stdin: process.stdin, stdout: process.stdout, env: process.env, clientOptions, tell: (line) => out.line(line), say: (line) => out.error(line) };
}

/** Why the attach folder or socket must not be used, or null. */
export function doorProblem(runtimeDir: string, path: string): string | null {
  try {
    checkPrivateDir(attachDir(runtimeDir));
  } catch (error) {
    if (error instanceof PrivateDirError) return `not connecting: ${error.message}`;
    throw error;
  }
  return socketProblem(path);
}

export function needsTerminal(out: Output): boolean {
  if (process.stdin.isTTY && process.stdout.isTTY) return false;
  out.error('belltower: attaching needs a terminal; without one, the control commands (belltower ls, send, wait) reach the session');
  return true;
}

export function ended(outcome: AttachOutcome, out: Output, session: string): number {
  if (outcome.kind === 'absent') {
    out.error(`belltower: no session "${session}" is running (belltower sessions lists those that are)`);
    return EXIT.usage;
  }
  return outcome.status;
}

/** `belltower attach [SESSION]` with the client's own choices already checked. */
export async function attachToSession(name: string | undefined, flags: { session?: string }, choices: ClientOptions, out: Output, cwd = process.cwd()): Promise<number> {
  const problem = name !== undefined ? checkSessionName(name) : null;
  const session = name !== undefined ? (problem ? { error: problem } : name) : sessionOf(flags, cwd);
  if (typeof session !== 'string') {
    out.error(`belltower: ${session.error}`);
    return EXIT.usage;
  }
  const dirs = belltowerDirs();
  const path = attachSocketPath(dirs.runtime, session);
  if (!existsSync(path)) return ended({ kind: 'absent' }, out, session);
  const door = doorProblem(dirs.runtime, path);
  if (door) {
    out.error(`belltower: ${door}`);
    return EXIT.usage;
  }
  if (needsTerminal(out)) return EXIT.usage;
  return ended(await attach(attachOptions(path, session, out, choices)), out, session);
}
