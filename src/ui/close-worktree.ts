/**
 * Closing a tile that runs in a worktree belltower made: what to do with the worktree. Keep it
 * (the default: nothing is ever deleted silently), or remove it — which, when removing would lose
 * uncommitted changes or commits on no other branch, shows that loss and needs a second, capital
 * `Y` for exactly it (worktree-remove.ts refuses a loss that changed since it was shown). Pure:
 * the overlay's state after each key, and the effects for the shell.
 */
import type { TileStateName } from '../verdict/state.js';
import { lossWords, nothingLost, type WorktreeLoss } from '../worktree/worktree-remove.js';

export interface CloseWorktreeOverlay {
  readonly type: 'close-worktree';
  readonly tileId: number;
  /** The tile's state when asked (working or blocked is said: closing ends its processes). */
  readonly state: TileStateName;
  readonly path: string;
  readonly branch: string;
  /** `ask`: keep or remove; `reading`: asking git what removing would lose; `confirm`: the loss,
   * shown, waits for its Y. */
  readonly step: 'ask' | 'reading' | 'confirm';
  readonly loss: WorktreeLoss | null;
  readonly error: string | null;
}

export type CloseWorktreeEffect =
  /** Close the tile; with `remove`, then remove its worktree (with the loss the user accepted). */
  | { type: 'close'; tileId: number; remove?: { path: string; repository: string; confirmedLoss?: WorktreeLoss } }
  /** Read what removing the tile's worktree would lose. */
  | { type: 'worktree-loss'; tileId: number; path: string };

export type CloseWorktreeStep = { readonly overlay: CloseWorktreeOverlay | null; readonly effects: CloseWorktreeEffect[]; readonly note?: string };

export function askCloseWorktree(tileId: number, state: TileStateName, worktree: { path: string; branch: string }): CloseWorktreeOverlay {
  return { type: 'close-worktree', tileId, state, path: worktree.path, branch: worktree.branch, step: 'ask', loss: null, error: null };
}

export function closeWorktreeKey(overlay: CloseWorktreeOverlay, key: string): CloseWorktreeStep {
  const cancel: CloseWorktreeStep = { overlay: null, effects: [], note: 'left as it is' };
  if (key === 'escape' || key === 'q') return cancel;
  switch (overlay.step) {
    case 'ask':
      if (key === 'k') return { overlay: null, effects: [{ type: 'close', tileId: overlay.tileId }], note: `tile ${overlay.tileId} closed; its worktree (branch ${overlay.branch}) is kept` };
      if (key === 'r') return { overlay: { ...overlay, step: 'reading', error: null }, effects: [{ type: 'worktree-loss', tileId: overlay.tileId, path: overlay.path }] };
      return { overlay, effects: [] };
    case 'reading':
      return { overlay, effects: [] };
    case 'confirm':
      if (key === 'Y' && overlay.loss) return { overlay: null, effects: [{ type: 'close', tileId: overlay.tileId, remove: { path: overlay.path, repository: overlay.loss.repository, confirmedLoss: overlay.loss } }] };
      if (key === 'k') return { overlay: null, effects: [{ type: 'close', tileId: overlay.tileId }], note: `tile ${overlay.tileId} closed; its worktree (branch ${overlay.branch}) is kept` };
      return { overlay, effects: [] };
  }
}

/** What git said removing would lose (or why it cannot say): nothing lost closes and removes at
 * once; a loss is shown and waits for its Y; an error is shown and only keeping stays open. */
export function lossRead(overlay: CloseWorktreeOverlay, read: { loss: WorktreeLoss } | { error: string }): CloseWorktreeStep {
  if ('error' in read) return { overlay: { ...overlay, step: 'ask', error: read.error }, effects: [] };
  const { loss } = read;
  if (nothingLost(loss)) return { overlay: null, effects: [{ type: 'close', tileId: overlay.tileId, remove: { path: overlay.path, repository: loss.repository } }] };
  return { overlay: { ...overlay, step: 'confirm', loss }, effects: [] };
}

/** The overlay's words: title, lines and footer. */
export function closeWorktreeWords(overlay: CloseWorktreeOverlay): { title: string; lines: { text: string; tone?: 'warn' | 'dim' }[]; footer: string } {
  const busy = overlay.state === 'working' || overlay.state === 'blocked' ? [{ text: `It is ${overlay.state}: closing ends its processes.`, tone: 'warn' as const }] : [];
  const where = { text: `Its worktree: ${overlay.path} (branch ${overlay.branch})` };
  const error = overlay.error ? [{ text: overlay.error, tone: 'warn' as const }] : [];
  switch (overlay.step) {
    case 'ask':
      return { title: `close tile ${overlay.tileId}?`, lines: [...busy, where, ...error], footer: 'k closes it and keeps the worktree · r removes the worktree too · Esc leaves it' };
    case 'reading':
      return { title: `close tile ${overlay.tileId}?`, lines: [...busy, where, { text: 'asking git what removing it would lose…', tone: 'dim' }], footer: 'Esc leaves it' };
    case 'confirm': {
      const loss = overlay.loss!;
      return {
        title: `remove tile ${overlay.tileId}'s worktree?`,
        lines: [
          ...busy,
          where,
          { text: `Removing it loses ${lossWords(loss, 5)}.`, tone: 'warn' },
          ...(loss.ignored.count > 0 ? [{ text: `Also deleted: ${loss.ignored.count} ignored ${loss.ignored.count === 1 ? 'file' : 'files'} (${loss.ignored.files.slice(0, 3).join(', ')}${loss.ignored.count > 3 ? ', …' : ''}).`, tone: 'dim' as const }] : []),
        ],
        footer: 'Y removes it and loses that · k closes the tile and keeps the worktree · Esc leaves both',
      };
    }
  }
}
