/**
 * An unprivileged user to run an agent as, for end-to-end tests that must not run as root (Gemini
 * CLI treats root-owned settings differently; a real user never is root).
 *
 *   const who = unprivilegedUser([geminiBin, BELLTOWER_BIN]);
 *   if (!who.ok) ctx.skip(who.reason);
 *   … spawn belltower with { uid: who.user.uid, gid: who.user.gid } when who.user is set …
 *   chownTree(folder, who.user);
 *
 * Not root already: the test's own user is the unprivileged one (`user: null`). Root (CI runs
 * `.ci/run` as root): the system user `belltower-e2e`, created when missing (`.ci/run` creates it
 * too). Node's spawn with uid/gid drops root's supplementary groups.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const E2E_USER = 'belltower-e2e';

export interface RunAs {
  name: string;
  uid: number;
  gid: number;
}

export type Unprivileged = { ok: true; user: RunAs | null } | { ok: false; reason: string };

let cached: Unprivileged | undefined;

/** The user to run as, checked able to read and run every one of `paths` (files, executables). */
export function unprivilegedUser(paths: readonly string[]): Unprivileged {
  if (process.getuid?.() !== 0) return { ok: true, user: null };
  cached ??= findOrCreate();
  if (!cached.ok || !cached.user) return cached;
  const unreachable = firstUnreachable(cached.user, paths);
  if (unreachable) return { ok: false, reason: `${unreachable} cannot be read by the unprivileged user ${E2E_USER} (a folder above it is private to root): put the checkout and the agent cache where other users can read them` };
  return cached;
}

/** Hands a folder the test made (as root) to the user, so the agent runs in a folder of its own. */
export function chownTree(dir: string, user: RunAs | null): void {
  if (!user) return;
  const walk = (p: string) => {
    fs.lchownSync(p, user.uid, user.gid);
    const st = fs.lstatSync(p);
    if (st.isDirectory()) for (const name of fs.readdirSync(p)) walk(path.join(p, name));
  };
  walk(dir);
}

function findOrCreate(): Unprivileged {
  const found = lookup();
  if (found) return { ok: true, user: found };
  try {
    execFileSync('useradd', ['--system', '--user-group', '--no-create-home', '--home-dir', '/nonexistent', '--shell', '/usr/sbin/nologin', E2E_USER], { stdio: 'pipe' });
  } catch (error) {
    // Another test process may have created it meanwhile.
    const raced = lookup();
    if (raced) return { ok: true, user: raced };
    return { ok: false, reason: `cannot create the unprivileged user ${E2E_USER}: ${String((error as { stderr?: unknown }).stderr ?? error).trim()}` };
  }
  const made = lookup();
  return made ? { ok: true, user: made } : { ok: false, reason: `useradd ${E2E_USER} succeeded but the user cannot be found` };
}

function lookup(): RunAs | undefined {
  try {
    const uid = Number(execFileSync('id', ['-u', E2E_USER], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
    const gid = Number(execFileSync('id', ['-g', E2E_USER], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
    return Number.isInteger(uid) && Number.isInteger(gid) && uid !== 0 ? { name: E2E_USER, uid, gid } : undefined;
  } catch {
    return undefined;
  }
}

/** The first path the user cannot read (following links), or undefined. */
function firstUnreachable(user: RunAs, paths: readonly string[]): string | undefined {
  const script = `const fs=require('fs');for(const p of JSON.parse(process.argv[1])){try{fs.accessSync(fs.realpathSync(p),fs.constants.R_OK)}catch{console.log(p);process.exit(0)}}`;
  const result = spawnSync(process.execPath, ['-e', script, JSON.stringify([process.execPath, ...paths])], { uid: user.uid, gid: user.gid, encoding: 'utf8', cwd: '/' });
  if (result.error) return `${process.execPath} (${result.error.message})`;
  return result.stdout.trim() || undefined;
}
