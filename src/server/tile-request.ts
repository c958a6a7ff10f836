/**
 * One tile the grid is asked to open — from the workspace file, a SPEC on the command line, or a
 * restore — with everything it carries beyond its SPEC.
 */
import type { Conversation } from '../agents/conversation.js';
import type { RestoredTile } from '../tile/tile.js';
import type { Worktree } from '../worktree/worktree-create.js';

/** One tile to open: from the workspace file, or a SPEC on the command line. */
export interface TileRequest {
  spec: string;
  name?: string;
  cwd: string;
  env?: Record<string, string>;
  bell?: boolean;
  notify?: boolean;
  escapeKey?: string;
  /** Hooks over ssh for a remote tile (`--remote-hooks` on the command line turns them on for all). */
  remoteHooks?: boolean;
  /** Timing overrides for this tile, over the ones for all. */
  timing?: Record<string, number>;
  /** Given on the command line: kept beside a restored workspace (the workspace file's are not). */
  fromCommandLine?: boolean;
  /** A restored tile: the conversation it resumes, what it showed, the size of its saved screen,
   * and whether it is still unseen or muted. */
  conversation?: Conversation;
  restored?: RestoredTile;
  /** The git worktree a restored tile runs in (its cwd). */
  worktree?: Worktree;
  /** A workspace file's `worktree`: the git worktree to start it in (made, or the one made before). */
  newWorktree?: { branch?: string };
  size?: { cols: number; rows: number };
  unseen?: boolean;
  muted?: boolean;
}
