/**
 * Files belltower keeps across runs (the workspace state, the trust record): 0600 in a private
 * folder, written whole into `<file>.<pid>.tmp` (O_EXCL, O_NOFOLLOW), flushed, renamed over the old
 * one, the folder flushed — a kill at any moment leaves the old file or the new one. A write that
 * fails (a full disk) removes its temporary file; one a kill left behind is removed by the next
 * belltower once its process is gone. Read without following a link, only when the user's own and
 * private.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ensurePrivateDir } from './private-dir.js';
import { processAlive } from './processes.js';

const { O_CREAT, O_EXCL, O_NOFOLLOW, O_RDONLY, O_WRONLY } = fs.constants;

const TEMP = /^(.+)\.(\d+)\.tmp$/;

/** Replace `file` with `text` atomically. Throws on a full disk or a folder not ours (nothing of
 * the attempt stays behind). */
export function writeFileAtomic(file: string, text: string): void {
  const dir = path.dirname(file);
  ensurePrivateDir(dir);
  const temp = `${file}.${process.pid}.tmp`;
  // A temporary file of an earlier attempt is ours to replace; anything there is removed, not
  // followed (O_EXCL and O_NOFOLLOW refuse a link planted in its place).
  fs.rmSync(temp, { force: true });
  const fd = fs.openSync(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600);
  try {
    try {
      const bytes = Buffer.from(text, 'utf8');
      for (let at = 0; at < bytes.length; ) at += fs.writeSync(fd, bytes, at, bytes.length - at);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temp, file);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
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

/**
 * The same replacement, off the event loop (the writes and flushes run on libuv's threads): for a
 * file rewritten while the UI runs. Its temporary file is `<file>.async.<pid>.tmp`, apart from the
 * synchronous one. `commit()` is asked just before the rename: false (a newer synchronous write
 * happened meanwhile) drops this one, so an older text never lands over a newer one.
 */
export async function writeFileAtomicAsync(file: string, text: string, commit: () => boolean = () => true): Promise<boolean> {
  const dir = path.dirname(file);
  ensurePrivateDir(dir);
  const temp = `${file}.async.${process.pid}.tmp`;
  await fs.promises.rm(temp, { force: true });
  const handle = await fs.promises.open(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600);
  try {
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (!commit()) {
      await fs.promises.rm(temp, { force: true });
      return false;
    }
    await fs.promises.rename(temp, file);
  } catch (error) {
    await fs.promises.rm(temp, { force: true });
    throw error;
  }
  const dirHandle = await fs.promises.open(dir, O_RDONLY);
  try {
    await dirHandle.sync();
  } catch {
    // Some file systems cannot flush a folder; the rename is still atomic.
  } finally {
    await dirHandle.close();
  }
  return true;
}

/** Removes the `<name>.<pid>.tmp` files in `dir` whose process is gone (a kill mid-write): only
 * regular files of the user's, never through a link. Returns how many went. Never throws. */
export function sweepStaleTemps(dir: string, isAlive: (pid: number) => boolean = processAlive): number {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return 0;
  }
  const uid = process.getuid?.();
  let removed = 0;
  for (const name of names) {
    const match = TEMP.exec(name);
    if (!match) continue;
    const pid = Number(match[2]);
    if (pid === process.pid || isAlive(pid)) continue;
    const entry = path.join(dir, name);
    try {
      const st = fs.lstatSync(entry);
      if (!st.isFile() || (uid !== undefined && st.uid !== uid)) continue;
      fs.unlinkSync(entry);
      removed++;
    } catch {
      // gone meanwhile, or not ours to remove
    }
  }
  return removed;
}

export type PrivateFileRead = { kind: 'absent' } | { kind: 'text'; text: string } | { kind: 'refused'; error: string };

/** The text of `file` if belltower may trust it: a regular file, not a link, the user's, readable
 * by nobody else, at most `maxBytes`. Never throws. */
export function readPrivateFile(file: string, maxBytes: number): PrivateFileRead {
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
    if (st.size > maxBytes) return { kind: 'refused', error: `${file} is larger than ${maxBytes / 1024 / 1024} MB` };
    return { kind: 'text', text: fs.readFileSync(fd, 'utf8') };
  } catch (error) {
    return { kind: 'refused', error: `cannot read ${file}: ${(error as Error).message}` };
  } finally {
    fs.closeSync(fd);
  }
}

/** Move a file belltower cannot use out of the way, keeping it: returns where it went. */
export function setAside(file: string, now = new Date()): string {
  const aside = `${file}.unread-${now.toISOString().replace(/[:.]/g, '-')}`;
  fs.renameSync(file, aside);
  return aside;
}
