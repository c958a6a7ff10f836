/**
 * A tile's private folder: `<stateDir>/sessions/<tileKey>-XXXXXX`, 0700, files 0600. It holds what
 * the agent needs to reach the hook server (settings with the token, the relay), so nobody else
 * may read it, and it goes away with the tile.
 *
 * A crash skips dispose(); sweepOrphans() at start-up removes folders older than a day whose
 * owning belltower process is gone (a live belltower running for days keeps its folders).
 */
import fs from 'node:fs';
import path from 'node:path';
import { silentLogger, type Logger } from '../platform/logger.js';
import { makePrivateTempDir, writePrivateFile } from '../platform/private-dir.js';

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
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(root, { withFileTypes: true });
  } catch {
    return []; // no sessions folder yet
  }
  const removed: string[] = [];
  for (const entry of entries) {
    if (!entry.isDirectory()) continue;
    const dir = path.join(root, entry.name);
    try {
      if (now - fs.statSync(dir).mtimeMs < maxAgeMs) continue;
      const owner = ownerOf(dir);
      if (owner !== undefined && (owner === process.pid || isAlive(owner))) continue;
      fs.rmSync(dir, { recursive: true, force: true });
      removed.push(dir);
    } catch (error) {
      logger('warn', 'could not sweep an old session folder', { dir, error: String(error) });
    }
  }
  return removed;
}

function ownerOf(dir: string): number | undefined {
  try {
    const pid = Number.parseInt(fs.readFileSync(path.join(dir, OWNER_FILE), 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else — alive all the same.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
