/**
 * What `belltower sessions` and `kill-session` know of a running server, without asking it:
 * `<runtime>/attach/<session>.json` beside its socket — its process, folder, start and the
 * clients attached now — rewritten whole (atomically) when a client comes or goes, removed when
 * the server ends.
 */
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { readPrivateFile, writeFileAtomic } from '../platform/atomic-file.js';
import { attachDir } from './attach-server.js';

export interface SessionInfo {
  session: string;
  pid: number;
  cwd: string;
  /** When the server started (ISO 8601). */
  since: string;
  version: string;
  clients: { id: number; cols: number; rows: number; since: string }[];
}

const MAX_INFO_BYTES = 64 * 1024;

export function sessionInfoPath(runtimeDir: string, session: string): string {
  return join(attachDir(runtimeDir), `${session}.json`);
}

export function writeSessionInfo(runtimeDir: string, info: SessionInfo): void {
  writeFileAtomic(sessionInfoPath(runtimeDir, info.session), `${JSON.stringify(info)}\n`);
}

export function removeSessionInfo(runtimeDir: string, session: string): void {
  rmSync(sessionInfoPath(runtimeDir, session), { force: true });
}

/** The info of one session, or null when there is none (or it is not a file belltower trusts). */
export function readSessionInfo(runtimeDir: string, session: string): SessionInfo | null {
  const read = readPrivateFile(sessionInfoPath(runtimeDir, session), MAX_INFO_BYTES);
  if (read.kind !== 'text') return null;
  return parseSessionInfo(read.text);
}

export function parseSessionInfo(text: string): SessionInfo | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  if (typeof v.session !== 'string' || typeof v.pid !== 'number' || !Number.isInteger(v.pid) || v.pid <= 0 || typeof v.cwd !== 'string' || typeof v.since !== 'string') return null;
  const clients = Array.isArray(v.clients)
    ? v.clients.flatMap((c: unknown) => {
        if (typeof c !== 'object' || c === null) return [];
        const r = c as Record<string, unknown>;
        return typeof r.id === 'number' && typeof r.cols === 'number' && typeof r.rows === 'number' && typeof r.since === 'string' ? [{ id: r.id, cols: r.cols, rows: r.rows, since: r.since }] : [];
      })
    : [];
  return { session: v.session, pid: v.pid, cwd: v.cwd, since: v.since, version: typeof v.version === 'string' ? v.version : 'unknown', clients };
}

/** The sessions that have an info file (running, or left by a server that died). */
export function sessionNames(runtimeDir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(attachDir(runtimeDir));
  } catch {
    return [];
  }
  return names.filter((n) => n.endsWith('.json')).map((n) => n.slice(0, -'.json'.length)).sort();
}
