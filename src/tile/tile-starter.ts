/**
 * Starting the tiles of one set: what every launch shares (the set's options, one hook server,
 * started when the first tile that takes hooks needs it), what each asks first (the agent's
 * `--version`, which decides the hooks it takes), and the Tile it makes. Owns the hook server.
 */
import { join } from 'node:path';
import { probeAgentVersion } from '../agents/agent-version.js';
import type { Conversation } from '../agents/conversation.js';
import { firstPartyFor } from '../agents/first-party/registry.js';
import type { LaunchSpec } from '../agents/launch-spec.js';
import type { Logger } from '../platform/logger.js';
import type { EndTiming } from '../session/end-session.js';
import { HookServer } from '../sources/hooks/hook-server.js';
import type { Timing } from '../verdict/timing.js';
import type { Worktree } from '../worktree/worktree-create.js';
import { Tile } from './tile.js';
import { countingQueue, type ChangesCounter } from './tile-changes.js';
import type { RestoredTile, TileOptions } from './tile.js';

export interface TileSetOptions {
  cwd: string;
  env: Record<string, string | undefined>;
  /** The tiles' changes are not counted before it settles (the grid's first frame). */
  changesAfter?: Promise<unknown>;
  cols: number;
  rows: number;
  timing: Timing;
  runtimeDir: string;
  /** belltower's state folder, where tiles' worktrees go (default: from the environment). */
  stateDir?: string;
  /** Folder for recordings (one file per tile), or none. */
  recordDir?: string;
  captureOutput?: boolean;
  /** Record the agents' text as received (see Tile). */
  recordText?: boolean;
  answerPsp?: boolean;
  hooks?: boolean;
  logger: Logger;
  /** Lines of output each tile keeps above its screen (default: the screen's, 1000). */
  scrollback?: number;
  /** How long ending a tile's processes waits at each step (default DEFAULT_END_TIMING). */
  endTiming?: EndTiming;
  /** Remote Claude tiles get hooks over their ssh connection (`--remote-hooks`). */
  remoteHooks?: boolean;
}

/** How a tile was launched: what a restart launches again. */
export interface Launch {
  id: number;
  spec: LaunchSpec;
  name: string;
  cwd: string;
  env: Record<string, string | undefined>;
  /** The variables this tile adds to the set's environment (what a restore launches it with). */
  envOverrides: Record<string, string>;
  timing: Timing;
  cols: number;
  rows: number;
  run: number;
  conversation?: Conversation | null;
  restored?: RestoredTile;
  remoteHooks: boolean;
  /** The git worktree made for this tile (its cwd): kept across restarts. */
  worktree?: Worktree;
}

export interface AddOptions {
  name?: string;
  /** This tile's size (default: the set's). */
  cols?: number;
  rows?: number;
  /** The folder it runs in (default: the set's). */
  cwd?: string;
  /** The git worktree `cwd` is (made for this tile). */
  worktree?: Worktree;
  /** Variables added to the set's environment for this tile. */
  env?: Record<string, string>;
  /** This tile's timing (default: the set's). */
  timing?: Timing;
  /** The agent's conversation to resume (default: a fresh one). */
  conversation?: Conversation | null;
  /** What the tile showed before belltower restarted. */
  restored?: RestoredTile;
  /** Hooks over ssh for this remote tile (default: the set's). */
  remoteHooks?: boolean;
}

/** The first run of a tile the set adds. */
export function firstLaunch(id: number, spec: LaunchSpec, name: string, options: AddOptions, set: TileSetOptions): Launch {
  return {
    id,
    spec,
    name,
    cwd: options.cwd ?? set.cwd,
    env: options.env ? { ...set.env, ...options.env } : set.env,
    envOverrides: options.env ?? {},
    timing: options.timing ?? set.timing,
    cols: options.cols ?? set.cols,
    rows: options.rows ?? set.rows,
    run: 1,
    ...(options.conversation !== undefined ? { conversation: options.conversation } : {}),
    ...(options.restored ? { restored: options.restored } : {}),
    remoteHooks: options.remoteHooks ?? set.remoteHooks ?? false,
    ...(options.worktree ? { worktree: options.worktree } : {}),
  };
}

