/**
 * A lock held by a live process: `<path>` created exclusively (O_EXCL, never through a link),
 * holding the holder's pid. Two processes that start at the same moment cannot both take it — a
 * lock, not a race between "is the socket there?" and "bind it". A lock whose process is gone is
 * broken, by one process at a time: breaking takes `<path>.break` (also exclusive), looks again,
 * and only then removes the dead holder's lock.
 */
import fs from 'node:fs';
import { processRuns } from './processes.js';

/** A breaker whose process died while breaking is removed after this. */
const STALE_BREAK_MS = 10_000;

/** The lock's path holds something belltower did not make there (a link, a folder). */
export class LockError extends Error {
  override name = 'LockError';
}

export type LockResult = { ok: true; release(): void } | { ok: false; pid: number };

export function acquirePidLock(path: string, pid = process.pid, alive: (pid: number) => boolean = processRuns): LockResult {
  for (let attempt = 0; attempt < 5; attempt++) {
    if (create(path, pid)) return { ok: true, release: () => release(path, pid) };
    notAFile(path);
    const holder = readHolder(path);
    if (holder !== null && holder !== pid && alive(holder)) return { ok: false, pid: holder };
    breakStale(path, holder, alive);
  }
  const holder = readHolder(path);
  return { ok: false, pid: holder ?? 0 };
}

/** A link or a folder where the lock goes is never followed nor removed: the user is told. */
function notAFile(path: string): void {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(path);
  } catch {
    return; // gone meanwhile: try again
  }
  if (!st.isFile()) throw new LockError(`${path} is not a lock belltower made (${st.isSymbolicLink() ? 'a link' : 'not a file'}); remove it`);
}

/** The pid of the live process that holds the lock, or null (free, or its holder is gone). */
export function lockHolder(path: string, alive: (pid: number) => boolean = processRuns): number | null {
  const holder = readHolder(path);
  return holder !== null && alive(holder) ? holder : null;
}

function create(path: string, pid: number): boolean {
  const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = fs.constants;
  let fd: number;
  try {
    fd = fs.openSync(path, O_WRONLY | O_CREAT | O_EXCL | (O_NOFOLLOW ?? 0), 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    fs.writeSync(fd, `${pid}\n`);
  } finally {
    fs.closeSync(fd);
  }
  return true;
}

/** The pid in the lock, or null (gone, unreadable, not a pid: a lock being written, or junk). */
function readHolder(path: string): number | null {
  try {
    if (!fs.lstatSync(path).isFile()) return null;
    const text = fs.readFileSync(path, 'utf8').trim();
    return /^\d{1,10}$/.test(text) ? Number(text) : null;
  } catch {
    return null;
  }
}

function breakStale(path: string, seen: number | null, alive: (pid: number) => boolean): void {
  const breaker = `${path}.break`;
  if (!create(breaker, process.pid)) {
    // Someone else is breaking it; one who died doing so leaves a breaker that goes after a while.
    try {
      if (Date.now() - fs.lstatSync(breaker).mtimeMs > STALE_BREAK_MS) fs.unlinkSync(breaker);
    } catch {
      // gone meanwhile
    }
    return;
  }
  try {
    const holder = readHolder(path);
    // Still the dead holder we saw, or an empty lock left by a writer that died (not one being
    // written this very moment: that one is young).
    const dead = holder === null ? ageMs(path) > STALE_BREAK_MS / 5 : !alive(holder);
    if (holder === seen && dead) {
      try {
        fs.unlinkSync(path);
      } catch {
        // gone meanwhile
      }
    }
  } finally {
    try {
      fs.unlinkSync(breaker);
    } catch {
      // gone
    }
  }
}

function ageMs(path: string): number {
  try {
    return Date.now() - fs.lstatSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

function release(path: string, pid: number): void {
  if (readHolder(path) !== pid) return; // not ours any more: leave it
  try {
    fs.unlinkSync(path);
  } catch {
    // gone
  }
}
