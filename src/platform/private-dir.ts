/**
 * Private folders and files: the hook token lives in them, so nobody but the user may read them.
 *
 * A folder under a shared temp directory (/tmp/<user>/belltower when XDG_RUNTIME_DIR is unset) can
 * be pre-created by another local user; so after creating we check that the folder is a real
 * directory (not a symlink), owned by us, and tighten it to 0700, refusing otherwise.
 */
import fs from 'node:fs';
import path from 'node:path';

export class PrivateDirError extends Error {
  override name = 'PrivateDirError';
}

/** Creates `dir` (and missing parents) and makes `dir` itself 0700 and ours. */
export function ensurePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = fs.lstatSync(dir);
  if (!st.isDirectory()) {
    throw new PrivateDirError(`${dir} is not a directory (a symlink or file is in the way); remove it or set BELLTOWER_STATE_DIR`);
  }
  if (process.platform === 'win32') return; // POSIX modes and uids do not apply; the profile folder is private already
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid) {
    throw new PrivateDirError(`${dir} belongs to uid ${st.uid}, not to you (uid ${uid}); remove it or set BELLTOWER_STATE_DIR`);
  }
  if ((st.mode & 0o777) !== 0o700) fs.chmodSync(dir, 0o700);
}

/** Writes a file only its owner can read, replacing any previous content (mode fixed even then). */
export function writePrivateFile(file: string, content: string, mode = 0o600): void {
  fs.writeFileSync(file, content, { mode });
  fs.chmodSync(file, mode); // writeFileSync's mode applies only when it creates the file
}

/** A fresh folder `<parent>/<prefix>XXXXXX`, 0700 (mkdtemp's own mode). */
export function makePrivateTempDir(parent: string, prefix: string): string {
  ensurePrivateDir(parent);
  return fs.mkdtempSync(path.join(parent, prefix));
}
