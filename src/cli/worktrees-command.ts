/**
 * `belltower worktrees [--prune] [--json]`: the worktrees belltower made (worktree-inventory.ts),
 * one line each — branch, folder, repository, state — with the tiles of running sessions that are
 * in them; `--prune` removes those that lose nothing (clean, no commit on no other branch, not in
 * use, not locked) and names every one it keeps, with why.
 *
 * Exit 0 when everything that could be pruned was; 1 when a removal failed, or when a session
 * that did not answer kept a worktree that could otherwise have gone (which tiles it has is not
 * known, so any worktree may be its); 2 for a usage error (commander's).
 */
import path from 'node:path';
import { EXIT } from '../platform/exit-codes.js';
import { canonicalPath } from '../platform/paths.js';
import { printable } from '../platform/printable.js';
import { belltowerDirs } from '../platform/state-dir.js';
import { git } from '../worktree/git-command.js';
import { countWords, listWorktrees, whyKept, type WorktreeEntry } from '../worktree/worktree-inventory.js';
import { WorktreeError } from '../worktree/worktree-create.js';
import { lossWords, removeWorktree } from '../worktree/worktree-remove.js';
import type { Output } from './output.js';
import { runningTiles, type RunningTiles } from './running-tiles.js';

export interface WorktreesFlags {
  prune?: boolean;
  json?: boolean;
}

/** A tile that is in a worktree. */
interface User {
  session: string;
  tile: number;
  name: string;
}