/** The next run of tile `previous` (launched as `launched`) in its place, at its size, with a fresh
 * conversation or as told. */
export function nextLaunch(
  previous: Pick<Tile, 'id' | 'spec' | 'name' | 'cwd' | 'run'>,
  launched: Launch | undefined,
  { cols, rows }: { cols: number; rows: number },
  how: { conversation?: Conversation | null; restored?: RestoredTile },
  set: TileSetOptions,
): Launch {
  return {
    id: previous.id,
    spec: previous.spec,
    name: previous.name,
    cwd: previous.cwd,
    env: launched?.env ?? set.env,
    envOverrides: launched?.envOverrides ?? {},
    timing: launched?.timing ?? set.timing,
    cols,
    rows,
    run: previous.run + 1,
    remoteHooks: launched?.remoteHooks ?? set.remoteHooks ?? false,
    ...(launched?.worktree ? { worktree: launched.worktree } : {}),
    ...how,
  };
}

export class TileStarter {
  private hookServer: HookServer | undefined;
  private readonly stamp = new Date().toISOString().replace(/[:.]/g, '-');
  /** Every tile's changes are counted through it: two git runs at a time for the whole set. */
  private readonly changes: ChangesCounter;

  constructor(private readonly options: TileSetOptions) {
    this.changes = countingQueue(options.env, 2, Date.now, options.changesAfter);
  }

  /** The tile of launch `at`, its listeners given (from its first verdict on). */
  async start(at: Launch, listeners: Pick<TileOptions, 'onChange' | 'onRing' | 'onInfo'>): Promise<Tile> {
    const { options } = this;
    const wiring = firstPartyFor(at.spec.agent);
    // A remote agent has hooks only over its connection, when asked for (its version is asked there).
    const wantsHooks = options.hooks !== false && (at.spec.remote ? at.remoteHooks && wiring?.remoteHooks !== undefined : wiring !== null);
    if (wantsHooks && !this.hookServer) this.hookServer = await HookServer.start({ logger: options.logger });
    // Which hooks an agent takes (and how) depends on its version: ask it, once per launch.
    const agentVersion = wantsHooks && !at.spec.remote && wiring?.versionMatters ? await probeAgentVersion(at.spec.file, at.env) : undefined;
    const runSuffix = at.run > 1 ? `-run${at.run}` : '';
    return new Tile({
      ...(at.conversation !== undefined ? { conversation: at.conversation } : {}),
      ...(at.restored ? { restored: at.restored } : {}),
      id: at.id,
      spec: at.spec,
      name: at.name,
      run: at.run,
      cwd: at.cwd,
      env: at.env,
      cols: at.cols,
      rows: at.rows,
      timing: at.timing,
      ...(options.answerPsp === undefined ? {} : { answerPsp: options.answerPsp }),
      hooks: options.hooks !== false,
      agentVersion,
      ...(this.hookServer ? { hookServer: this.hookServer } : {}),
      runtimeDir: options.runtimeDir,
      ...(options.recordDir ? { recordPath: join(options.recordDir, `${this.stamp}-${at.id}-${at.name}${runSuffix}.jsonl`) } : {}),
      captureOutput: options.captureOutput ?? false,
      ...(options.recordText ? { recordText: true } : {}),
      logger: options.logger,
      ...(options.scrollback !== undefined ? { scrollback: options.scrollback } : {}),
      ...(options.endTiming ? { endTiming: options.endTiming } : {}),
      remoteHooks: at.remoteHooks,
      ...(at.worktree ? { worktree: at.worktree } : {}),
      changes: this.changes,
      ...listeners,
    });
  }

  /** The shared hook server ends after the tiles it served. */
  async close(): Promise<void> {
    await this.hookServer?.close();
  }
}
