/**
 * Private folders and files: the hook token, the relay and the control socket live in them, so
 * nobody but the user may read them, and nobody else may swap anything on the way to them.
 *
 * Another local user can create a folder first in a shared place (`/tmp/<user>` when
 * XDG_RUNTIME_DIR is unset), or plant a symlink there, and wait for belltower to trust it. So every
 * folder on the path, from the root down, is checked as OpenSSH's StrictModes does: it belongs to
 * the user (or, above the folder itself, to root) and nobody else can write it — except a sticky
 * folder such as /tmp, where nobody can replace an entry they do not own. A symlink on the way is
 * followed only when the user or root made it; the folder itself is never a symlink. Folders
 * belltower creates are created one at a time, 0700.
 */
import fs from 'node:fs';
import path from 'node:path';
import { othersCanWrite } from './others-can-write.js';

export class PrivateDirError extends Error {
  override name = 'PrivateDirError';
}

const FIX = 'remove it or set BELLTOWER_STATE_DIR to a folder of your own';
/** Links followed on the way to one folder before giving up (Linux's own limit is 40). */
const MAX_LINKS = 40;

/** What the last folder of a path must be: private (0700, tightened if looser), or the user's own
 * with its mode left alone (a --record folder), or just a safe folder on the way. */
type Role = 'private' | 'own' | 'ancestor';

/** Creates `dir` (and missing parents, 0700), checks every folder on the way, makes `dir` 0700. */
export function ensurePrivateDir(dir: string): void {
  secureWalk(dir, 'private', true);
}

/** Like ensurePrivateDir, but an existing `dir` keeps its mode: it must be the user's and not
 * writable by others, unless sticky (others may then add files, never replace the user's). */
export function ensureOwnDir(dir: string, fix = 'pick a folder of your own'): void {
  secureWalk(dir, 'own', true, fix);
}

/** Whether `dir` exists as a private folder (false when it does not exist; creates nothing).
 * Throws PrivateDirError when it, or a folder on the way, is not safe. */
export function checkPrivateDir(dir: string): boolean {
  return secureWalk(dir, 'private', false);
}

/** Checks every folder from the root down to `dir` (which must exist): each is the user's or
 * root's, nobody else can write it unless it is sticky, and a link on the way is the user's or
 * root's. Creates and changes nothing. Throws PrivateDirError naming the folder and `fix`. */
export function checkSafeFolders(dir: string, fix: string): void {
  const uid = process.getuid?.();
  if (process.platform === 'win32' || uid === undefined) return;
  if (!walk(path.resolve(dir), 'ancestor', false, { uid, fix, links: 0 })) throw new PrivateDirError(`${dir} does not exist`);
}

/** Writes a file only its owner can read, replacing any previous content (mode fixed even then).
 * Never through a symlink at `file`. */
export function writePrivateFile(file: string, content: string, mode = 0o600): void {
  const { O_WRONLY, O_CREAT, O_TRUNC, O_NOFOLLOW } = fs.constants;
  const fd = fs.openSync(file, O_WRONLY | O_CREAT | O_TRUNC | (O_NOFOLLOW ?? 0), mode);
  try {
    fs.writeFileSync(fd, content);
    fs.fchmodSync(fd, mode); // openSync's mode applies only when it creates the file
  } finally {
    fs.closeSync(fd);
  }
}

/** A fresh folder `<parent>/<prefix>XXXXXX`, 0700 (mkdtemp's own mode). */
export function makePrivateTempDir(parent: string, prefix: string): string {
  ensurePrivateDir(parent);
  return fs.mkdtempSync(path.join(parent, prefix));
}

interface Walk {
  uid: number;
  /** What the user can do about it, ending every message. */
  fix: string;
  links: number;
}

function secureWalk(dir: string, role: Exclude<Role, 'ancestor'>, create: boolean, fix = FIX): boolean {
  const uid = process.getuid?.();
  if (process.platform === 'win32' || uid === undefined) {
    // POSIX owners and modes do not apply; the profile folders are private already.
    if (create) fs.mkdirSync(dir, { recursive: true });
    return create || fs.existsSync(dir);
  }
  return walk(path.resolve(dir), role, create, { uid, fix, links: 0 });
}

function walk(abs: string, role: Role, create: boolean, w: Walk): boolean {
  const parts = abs.split(path.sep).filter((part) => part !== '');
  let current = path.parse(abs).root;
  checkFolder(current, lstat(current, current, w) as fs.Stats, parts.length === 0 ? role : 'ancestor', w);
  for (const [i, part] of parts.entries()) {
    const next = path.join(current, part);
    const last = i === parts.length - 1;
    let st = lstat(next, current, w);
    if (!st) {
      if (!create) return false;
      makeOne(next, w);
      st = lstat(next, current, w) as fs.Stats;
    }
    if (st.isSymbolicLink()) {
      if (last && role !== 'ancestor') throw new PrivateDirError(`${next} is a symlink, not a folder; ${w.fix}`);
      if (st.uid !== w.uid && st.uid !== 0) {
        throw new PrivateDirError(`${next} is a symlink made by uid ${st.uid}, not by you (uid ${w.uid}) or root; ${w.fix}`);
      }
      if (++w.links > MAX_LINKS) throw new PrivateDirError(`${next}: too many symlinks on the way; ${w.fix}`);
      const target = path.resolve(current, fs.readlinkSync(next));
      // The folders the link leads through are on the way too.
      if (!walk(target, 'ancestor', false, w)) throw new PrivateDirError(`${next} points to ${target}, which does not exist; ${w.fix}`);
      current = fs.realpathSync(next);
      continue;
    }
    checkFolder(next, st, last ? role : 'ancestor', w);
    current = next;
  }
  return true;
}

function checkFolder(dir: string, st: fs.Stats, role: Role, w: Walk): void {
  if (!st.isDirectory()) throw new PrivateDirError(`${dir} is not a folder; ${w.fix}`);
  if (st.uid !== w.uid && (role !== 'ancestor' || st.uid !== 0)) {
    throw new PrivateDirError(`${dir} belongs to uid ${st.uid}, not to you (uid ${w.uid})${role === 'ancestor' ? ' or root' : ''}; ${w.fix}`);
  }
  const othersWrite = othersCanWrite(st, w.uid);
  const sticky = (st.mode & 0o1000) !== 0;
  if (othersWrite && (role === 'private' || !sticky)) {
    throw new PrivateDirError(`${dir} is writable by other users (mode ${(st.mode & 0o7777).toString(8)}); ${w.fix}`);
  }
  if (role === 'private' && (st.mode & 0o777) !== 0o700) fs.chmodSync(dir, 0o700);
}

function lstat(p: string, parent: string, w: Walk): fs.Stats | undefined {
  try {
    return fs.lstatSync(p);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    throw new PrivateDirError(`cannot look into ${parent} (${code ?? String(error)}); ${w.fix}`);
  }
}

/** One folder, 0700; one that appeared meanwhile is checked like any other. */
function makeOne(dir: string, w: Walk): void {
  try {
    fs.mkdirSync(dir, { mode: 0o700 });
    fs.chmodSync(dir, 0o700); // the umask may have taken bits we need
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return;
    const why = code === 'EACCES' || code === 'EPERM' ? 'permission denied' : code === 'EROFS' ? 'read-only file system' : (code ?? String(error));
    throw new PrivateDirError(`cannot create ${dir} (${why}); ${w.fix}`);
  }
}
