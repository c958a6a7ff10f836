/**
 * A local socket only the user can reach: bound 0600 from its first instant inside a private
 * folder (checked from the root down), with a socket a dead process left behind removed first.
 * A socket something still listens on is somebody's running session: `busy` says so.
 */
import { chmodSync, existsSync, lstatSync, unlinkSync } from 'node:fs';
import { createConnection } from 'node:net';
import type { Server } from 'node:net';
import { dirname } from 'node:path';
import { ensurePrivateDir } from './private-dir.js';

export class SocketBusyError extends Error {
  override name = 'SocketBusyError';
}

export async function listenPrivate(server: Server, path: string, busy: (path: string) => string): Promise<void> {
  if (process.platform !== 'win32') {
    ensurePrivateDir(dirname(path));
    if (existsSync(path) || isLink(path)) {
      if (await isAlive(path)) throw new SocketBusyError(busy(path));
      unlinkSync(path); // left by a process that died (a link there is removed, never followed)
    }
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // Bound inside listen() with a umask that leaves it 0600: never a window with a looser mode.
    const umask = process.platform === 'win32' ? undefined : process.umask(0o177);
    try {
      server.listen(path, () => {
        server.off('error', reject);
        resolve();
      });
    } finally {
      if (umask !== undefined) process.umask(umask);
    }
  });
  if (process.platform !== 'win32') chmodSync(path, 0o600);
}

/** Remove the socket file, if it is still there. */
export function removeSocket(path: string): void {
  if (process.platform === 'win32') return;
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}

/** Is something listening on this socket? A refused connection means a dead process left it. */
export function isAlive(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createConnection(path);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
}

/** Why a client must not connect to `path` (not a socket, another user's), or null: it is the
 * user's own socket, or gone. */
export function socketProblem(path: string): string | null {
  let st;
  try {
    st = lstatSync(path);
  } catch {
    return null; // gone meanwhile: nothing to connect to
  }
  const uid = process.getuid?.();
  if (!st.isSocket()) return `not connecting: ${path} is not a socket; remove it`;
  if (uid !== undefined && st.uid !== uid) return `not connecting: ${path} belongs to uid ${st.uid}, not to you (uid ${uid}); remove it`;
  return null;
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}
