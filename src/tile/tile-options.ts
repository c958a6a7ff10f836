/** What a tile is started with (its listeners aside: tile.ts), and what a restored one shows. */
import type { Conversation } from '../agents/conversation.js';
import type { LaunchSpec } from '../agents/launch-spec.js';
import type { Logger } from '../platform/logger.js';
import type { EndTiming } from '../session/end-session.js';
import type { HookServer } from '../sources/hooks/hook-server.js';
import type { RestoredVerdict } from '../verdict/state.js';
import type { Timing } from '../verdict/timing.js';
import type { Worktree } from '../worktree/worktree-create.js';
import type { TileEnd } from './tile-end.js';
import type { ChangesCounter } from './tile-changes.js';

export interface TileSetup {
  id: number;
  spec: LaunchSpec;
  name?: string;
  cwd: string;
  /** The git worktree `cwd` is, made for this tile. */
  worktree?: Worktree;
  env: Record<string, string | undefined>;
  cols: number;
  rows: number;
  timing: Timing;
  /** Answer the OSC 7501 query (default: the profile's choice). */
  answerPsp?: boolean;
  /** Inject belltower's hooks where the agent has them (default true). */
  hooks?: boolean;
  /** The agent's `--version`, when known: what is injected may depend on it. */
  agentVersion?: string | undefined;
  hookServer?: HookServer;
  /** Parent folder of per-tile private folders (hook settings, relay). */
  runtimeDir: string;
  /** Write a recording here (a file path), with pty output when captureOutput. */
  recordPath?: string;
  captureOutput?: boolean;
  /** Record the agents' text as received (prompts, replies, titles, messages): off by default. */
  recordText?: boolean;
  logger: Logger;
  /** Lines of output kept above the screen (default: the screen's). */
  scrollback?: number;
  /** The tile's clock: milliseconds since an epoch (Date.now by default). */
  now?: () => number;
  /** How long ending the tile's processes waits at each step (default DEFAULT_END_TIMING). */
  endTiming?: EndTiming;
  /** Which run of this tile this is (1 for the first; a restart counts up): keeps its hook key,
   * its recording and its process marker apart from the earlier runs'. */
  run?: number;
  /** The agent's conversation to start or resume (default: a fresh one, where the agent takes an
   * id from belltower; null: none). */
  conversation?: Conversation | null;
  /** What the tile showed before belltower restarted. */
  restored?: RestoredTile;
  /** A remote Claude gets belltower's hooks over its ssh connection (`--remote-hooks`). */
  remoteHooks?: boolean;
  /** Counts its folder's changes for its header (tile-changes.ts); absent: none counted. */
  changes?: ChangesCounter;
}

/** A tile brought back after belltower restarted (src/restore/). */
export interface RestoredTile {
  /** Its last screen (Screen.snapshot), drawn before its program's first byte. */
  screen?: string;
  /** An unseen done or failed turn, or how a finished process ended: shown without a ring. */
  verdict?: RestoredVerdict;
  /** Its process had ended: the tile shows its last screen and how it ended, and runs nothing
   * (restarting it runs it again). */
  finished?: TileEnd;
  /** belltower's own word about the restore ("could not resume the conversation: …"). */
  note?: string;
}
