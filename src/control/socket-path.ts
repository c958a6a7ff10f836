/**
 * Where control sockets live: one per running belltower, `<runtime>/control/<session>.sock`, in a
 * folder only the user can open. On Windows, a named pipe per user and session.
 */
import { createHash } from 'node:crypto';
import { userInfo } from 'node:os';
import { join } from 'node:path';

export function controlDir(runtimeDir: string): string {
  return join(runtimeDir, 'control');
}

/** The session's lock, beside its control socket: whoever holds it runs the session. */
export function sessionLockPath(controlSocket: string): string {
  return `${controlSocket}.lock`;
}

export function socketPath(runtimeDir: string, session: string, platform: NodeJS.Platform = process.platform): string {
  if (platform === 'win32') {
    const user = createHash('sha256').update(userInfo().username).digest('hex').slice(0, 12);
    return `\\\\.\\pipe\\belltower-${user}-${session}`;
  }
  return join(controlDir(runtimeDir), `${session}.sock`);
}

/** Session names become file names: keep them to a safe alphabet. */
export function checkSessionName(name: string): string | null {
  return /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(name) ? null : `session name "${name}" must be 1–64 letters, digits, dots, dashes or underscores`;
}
