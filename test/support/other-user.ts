/**
 * A second local user for the attacks in the hardening tests: a bare uid and gid (no passwd entry
 * is needed to own files or to run a process). Planting a folder as that user takes root, so the
 * tests that need one skip, saying why, when the suite does not run as root (CI runs as root).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';

export const OTHER_UID = 4242;
export const OTHER_GID = 4242;

export const isRoot = process.platform !== 'win32' && process.getuid?.() === 0;
export const NOT_ROOT_REASON = 'needs root to act as a second local user (chown, setuid)';

/** A folder (created if missing) that belongs to the other user, with `mode`. */
export function plantDir(dir: string, mode = 0o777): string {
  fs.mkdirSync(dir, { recursive: true });
  fs.chownSync(dir, OTHER_UID, OTHER_GID);
  fs.chmodSync(dir, mode);
  return dir;
}

/** A symlink at `link` pointing at `target`, owned by the other user (lchown). */
export function plantSymlink(target: string, link: string): string {
  fs.symlinkSync(target, link);
  fs.lchownSync(link, OTHER_UID, OTHER_GID);
  return link;
}

/** `node -e script` running as the other user. */
export function runAsOtherUser(script: string, args: string[] = []): ChildProcess {
  return spawn(process.execPath, ['-e', script, ...args], { uid: OTHER_UID, gid: OTHER_GID, stdio: ['ignore', 'pipe', 'pipe'] });
}
