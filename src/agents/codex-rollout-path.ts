/**
 * Where a Codex thread's rollout file is (observed on 0.171.0):
 * `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<creation second>-<thread id>.jsonl`, created at the
 * thread's first prompt. Two tiles started in the same folder in the same second differ only by
 * the thread id, so the id is what finds a tile's own file.
 *
 * With a SessionStart hook Codex says the path itself (0.171). Before it (0.169.1 observed) the
 * file is found among the files Codex holds open: it keeps its thread's rollout open from the first
 * prompt on (and `thread-writer-locks/<thread id>.lock` from start-up). The last fallback is the
 * thread id its notify program receives at the end of the first turn. The hidden title thread has
 * no file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { sessionStartTarget } from './profile.js';
import type { TranscriptTarget } from './profile.js';

/** How many of the newest day folders are searched: a thread's file is made at its first prompt. */
export const ROLLOUT_DAYS_SEARCHED = 3;

const THREAD_ID = /^[A-Za-z0-9-]{8,64}$/;

export function findCodexRollout(codexHome: string, threadId: string): string | undefined {
  // The id goes into a file name match: refuse anything that is not one.
  if (!THREAD_ID.test(threadId)) return undefined;
  const suffix = `-${threadId}.jsonl`;
  let days = 0;
  for (const year of newestFirst(path.join(codexHome, 'sessions'))) {
    for (const month of newestFirst(year)) {
      for (const day of newestFirst(month)) {
        const name = names(day).find((n) => n.startsWith('rollout-') && n.endsWith(suffix));
        if (name) return path.join(day, name);
        if (++days >= ROLLOUT_DAYS_SEARCHED) return undefined;
      }
    }
  }
  return undefined;
}

/** The rollout to follow for a Codex hook or notify call (`following`: a file is followed already). */
export function codexTranscriptTarget(codexHome: string, event: string, payload: Record<string, unknown>, following: boolean): TranscriptTarget | undefined {
  if (event === 'SessionStart') return sessionStartTarget(payload);
  if (event === 'notify' && !following) {
    const thread = payload['thread-id'];
    const file = typeof thread === 'string' ? findCodexRollout(codexHome, thread) : undefined;
    // Found at the end of the first turn: that turn is over, read what comes next.
    return file ? { path: file, fromStart: false } : undefined;
  }
  return undefined;
}

/**
 * The rollout among the paths a tile's processes hold open: a `rollout-….jsonl` directly in a
 * day folder of `<codexHome>/sessions/YYYY/MM/DD/`; the newest by name (its creation second)
 * when there are several. Pure: the paths come from /proc (platform/processes.ts).
 */
export function rolloutAmong(codexHome: string, paths: readonly string[]): string | undefined {
  const sessions = path.join(path.resolve(codexHome), 'sessions') + path.sep;
  const rollouts = paths.filter((file) => {
    if (!file.startsWith(sessions)) return false;
    const parts = file.slice(sessions.length).split(path.sep);
    return parts.length === 4 && parts.slice(0, 3).every((part) => /^\d+$/.test(part)) && /^rollout-.+\.jsonl$/.test(parts[3]!);
  });
  return rollouts.sort((a, b) => (path.basename(a) < path.basename(b) ? -1 : 1)).at(-1);
}

function names(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

function newestFirst(dir: string): string[] {
  return names(dir)
    .filter((n) => /^\d+$/.test(n))
    .sort((a, b) => Number(b) - Number(a))
    .map((n) => path.join(dir, n));
}
