/**
 * Which workspace files the user has said yes to: `<state>/trusted-workspaces.json`, private like
 * every file belltower keeps (platform/atomic-file.ts). A yes is for one file (its real path) with
 * one content (the SHA-256 of the bytes that were shown): an edit, a `git pull`, a checkout of
 * another branch makes the file new again, and belltower asks again before it starts anything.
 * The record says nothing about what the file holds; it never runs anything by itself.
 */
import path from 'node:path';
import { z } from 'zod';
import { readPrivateFile, setAside, writeFileAtomic } from '../platform/atomic-file.js';

export const TRUST_FILE = 'trusted-workspaces.json';
const VERSION = 1;
/** Files remembered at most; the oldest yes goes first. */
export const MAX_TRUSTED = 10_000;
const MAX_BYTES = 8 * 1024 * 1024;

const recordSchema = z
  .object({
    version: z.literal(VERSION),
    files: z.record(z.string(), z.object({ sha256: z.string().regex(/^[0-9a-f]{64}$/), trustedAt: z.string() }).strict()),
  })
  .strict();

export interface TrustEntry {
  sha256: string;
  trustedAt: string;
}

export type TrustRecord = ReadonlyMap<string, TrustEntry>;

export type TrustStatus = { kind: 'trusted'; since: string } | { kind: 'new' } | { kind: 'changed'; trustedAt: string };

export function trustFilePath(stateDir: string): string {
  return path.join(stateDir, TRUST_FILE);
}

/** Pure: what the record says of this file with this content. */
export function trustStatus(record: TrustRecord, realPath: string, sha256: string): TrustStatus {
  const entry = record.get(realPath);
  if (!entry) return { kind: 'new' };
  return entry.sha256 === sha256 ? { kind: 'trusted', since: entry.trustedAt } : { kind: 'changed', trustedAt: entry.trustedAt };
}

export type TrustRead = { ok: true; record: TrustRecord } | { ok: false; error: string };

/** The record (empty when there is none). A record belltower cannot use is an error, kept as it is. */
export function readTrust(file: string): TrustRead {
  const read = readPrivateFile(file, MAX_BYTES);
  if (read.kind === 'absent') return { ok: true, record: new Map() };
  if (read.kind === 'refused') return { ok: false, error: read.error };
  let data: unknown;
  try {
    data = JSON.parse(read.text);
  } catch {
    return { ok: false, error: `${file} is not JSON` };
  }
  const checked = recordSchema.safeParse(data);
  if (!checked.success) return { ok: false, error: `${file} is not a trust record belltower can read (${checked.error.issues[0]?.message ?? 'bad shape'})` };
  return { ok: true, record: new Map(Object.entries(checked.data.files)) };
}

/** Remember a yes for this content of this file. A record that cannot be read is set aside (kept,
 * renamed; the returned note says where) and a new one started. Throws when it cannot be written. */
export function recordTrust(file: string, realPath: string, sha256: string, now = new Date()): { note?: string } {
  const { record, note } = readOrSetAside(file, now);
  const next = new Map(record);
  next.delete(realPath);
  next.set(realPath, { sha256, trustedAt: now.toISOString() });
  while (next.size > MAX_TRUSTED) next.delete(next.keys().next().value as string);
  write(file, next);
  return note ? { note } : {};
}

/** Forget the yes for this file, whatever its content. Returns whether there was one. */
export function revokeTrust(file: string, realPath: string, now = new Date()): boolean {
  const { record } = readOrSetAside(file, now);
  if (!record.has(realPath)) return false;
  const next = new Map(record);
  next.delete(realPath);
  write(file, next);
  return true;
}

function readOrSetAside(file: string, now: Date): { record: TrustRecord; note?: string } {
  const read = readTrust(file);
  if (read.ok) return { record: read.record };
  let aside: string;
  try {
    aside = setAside(file, now);
  } catch {
    throw new Error(`${read.error}; move it away to start a new one`);
  }
  return { record: new Map(), note: `${read.error}; kept as ${aside}, and a new record started` };
}

function write(file: string, record: TrustRecord): void {
  writeFileAtomic(file, `${JSON.stringify({ version: VERSION, files: Object.fromEntries(record) }, null, 1)}\n`);
}
