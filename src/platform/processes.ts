/**
 * The processes of the system as /proc shows them (Linux): enough to find every process of a
 * tile's session, and the ones that left it. Elsewhere (no /proc) the listing is null and callers
 * fall back to signalling the process group.
 */
import { readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import { join } from 'node:path';

export interface ProcessEntry {
  pid: number;
  ppid: number;
  /** Process group and session ids. */
  pgid: number;
  sid: number;
  /** R, S, D, Z, T…: a zombie (Z) has ended and only waits to be reaped. */
  state: string;
  /** The command name (at most 15 characters, as the kernel keeps it). */
  name: string;
}

/** Read at most this much of a process's environment: a marker is near the start or absent. */
const MAX_ENVIRON = 256 * 1024;
/** A bound on how many /proc entries one listing reads. */
const MAX_PROCESSES = 65_536;

/** Parse /proc/PID/stat. The name is in parentheses and may itself hold spaces and parentheses,
 * so the fields are counted from the last `)`. */
export function parseStat(text: string): ProcessEntry | null {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < open) return null;
  const pid = Number(text.slice(0, open).trim());
  const fields = text.slice(close + 2).split(' ');
  const [state, ppid, pgid, sid] = [fields[0], Number(fields[1]), Number(fields[2]), Number(fields[3])];
  if (!Number.isInteger(pid) || state === undefined || ![ppid, pgid, sid].every(Number.isInteger)) return null;
  return { pid, ppid, pgid, sid, state, name: text.slice(open + 1, close) };
}

/** Every process /proc lists, or null where there is no /proc. Processes that end while being
 * read are skipped. */
export function listProcesses(procDir = '/proc'): ProcessEntry[] | null {
  let names: string[];
  try {
    names = readdirSync(procDir);
  } catch {
    return null;
  }
  const entries: ProcessEntry[] = [];
  for (const name of names.slice(0, MAX_PROCESSES)) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const entry = parseStat(readFileSync(join(procDir, name, 'stat'), 'utf8'));
      if (entry) entries.push(entry);
    } catch {
      // gone, or not ours to read
    }
  }
  return entries;
}

/** The live members of session `sid` (zombies have ended: they are not counted). */
export function sessionMembers(list: readonly ProcessEntry[], sid: number): ProcessEntry[] {
  return list.filter((p) => p.sid === sid && p.state !== 'Z');
}

/**
 * Live processes of this user whose environment holds `entry` (`NAME=value`), outside session
 * `sid`: the ones that left a tile on purpose (setsid, a daemon's double fork) still carry the
 * variable the tile was started with.
 */
export function markedOutside(list: readonly ProcessEntry[], entry: string, sid: number, procDir = '/proc'): ProcessEntry[] {
  const uid = process.getuid?.();
  const needle = Buffer.from(`${entry}\0`);
  const found: ProcessEntry[] = [];
  for (const p of list) {
    if (p.sid === sid || p.state === 'Z' || p.pid === process.pid) continue;
    try {
      if (uid !== undefined && statSync(join(procDir, String(p.pid))).uid !== uid) continue;
      const environ = readFileSync(join(procDir, String(p.pid), 'environ')).subarray(0, MAX_ENVIRON);
      const at = environ.indexOf(needle);
      if (at === 0 || (at > 0 && environ[at - 1] === 0)) found.push(p);
    } catch {
      // gone, or not readable
    }
  }
  return found;
}

/** Whether the process runs: it exists and is not a zombie (dead, its exit not yet collected —
 * which, under a PID 1 that never collects, lasts for ever). Without /proc, whether it exists. */
export function processRuns(pid: number, procDir = '/proc'): boolean {
  if (!processAlive(pid)) return false;
  try {
    return parseStat(readFileSync(join(procDir, String(pid), 'stat'), 'utf8'))?.state !== 'Z';
  } catch {
    return process.platform !== 'linux'; // no /proc to ask (macOS): it exists
  }
}

/** Whether a process with this id exists (EPERM: it does, but belongs to someone else). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A bound on how many descriptors of one process `openFiles` reads. */
const MAX_DESCRIPTORS = 4_096;

/**
 * The paths of the files the processes of session `sid` hold open (/proc/PID/fd links), or null
 * where there is no /proc. Only this user's processes can be read; the rest are skipped, as are
 * processes that end while being read. Sockets, pipes and the like are not paths and are left out.
 */
export function sessionOpenFiles(sid: number, procDir = '/proc'): string[] | null {
  const list = listProcesses(procDir);
  if (list === null) return null;
  const paths = new Set<string>();
  for (const member of sessionMembers(list, sid)) {
    const fdDir = join(procDir, String(member.pid), 'fd');
    let fds: string[];
    try {
      fds = readdirSync(fdDir);
    } catch {
      continue;
    }
    for (const fd of fds.slice(0, MAX_DESCRIPTORS)) {
      try {
        const target = readlinkSync(join(fdDir, fd));
        if (target.startsWith('/')) paths.add(target);
      } catch {
        // closed meanwhile
      }
    }
  }
  return [...paths];
}