export async function worktreesCommand(flags: WorktreesFlags, out: Output, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Promise<number> {
  const dirs = belltowerDirs({ env });
  const running = await runningTiles(dirs.runtime);
  for (const { session, why } of running.unanswered) {
    out.error(`belltower: ${session === '*' ? 'the running sessions' : `session ${printable(session)}`} could not be asked for its tiles (${printable(why)}): any worktree may be in use by it`);
  }
  let inventory;
  try {
    inventory = await listWorktrees({ stateDir: dirs.state, repositories: await repositoryHints(running, cwd, env), env });
  } catch (error) {
    if (!(error instanceof WorktreeError)) throw error;
    out.error(`belltower: ${printable(error.message)}`);
    return EXIT.failure;
  }
  if (inventory.truncated) out.error(`belltower: more entries under ${inventory.root} than are read at once: only the first ${inventory.worktrees.length} are listed`);
  const rows = inventory.worktrees.map((entry) => ({ entry, users: usersOf(entry, running) }));

  if (!flags.prune) {
    if (flags.json) out.line(JSON.stringify(rows.map(({ entry, users }) => ({ ...entry, inUse: users }))));
    else if (rows.length === 0) out.line(`no worktree made by belltower (under ${inventory.root})`);
    else for (const line of table(rows.map(({ entry, users }) => [branchWord(entry), entry.path, entry.repository ?? '-', stateWords(entry, users)]))) out.line(line);
    return EXIT.ok;
  }

  let failed = 0;
  const results: { entry: WorktreeEntry; users: User[]; pruned: boolean; why?: string }[] = [];
  const possibly = running.unanswered.map((u) => (u.session === '*' ? 'the running sessions could not be asked' : `session ${u.session} did not answer`));
  for (const { entry, users } of rows) {
    const own = whyKept(entry);
    const why = own ?? (users.length > 0 ? inUseWords(users) : possibly.length > 0 ? `possibly in use (${possibly.join('; ')})` : null);
    if (why !== null) {
      // Only the unanswered session stood in the way: the prune did not do what was asked.
      if (own === null && users.length === 0) failed++;
      results.push({ entry, users, pruned: false, why });
      if (!flags.json) out.line(`kept:    ${printable(branchWord(entry))}  ${printable(entry.path)}  (${printable(why)})`);
      continue;
    }
    const outcome = await removeWorktree(entry.path, { ...(entry.repository ? { repository: entry.repository } : {}), env });
    if (!outcome.removed) {
      // It changed since it was listed (something new in it): kept, like any with a loss.
      if ((outcome.why === 'unconfirmed' || outcome.why === 'changed') && outcome.loss) {
        const why = `it changed since it was listed: it would lose ${lossWords(outcome.loss)}`;
        results.push({ entry, users, pruned: false, why });
        if (!flags.json) out.line(`kept:    ${printable(branchWord(entry))}  ${printable(entry.path)}  (${printable(why)})`);
      } else {
        failed++;
        results.push({ entry, users, pruned: false, why: outcome.message });
        out.error(`belltower: ${printable(outcome.message)}`);
      }
      continue;
    }
    results.push({ entry, users, pruned: true });
    if (!flags.json) out.line(`removed: ${printable(branchWord(entry))}  ${printable(entry.path)}${entry.state === 'missing' ? "  (its folder was gone already: git's record of it removed)" : ''}`);
    if (outcome.branch !== null && !outcome.branchDeleted) {
      failed++;
      out.error(`belltower: ${printable(outcome.branchNote ?? `branch ${outcome.branch} is kept`)}`);
    }
  }
  if (flags.json) out.line(JSON.stringify(results.map(({ entry, users, pruned, why }) => ({ ...entry, inUse: users, pruned, ...(why !== undefined ? { kept: why } : {}) }))));
  else if (rows.length === 0) out.line(`no worktree made by belltower (under ${inventory.root})`);
  return failed > 0 ? EXIT.failure : EXIT.ok;
}

/** Repositories to ask for worktrees whose folders are gone: the tiles', and this folder's. */
async function repositoryHints(running: RunningTiles, cwd: string, env: NodeJS.ProcessEnv): Promise<string[]> {
  const hints = new Set<string>();
  for (const { tiles } of running.sessions) for (const tile of tiles) if (tile.worktree?.repository) hints.add(tile.worktree.repository);
  const here = await git(['rev-parse', '--show-toplevel'], { cwd, env, okStatuses: [128] }).catch(() => null);
  if (here && here.status === 0 && here.stdout.trim() !== '') hints.add(here.stdout.trim());
  return [...hints];
}

/** The tiles whose worktree, folder or shell's folder is `entry`'s folder or inside it. */
function usersOf(entry: WorktreeEntry, running: RunningTiles): User[] {
  const folder = canonicalPath(entry.path);
  const within = (p: string | undefined) => p !== undefined && p !== '' && (canonicalPath(p) === folder || canonicalPath(p).startsWith(folder + path.sep));
  const users: User[] = [];
  for (const { session, tiles } of running.sessions) {
    for (const tile of tiles) {
      // A remote tile's folders are on another machine: only a worktree of its own would count.
      const places = tile.remote ? [tile.worktree?.path] : [tile.worktree?.path, tile.cwd, tile.folder];
      if (places.some(within)) users.push({ session, tile: tile.id, name: tile.name });
    }
  }
  return users;
}

function inUseWords(users: readonly User[]): string {
  return `in use by ${users.map((u) => `session ${u.session} tile ${u.tile}`).join(', ')}`;
}

function branchWord(entry: WorktreeEntry): string {
  if (entry.branch !== null) return entry.branch;
  return entry.state === 'worktree' || entry.state === 'missing' ? '(detached)' : '-';
}

/** `clean`, `2 uncommitted files, 1 commit on no other branch`, `missing`, `stale (…)`, with the
 * tiles in it. */
function stateWords(entry: WorktreeEntry, users: readonly User[]): string {
  const parts: string[] = [];
  if (entry.state === 'link') parts.push('a symlink, not followed');
  else if (entry.state === 'not-a-folder') parts.push('not a folder');
  else if (entry.state === 'stale') parts.push(`stale (${entry.note ?? 'git does not know it'})`);
  else {
    if (entry.state === 'missing') parts.push('missing (its folder is gone)');
    else if (entry.uncommitted === null) parts.push('uncommitted changes not known');
    else if (entry.uncommitted.count > 0) parts.push(countWords(entry.uncommitted.count, 'uncommitted file'));
    if (entry.commits === null) parts.push('commits not known');
    else if (entry.commits.count > 0) parts.push(`${countWords(entry.commits.count, 'commit')} on no other branch`);
    if (parts.length === 0) parts.push('clean');
    if (entry.locked) parts.push('locked');
    if (entry.state === 'worktree' && entry.note) parts.push(entry.note);
  }
  if (users.length > 0) parts.push(inUseWords(users));
  return parts.join(', ');
}

/** Rows as columns two spaces apart (the last one not padded); every cell made printable. */
function table(rows: readonly string[][]): string[] {
  const cells = rows.map((row) => row.map(printable));
  const widths: number[] = [];
  for (const row of cells) row.forEach((cell, i) => (widths[i] = Math.min(60, Math.max(widths[i] ?? 0, cell.length))));
  return cells.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join('  '));
}
