/**
 * Reading a workspace file as input from a stranger until shown otherwise: `belltower` in a
 * cloned repository, in /tmp or on a shared mount reads a `belltower.json` someone else may have
 * written. It is read only when it is the user's own, and neither it nor any folder above it can
 * be changed by another user (else that user could swap it between the question and the start);
 * a link is followed only when the user or root made it; a FIFO or a device under that name is
 * refused before it is opened. What is read is hashed as read: the trust record
 * (trust-store.ts) names exactly the bytes that were shown.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { othersCanWrite } from '../platform/others-can-write.js';
import { checkSafeFolders, PrivateDirError } from '../platform/private-dir.js';

/** A workspace larger than this is no file a person wrote. */
export const MAX_WORKSPACE_BYTES = 1024 * 1024;

export interface WorkspaceBytes {
  text: string;
  /** The file's real path (links resolved): the trust record's key. */
  realPath: string;
  /** SHA-256 of the bytes read, hex. */
  sha256: string;
}

export type WorkspaceRead = { ok: true; file: WorkspaceBytes } | { ok: false; error: string };

const FIX = 'belltower reads only a workspace file of yours in folders nobody else can change: look at it, copy it into a folder of your own, and pass that with --config';

/** Read `file`; `shown` is how errors name it. Never throws. */
export function readWorkspaceFile(file: string, shown = file): WorkspaceRead {
  const refuse = (why: string): WorkspaceRead => ({ ok: false, error: `${shown}: ${why}` });
  const abs = path.resolve(file);
  const uid = process.platform === 'win32' ? undefined : process.getuid?.();
  let link: fs.Stats;
  try {
    link = fs.lstatSync(abs);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return refuse(code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : (error as Error).message);
  }
  if (uid !== undefined && link.isSymbolicLink() && link.uid !== uid && link.uid !== 0) {
    return refuse(`is a symbolic link made by uid ${link.uid}, not by you (uid ${uid}); ${FIX}`);
  }
  let realPath: string;
  try {
    realPath = fs.realpathSync(abs);
  } catch (error) {
    return refuse((error as NodeJS.ErrnoException).code === 'ENOENT' ? `is a link to ${fs.readlinkSync(abs)}, which does not exist` : (error as Error).message);
  }
  try {
    checkSafeFolders(path.dirname(abs), FIX);
    if (path.dirname(realPath) !== path.dirname(abs)) checkSafeFolders(path.dirname(realPath), FIX);
  } catch (error) {
    if (error instanceof PrivateDirError) return refuse(`not read: ${error.message}`);
    throw error;
  }
  // Its kind before opening it: opening a FIFO waits for a writer, a device may act on open.
  let target: fs.Stats;
  try {
    target = fs.lstatSync(realPath);
  } catch (error) {
    return refuse((error as Error).message);
  }
  if (target.isDirectory()) return refuse('a folder, not a file');
  if (!target.isFile()) return refuse(`is ${kindOf(target)}, not a file: belltower does not open it`);

  let fd: number;
  try {
    fd = fs.openSync(realPath, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | (fs.constants.O_NOFOLLOW ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return refuse(code === 'EACCES' ? 'permission denied' : code === 'ELOOP' ? 'was replaced by a link while belltower read it' : (error as Error).message);
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) return refuse(`is ${kindOf(st)}, not a file: belltower does not open it`);
    if (uid !== undefined) {
      if (st.uid !== uid) return refuse(`belongs to uid ${st.uid}, not to you (uid ${uid}): someone else wrote it; ${FIX}`);
      if (othersCanWrite(st, uid)) return refuse(`can be changed by other users (mode ${(st.mode & 0o777).toString(8)}); look at it, then take their write access away: chmod go-w ${shown}`);
    }
    if (st.size > MAX_WORKSPACE_BYTES) return refuse(`is larger than ${MAX_WORKSPACE_BYTES / 1024 / 1024} MB: not a workspace file`);
    const bytes = fs.readFileSync(fd);
    if (bytes.length > MAX_WORKSPACE_BYTES) return refuse(`is larger than ${MAX_WORKSPACE_BYTES / 1024 / 1024} MB: not a workspace file`);
    return { ok: true, file: { text: bytes.toString('utf8'), realPath, sha256: createHash('sha256').update(bytes).digest('hex') } };
  } catch (error) {
    return refuse((error as Error).message);
  } finally {
    fs.closeSync(fd);
  }
}

function kindOf(st: fs.Stats): string {
  if (st.isFIFO()) return 'a FIFO';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  if (st.isSocket()) return 'a socket';
  if (st.isSymbolicLink()) return 'a symbolic link';
  return 'not a regular file';
}
