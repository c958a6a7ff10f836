/**
 * A tile's private folder: `<stateDir>/sessions/<tileKey>-XXXXXX`, 0700, files 0600. It holds what
 * the agent needs to reach the hook server (settings with the token, the relay), so nobody else
 * may read it, and it goes away with the tile.
 *
 * A crash skips dispose(); sweepOrphans() at start-up removes folders older than a day whose
 * owning belltower process is gone (a live belltower running for days keeps its folders).
 *
 * The sweep deletes, so it deletes only what it can prove it wrote, and never through a path
 * someone else can change: the sessions folder and every folder above it must be private (else it
 * sweeps nothing), and a folder goes only when it is a real folder (never a symlink), the user's,
 * 0700, with an owner.pid marker file of the user's naming a process that is gone. Inside it, each
 * entry is looked at without following links and must be the user's too; a link is removed as a
 * link.
 */
import fs from 'node:fs';
import path from 'node:path';
import { silentLogger, type Logger } from '../platform/logger.js';
import { checkPrivateDir, makePrivateTempDir, writePrivateFile } from '../platform/private-dir.js';
import { processAlive } from '../platform/processes.js';

export const ORPHAN_AGE_MS = 24 * 60 * 60 * 1000;
const OWNER_FILE = 'owner.pid';

export interface SessionFolder {
  readonly dir: string;
  /** Writes `name` inside the folder (0600 unless told) and returns its absolute path. */
  write(name: string, content: string, mode?: number): string;
  /** Removes the folder and everything in it. Safe to call twice. */
  dispose(): void;
}

export function sessionsRoot(stateDir: string): string {
  return path.join(stateDir, 'sessions');
}

export function createSessionFolder(stateDir: string, tileKey: string): SessionFolder {
  const dir = makePrivateTempDir(sessionsRoot(stateDir), `${tileKey}-`);
  writePrivateFile(path.join(dir, OWNER_FILE), `${process.pid}\n`);
  return {
    dir,
    write(name, content, mode = 0o600) {
      const file = path.join(dir, name);
      writePrivateFile(file, content, mode);
      return file;
    },
    dispose() {
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Removes abandoned tile folders; returns the folders removed. Never throws. */
export function sweepOrphans(
  stateDir: string,
  now: number,
  options: { maxAgeMs?: number; logger?: Logger; isAlive?: (pid: number) => boolean } = {},
): string[] {
  const maxAgeMs = options.maxAgeMs ?? ORPHAN_AGE_MS;
  const logger = options.logger ?? silentLogger;
  const isAlive = options.isAlive ?? processAlive;
  const root = sessionsRoot(stateDir);
  const uid = process.getuid?.();
  let entries: string[];
  try {
    if (!checkPrivateDir(root)) return []; // no sessions folder yet
    entries = fs.readdirSync(root);
  } catch (error) {
    logger('warn', 'not sweeping old session folders: the sessions folder is not private', { root, error: String(error) });
    return [];
  }
  const removed: string[] = [];
  for (const name of entries) {
    const dir = path.join(root, name);
    try {
      const st = fs.lstatSync(dir);
      if (!st.isDirectory() || (uid !== undefined && st.uid !== uid) || (process.platform !== 'win32' && (st.mode & 0o777) !== 0o700)) continue;
      if (now - st.mtimeMs < maxAgeMs) continue;
      const owner = ownerOf(dir, uid);
      if (owner === undefined || owner === process.pid || isAlive(owner)) continue;
      removeOwnTree(dir, uid);
      removed.push(dir);
    } catch (error) {
      logger('warn', 'could not sweep an old session folder', { dir, error: String(error) });
    }
  }
  return removed;
}

/** The pid in the folder's marker, when the marker is a regular file of the user's. */
function ownerOf(dir: string, uid: number | undefined): number | undefined {
  const file = path.join(dir, OWNER_FILE);
  try {
    const st = fs.lstatSync(file);
    if (!st.isFile() || (uid !== undefined && st.uid !== uid) || st.size > 32) return undefined;
    const pid = Number.parseInt(fs.readFileSync(file, 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Deletes `dir` depth first, looking at each entry without following links; refuses (throws) at
 * the first entry that is not the user's, leaving it and everything above it in place. */
function removeOwnTree(dir: string, uid: number | undefined): void {
  for (const name of fs.readdirSync(dir)) {
    const entry = path.join(dir, name);
    const st = fs.lstatSync(entry);
    if (uid !== undefined && st.uid !== uid) throw new Error(`${entry} belongs to uid ${st.uid}: not removing it`);
    if (st.isDirectory()) removeOwnTree(entry, uid);
    else fs.unlinkSync(entry); // a symlink goes as a link
  }
  fs.rmdirSync(dir);
}
