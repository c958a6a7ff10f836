/**
 * From a saved workspace state to the tiles a restore opens, and the question asked before it.
 * Pure: the folder check and the clock are inputs.
 *
 * - An agent with a conversation resumes it; a shell or a command that was running runs again,
 *   in its folder, as it was.
 * - A tile whose process had ended by itself (a finished command, an agent the user exited) is
 *   shown as it ended, with its last screen, and not run again (`r` runs it).
 * - An unseen done or failed stays unseen and is not rung again; a blocked one is whatever the
 *   resumed agent says now.
 */
import type { Conversation } from '../agents/conversation.js';
import { isConversationId } from '../agents/conversation.js';
import { printable } from '../platform/printable.js';
import type { RestoredTile } from '../tile/tile.js';
import type { RestoredVerdict } from '../verdict/state.js';
import type { Worktree } from '../worktree/worktree-create.js';
import type { Ending, SavedTile, WorkspaceState } from './workspace-state.js';

export interface PlannedTile {
  spec: string;
  name: string;
  cwd: string;
  env?: Record<string, string>;
  timing?: Record<string, number>;
  bell?: boolean;
  notify?: boolean;
  escapeKey?: string;
  remoteHooks?: boolean;
  /** The git worktree it runs in (its cwd), made for it before. */
  worktree?: Worktree;
  /** Absent: a fresh conversation (or none). */
  conversation?: Conversation;
  restored: RestoredTile;
  /** The size its saved screen had: the tile starts at it, then takes its place in the grid. */
  size?: { cols: number; rows: number };
  /** Still unseen after the restore. */
  unseen: boolean;
  muted: boolean;
}

export interface RestorePlan {
  tiles: PlannedTile[];
  /** Saved tiles that cannot come back, each in a line. */
  skipped: string[];
  ui: { selected: number; zoomed: boolean; layout: 'auto' | 'grid' | 'rows'; hideIdle: boolean };
}

const RESUMES = new Set(['claude', 'codex', 'gemini']);

export function planRestore(state: WorkspaceState, folderExists: (path: string) => boolean): RestorePlan {
  const tiles: PlannedTile[] = [];
  const skipped: string[] = [];
  let selected = state.ui.selected;
  state.tiles.forEach((saved, index) => {
    if (!folderExists(saved.cwd)) {
      // A worktree removed meanwhile is said as such, and not made again behind the user's back.
      skipped.push(
        saved.worktree
          ? `tile ${index + 1} ${saved.name}: its worktree ${saved.cwd} (branch ${saved.worktree.branch}) was removed; it is not made again (belltower add --worktree makes a new one)`
          : `tile ${index + 1} ${saved.name}: its folder ${saved.cwd} is gone`,
      );
      if (index < state.ui.selected) selected--;
      return;
    }
    tiles.push(planTile(saved));
  });
  return {
    tiles,
    skipped,
    ui: { selected: Math.max(0, Math.min(selected, tiles.length - 1)), zoomed: state.ui.zoomed, layout: state.ui.layout, hideIdle: state.ui.hideIdle },
  };
}

function planTile(saved: SavedTile): PlannedTile {
  const exit = saved.exit;
  const finished = exit !== undefined;
  const verdict = restoredVerdict(saved, exit);
  const restored: RestoredTile = {
    ...(saved.screen ? { screen: saved.screen.data } : {}),
    ...(verdict ? { verdict } : {}),
    ...(exit ? { finished: { ...exit, closed: false, remaining: 0, detached: 0 } } : {}),
  };
  const conversation = !finished && RESUMES.has(saved.agent) && isConversationId(saved.conversation) ? { id: saved.conversation, resume: true } : undefined;
  return {
    spec: saved.spec,
    name: saved.name,
    cwd: saved.cwd,
    ...(saved.env ? { env: saved.env } : {}),
    ...(saved.timing ? { timing: saved.timing } : {}),
    ...(saved.bell !== undefined ? { bell: saved.bell } : {}),
    ...(saved.notify !== undefined ? { notify: saved.notify } : {}),
    ...(saved.escapeKey !== undefined ? { escapeKey: saved.escapeKey } : {}),
    ...(saved.remoteHooks !== undefined ? { remoteHooks: saved.remoteHooks } : {}),
    ...(saved.worktree ? { worktree: saved.worktree } : {}),
    ...(conversation ? { conversation } : {}),
    restored,
    ...(saved.screen ? { size: { cols: saved.screen.cols, rows: saved.screen.rows } } : {}),
    unseen: verdict !== undefined && saved.unseen && verdict.state !== 'exited',
    muted: saved.muted,
  };
}

/** What the restored tile shows from its first instant, if not `starting`. */
function restoredVerdict(saved: SavedTile, exit: SavedTile['exit']): RestoredVerdict | undefined {
  if (exit) {
    const state = saved.state === 'done' || saved.state === 'failed' ? saved.state : 'exited';
    return { state, reason: saved.reason, source: saved.source, exit, ended: true };
  }
  // Only news the user had not seen is carried over; everything else the agent says again.
  if (saved.unseen && (saved.state === 'done' || saved.state === 'failed')) return { state: saved.state, reason: saved.reason, source: saved.source, ended: false };
  return undefined;
}

const HOW: Readonly<Record<Ending | 'killed', string>> = {
  killed: 'belltower was killed',
  quit: 'you quit belltower',
  SIGINT: 'belltower was interrupted',
  SIGTERM: 'belltower was stopped with SIGTERM',
  SIGHUP: 'its terminal closed',
  crash: 'belltower crashed',
};

/**
 * What a restore runs again, a line per tile, then "Restore 3 tiles from 14:02 (belltower was
 * killed)? [Y/n] ". Every command line, folder and variable is shown: a yes runs them.
 */
export function restoreQuestion(state: WorkspaceState, now: Date): string {
  const count = state.tiles.length;
  const lines = state.tiles.map((saved, i) => {
    const what = saved.exit !== undefined ? 'ended: shown as it was, not run' : RESUMES.has(saved.agent) && isConversationId(saved.conversation) ? 'resumes its conversation' : 'runs again';
    const env = Object.entries(saved.env ?? {}).map(([key, value]) => ` ${key}=${value}`).join('');
    return printable(`  ${i + 1} ${saved.name}: ${saved.spec}   in ${saved.cwd}${env ? `   with${env}` : ''}   (${what})`);
  });
  return [...lines, `Restore ${count} ${count === 1 ? 'tile' : 'tiles'} from ${when(new Date(state.savedAt), now)} (${HOW[state.ended ?? 'killed']})? [Y/n] `].join('\n');
}

/** The state should be offered at start: belltower did not end by the user's own q. */
export function offersRestore(state: WorkspaceState): boolean {
  return state.ended !== 'quit' && state.tiles.length > 0;
}

/** 14:02 today; "Nov 30 14:02" another day (local time). */
export function when(at: Date, now: Date): string {
  const hm = `${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`;
  if (at.toDateString() === now.toDateString()) return hm;
  const month = at.toLocaleString('en', { month: 'short' });
  return `${month} ${at.getDate()} ${hm}`;
}
