/**
 * The workspace state's file: `<state folder>/workspaces/<session>.json`, 0600 in a 0700 folder
 * that is ours. Written whole into a temporary file beside it, flushed to disk, then renamed over
 * the old one (and the folder flushed): a kill at any moment leaves the old file or the new one,
 * never a torn one. Read without following a link, and only when it is ours and private.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ensurePrivateDir } from '../platform/private-dir.js';
import { MAX_STATE_BYTES } from './workspace-state.js';

const { O_CREAT, O_EXCL, O_NOFOLLOW, O_RDONLY, O_WRONLY } = fs.constants;

export function stateFilePath(stateDir: string, session: string): string {
  return path.join(stateDir, 'workspaces', `${session}.json`);
}

/** Replace `file` with `text` atomically (see above). Throws on a full disk or a folder not ours. */
export function writeStateFile(file: string, text: string): void {
  const dir = path.dirname(file);
  ensurePrivateDir(dir);
  const temp = `${file}.${process.pid}.tmp`;
  // A temporary file a kill left behind is ours to replace; anything there is removed, not
  // followed (O_EXCL and O_NOFOLLOW refuse a link planted in its place).
  fs.rmSync(temp, { force: true });
  const fd = fs.openSync(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600);
  try {
    const bytes = Buffer.from(text, 'utf8');
    for (let at = 0; at < bytes.length; ) at += fs.writeSync(fd, bytes, at, bytes.length - at);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(temp, file);
  // The rename itself reaches the disk only with its folder.
  const dirFd = fs.openSync(dir, O_RDONLY);
  try {
    fs.fsyncSync(dirFd);
  } catch {
    // Some file systems cannot flush a folder; the rename is still atomic.
  } finally {
    fs.closeSync(dirFd);
  }
}

export type StateFileRead = { kind: 'absent' } | { kind: 'text'; text: string } | { kind: 'refused'; error: string };

/** The file's text, if there is one that belltower may trust. Never throws. */
export function readStateFile(file: string): StateFileRead {
  let fd: number;
  try {
    fd = fs.openSync(file, O_RDONLY | O_NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { kind: 'absent' };
    if (code === 'ELOOP') return { kind: 'refused', error: `${file} is a symbolic link: belltower does not follow it` };
    return { kind: 'refused', error: `cannot read ${file}: ${(error as Error).message}` };
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) return { kind: 'refused', error: `${file} is not a regular file` };
    const uid = process.getuid?.();
    if (process.platform !== 'win32' && uid !== undefined && st.uid !== uid) return { kind: 'refused', error: `${file} belongs to uid ${st.uid}, not to you` };
    if (process.platform !== 'win32' && (st.mode & 0o077) !== 0) return { kind: 'refused', error: `${file} can be read or changed by others (mode ${(st.mode & 0o777).toString(8)})` };
    if (st.size > MAX_STATE_BYTES) return { kind: 'refused', error: `${file} is larger than ${MAX_STATE_BYTES / 1024 / 1024} MB` };
    return { kind: 'text', text: fs.readFileSync(fd, 'utf8') };
  } catch (error) {
    return { kind: 'refused', error: `cannot read ${file}: ${(error as Error).message}` };
  } finally {
    fs.closeSync(fd);
  }
}

/** Move a state file belltower cannot use out of the way, keeping it: returns where it went. */
export function setAside(file: string, now = new Date()): string {
  const aside = `${file}.unread-${now.toISOString().replace(/[:.]/g, '-')}`;
  fs.renameSync(file, aside);
  return aside;
}
