/**
 * The running tiles of one belltower, however they are shown (headless or the UI): starts them,
 * shares one hook server among them, answers the control socket, restarts and closes them one by
 * one, and ends them all.
 */
import { join, resolve } from 'node:path';
import { parseSpec, SpecError } from '../agents/launch-spec.js';
import type { LaunchSpec } from '../agents/launch-spec.js';
import type { AnswerOutcome } from '../control/control-target.js';
import type { AnswerChoice, TileInfo } from '../control/protocol.js';
import { tileNameProblem } from '../control/tile-name.js';
import type { Logger } from '../platform/logger.js';
import { launchProblem } from '../session/launch-check.js';
import { routePtyWriteErrors } from '../session/pty-write-errors.js';
import { HookServer } from '../sources/hooks/hook-server.js';
import { TERMINAL_SIZE } from '../session/terminal-size.js';
import type { EndTiming } from '../session/end-session.js';
import type { WhyEntry } from '../verdict/state.js';
import type { Timing } from '../verdict/timing.js';
import { probeAgentVersion } from '../agents/agent-version.js';
import type { Conversation } from '../agents/conversation.js';
import { isFolder } from '../platform/paths.js';
import { printable } from '../platform/printable.js';
import { takesRemoteHooks } from '../remote/remote-hooks.js';
import { injects, versionMatters } from './agent-injection.js';
import { answerRequest } from './answer-request.js';
import type { AnswerOptions, AnswerPort } from './answer-request.js';
import { Tile } from './tile.js';
import type { RestoredTile, TileEnd, VerdictChange } from './tile.js';
import type { RingState, TileScreenView, WorkspaceView } from './workspace-view.js';

export interface TileSetOptions {
  cwd: string;
  env: Record<string, string | undefined>;
  cols: number;
  rows: number;
  timing: Timing;
  runtimeDir: string;
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

export interface AddOptions {
  name?: string;
  /** This tile's size (default: the set's). */
  cols?: number;
  rows?: number;
  /** The folder it runs in (default: the set's). */
  cwd?: string;
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

/** A restored tile whose resumed agent exits by itself this soon, and not with 0, could not
 * resume its conversation (an id the agent no longer knows, a deleted session): it starts again
 * with a new one, and says so. */
export const RESUME_GRACE_MS = 15_000;

/** How a tile was launched: what a restart launches again. */
interface Launch {
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
}

export class TileSet implements WorkspaceView {
  readonly tiles: Tile[] = [];
  private hookServer: HookServer | undefined;
  private readonly listeners = new Set<(tile: TileInfo) => void>();
  private readonly changeListeners = new Set<(change: VerdictChange) => void>();
  private readonly ringListeners = new Set<(id: number, state: RingState) => void>();
  private readonly activityListeners = new Set<(id: number) => void>();
  private readonly restartListeners = new Set<(tile: Tile, previous: Tile) => void>();
  private readonly launches = new Map<number, Launch>();
  private readonly stamp = new Date().toISOString().replace(/[:.]/g, '-');
  private nextId = 1;
  /** Adds and restarts under way: a tile is being started, so the set has not ended (a restart
   * ends the old run first, which alone looked like every tile had exited: issue 28). */
  private launching = 0;
  private readonly allExitedWaiters: (() => void)[] = [];

  constructor(private readonly options: TileSetOptions) {
    routePtyWriteErrors(options.logger);
  }

  add(spec: LaunchSpec, options: AddOptions = {}): Promise<Tile> {
    return this.whileLaunching(() => this.addNow(spec, options));
  }

  private async addNow(spec: LaunchSpec, options: AddOptions): Promise<Tile> {
    const tileName = options.name ?? uniqueName(spec.name, this.tiles.map((t) => t.name));
    const tile = await this.launch({
      id: this.nextId++,
      spec,
      name: tileName,
      cwd: options.cwd ?? this.options.cwd,
      env: options.env ? { ...this.options.env, ...options.env } : this.options.env,
      envOverrides: options.env ?? {},
      timing: options.timing ?? this.options.timing,
      cols: options.cols ?? this.options.cols,
      rows: options.rows ?? this.options.rows,
      run: 1,
      ...(options.conversation !== undefined ? { conversation: options.conversation } : {}),
      ...(options.restored ? { restored: options.restored } : {}),
      remoteHooks: options.remoteHooks ?? this.options.remoteHooks ?? false,
    });
    // The old screen is drawn at the size it had before the grid resizes the tile.
    await tile.session.restored;
    this.tiles.push(tile);
    this.changed(tile);
    return tile;
  }

  /** A tile the control socket (or the UI's `a`) asks for: its info, or what is wrong with it. */
  async addTile(spec: string, options: { name?: string; cwd?: string } = {}): Promise<TileInfo | string> {
    let launch: LaunchSpec;
    try {
      launch = parseSpec(spec);
    } catch (error) {
      if (error instanceof SpecError) return error.message;
      throw error;
    }
    const cwd = resolve(this.options.cwd, options.cwd ?? '.');
    if (!isFolder(cwd)) return `no such folder: ${cwd}`;
    const missing = launchProblem(launch.file, cwd, this.options.env);
    if (missing) return missing;
    if (options.name !== undefined) {
      const problem = nameProblem(options.name, this.tiles.map((t) => t.name));
      if (problem) return problem;
    }
    const tile = await this.add(launch, { ...(options.name ? { name: options.name } : {}), cwd });
    return tile.info();
  }

  async closeTile(info: TileInfo): Promise<string | null> {
    if (!this.byId(info.id)) return `no tile ${info.id}`;
    await this.close(info.id);
    return null;
  }

  async restartTile(info: TileInfo): Promise<TileInfo | string> {
    if (!this.byId(info.id)) return `no tile ${info.id}`;
    return (await this.restart(info.id)).info();
  }

  renameTile(info: TileInfo, name: string): TileInfo | string {
    const tile = this.byId(info.id);
    if (!tile) return `no tile ${info.id}`;
    const problem = nameProblem(name, this.tiles.filter((t) => t !== tile).map((t) => t.name));
    if (problem) return problem;
    tile.rename(name);
    this.changed(tile);
    return tile.info();
  }

  /**
   * Run the tile's SPEC again in the same place: same number, name, folder and size. What still
   * runs of the old run is ended first (reported as closed); its screen is freed. Listeners of the
   * set carry over; `onRestart` tells who holds the old Tile (its screen) to take the new one.
   */
  restart(id: number): Promise<Tile> {
    return this.whileLaunching(() => this.restartNow(id));
  }

  private async restartNow(id: number): Promise<Tile> {
    const index = this.tiles.findIndex((t) => t.id === id);
    const previous = this.tiles[index];
    if (!previous) throw new Error(`no tile ${id}`);
    const { cols, rows } = previous.session.screen;
    const size = { cols: previous.session.screen.cols, rows: previous.session.screen.rows };
    await previous.stop();
    // Reconnecting a remote agent whose connection dropped carries on with its conversation.
    const resume = previous.connectionLost ? previous.conversationToResume : null;
    return this.relaunch(index, previous, size, resume ? { conversation: { id: resume, resume: true } } : {});
  }

  /** Launch tile `previous` (ended) again in its place, with a fresh conversation or as told. */
  private async relaunch(index: number, previous: Tile, { cols, rows }: { cols: number; rows: number }, how: { conversation?: Conversation | null; restored?: RestoredTile }): Promise<Tile> {
    const launched = this.launches.get(previous.id);
    const tile = await this.launch({
      id: previous.id,
      spec: previous.spec,
      name: previous.name,
      cwd: previous.cwd,
      env: launched?.env ?? this.options.env,
      envOverrides: launched?.envOverrides ?? {},
      timing: launched?.timing ?? this.options.timing,
      cols,
      rows,
      run: previous.run + 1,
      remoteHooks: launched?.remoteHooks ?? this.options.remoteHooks ?? false,
      ...how,
    });
    this.tiles[index] = tile;
    for (const listener of this.restartListeners) listener(tile, previous);
    return tile;
  }

  /**
   * A resumed agent that gave up at once could not resume its conversation: run it again with a
   * new one, and say so in the tile (above what it prints) and in its info.
   */
  private async resumeFailed(tile: Tile): Promise<void> {
    const end = tile.ended;
    const index = this.tiles.indexOf(tile);
    if (index < 0 || !end || end.closed || end.code === 0 || tile.t() > RESUME_GRACE_MS) return;
    // A remote agent that never got its connection did not refuse the conversation: `r` reconnects.
    if (tile.connectionLost) return;
    const screen = tile.session.screen;
    const said = screen.rowTexts().map((row) => row.trim()).filter((row) => row !== '').slice(-2).join(' ');
    const how = end.code !== null ? `it exited with code ${end.code}` : (end.error ?? `it ended by ${end.signal ?? 'itself'}`);
    const note = `could not resume the conversation ${tile.conversation ?? ''} (${how}${said ? `: ${printable(said).slice(0, 200)}` : ''}); started a new one`;
    this.options.logger('warn', `tile ${tile.id}: ${note}`);
    const size = { cols: screen.cols, rows: screen.rows };
    await this.whileLaunching(async () => {
      await tile.stop();
      if (this.tiles[index] !== tile) return; // closed or restarted meanwhile
      await this.relaunch(index, tile, size, { restored: { note, screen: `\x1b[2m[belltower] ${note}\x1b[0m` } });
    });
  }

  /** Run a launch (an add, a restart): the set has not ended while it is under way. */
  private async whileLaunching<T>(launch: () => Promise<T>): Promise<T> {
    this.launching += 1;
    try {
      return await launch();
    } finally {
      this.launching -= 1;
      this.checkAllExited();
    }
  }

  /** Tell those waiting for the end of every tile, when that has come. */
  private checkAllExited(): void {
    if (this.launching > 0 || this.tiles.some((tile) => !tile.hasExited)) return;
    for (const waiter of this.allExitedWaiters.splice(0)) waiter();
  }

  /** Close one tile: end its processes (reported as closed), free it, and drop it from the set. */
  async close(id: number): Promise<void> {
    const tile = this.tiles.find((t) => t.id === id);
    if (!tile) return;
    await tile.stop();
    const index = this.tiles.indexOf(tile);
    if (index >= 0) this.tiles.splice(index, 1);
    this.launches.delete(id);
    for (const listener of this.listeners) listener(tile.info());
    this.checkAllExited();
  }

  /** A tile was restarted: `tile` replaces `previous` (whose screen is disposed). */
  onRestart(listener: (tile: Tile, previous: Tile) => void): () => void {
    this.restartListeners.add(listener);
    return () => this.restartListeners.delete(listener);
  }

  /** Every bell of every tile: a tile just became done, blocked or failed. */
  onRing(listener: (id: number, state: RingState) => void): () => void {
    this.ringListeners.add(listener);
    return () => this.ringListeners.delete(listener);
  }

  /** A tile's screen parsed output. */
  onActivity(listener: (id: number) => void): () => void {
    this.activityListeners.add(listener);
    return () => this.activityListeners.delete(listener);
  }

  private async launch(at: Launch): Promise<Tile> {
    this.launches.set(at.id, at);
    // A remote agent has hooks only over its connection, when asked for (its version is asked there).
    const wantsHooks = this.options.hooks !== false && (at.spec.remote ? at.remoteHooks && takesRemoteHooks(at.spec.agent) : injects(at.spec.agent));
    if (wantsHooks && !this.hookServer) this.hookServer = await HookServer.start({ logger: this.options.logger });
    // Which hooks an agent takes (and how) depends on its version: ask it, once per launch.
    const agentVersion = wantsHooks && !at.spec.remote && versionMatters(at.spec.agent) ? await probeAgentVersion(at.spec.file, at.env) : undefined;
    const runSuffix = at.run > 1 ? `-run${at.run}` : '';
    const tile = new Tile({
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
      ...(this.options.answerPsp === undefined ? {} : { answerPsp: this.options.answerPsp }),
      hooks: this.options.hooks !== false,
      agentVersion,
      ...(this.hookServer ? { hookServer: this.hookServer } : {}),
      runtimeDir: this.options.runtimeDir,
      ...(this.options.recordDir ? { recordPath: join(this.options.recordDir, `${this.stamp}-${at.id}-${at.name}${runSuffix}.jsonl`) } : {}),
      captureOutput: this.options.captureOutput ?? false,
      ...(this.options.recordText ? { recordText: true } : {}),
      logger: this.options.logger,
      ...(this.options.scrollback !== undefined ? { scrollback: this.options.scrollback } : {}),
      ...(this.options.endTiming ? { endTiming: this.options.endTiming } : {}),
      remoteHooks: at.remoteHooks,
      // From the first verdict: a plain command is working from the instant it starts.
      onChange: (change) => {
        for (const listener of this.changeListeners) listener(change);
        this.changed(change.tile);
      },
      onRing: (t, state) => {
        for (const listener of this.ringListeners) listener(t.id, state as RingState);
      },
    });
    tile.session.screen.onParsed(() => {
      for (const listener of this.activityListeners) listener(tile.id);
    });
    // "restored" goes from the tile's header once its program draws.
    if (tile.showsRestoredScreen) {
      const off = tile.session.onOutput(() => {
        off();
        this.changed(tile);
      });
    }
    if (tile.resumed) void tile.whenExited().then(() => this.resumeFailed(tile));
    // A finished command may already show done when its exit comes: `wait --for exited` still hears it.
    void tile.whenExited().then(() => {
      this.changed(tile);
      this.checkAllExited();
    });
    return tile;
  }

  private changed(tile: Tile): void {
    const info = tile.info();
    for (const listener of this.listeners) listener(info);
  }

  /** Every verdict change of every tile. */
  onVerdict(listener: (change: VerdictChange) => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  /** Resolves once every tile's exit has been reported and no tile is being added or restarted:
   * the tiles of the set at that moment, not those it had when asked (a tile added or restarted
   * since keeps the set running). */
  allExited(): Promise<void> {
    return new Promise((resolve) => {
      this.allExitedWaiters.push(resolve);
      this.checkAllExited();
    });
  }

  /** How each tile ended (undefined: still running), for belltower's exit status. */
  ends(): (TileEnd | undefined)[] {
    return this.tiles.map((tile) => tile.ended);
  }

  /** End every tile (what quitting and every signal do) and the shared hook server. */
  async stop(): Promise<void> {
    await Promise.all(this.tiles.map((tile) => tile.stop()));
    await this.hookServer?.close();
  }

  // ControlTarget
  tileInfos(): TileInfo[] {
    return this.tiles.map((tile) => tile.info());
  }

  send(info: TileInfo, text: string, enter: boolean): string | null {
    const tile = this.tiles.find((t) => t.id === info.id);
    if (!tile) return `no tile ${info.id}`;
    if (tile.hasExited) return `tile ${info.id} (${info.name}) has exited`;
    tile.send(text, enter);
    return null;
  }

  answer(info: TileInfo, answer: AnswerChoice, options: AnswerOptions): Promise<AnswerOutcome> {
    const id = info.id;
    const port: AnswerPort = {
      info: () => this.byId(id)?.info(),
      input: (data) => this.byId(id)?.type(data),
      send: (text, enter) => this.byId(id)?.send(text, enter),
      wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    };
    return answerRequest(port, answer, options);
  }

  why(info: TileInfo): WhyEntry[] {
    return this.tiles.find((t) => t.id === info.id)?.engine.why ?? [];
  }

  onChange(listener: (tile: TileInfo) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  // WorkspaceView
  screenOf(id: number): TileScreenView | undefined {
    return this.byId(id)?.session.screen;
  }

  input(id: number, data: string): void {
    this.byId(id)?.type(data);
  }

  submitted(id: number, local: boolean): void {
    this.byId(id)?.submitted(local);
  }

  seen(id: number): void {
    this.byId(id)?.seen();
  }

  /** A size outside the bound (a terminal wider than 1000 columns) is brought within it. */
  resize(id: number, cols: number, rows: number): void {
    const { minCols, maxCols, minRows, maxRows } = TERMINAL_SIZE;
    this.byId(id)?.resize(Math.min(maxCols, Math.max(minCols, Math.floor(cols))), Math.min(maxRows, Math.max(minRows, Math.floor(rows))));
  }

  private byId(id: number): Tile | undefined {
    return this.tiles.find((t) => t.id === id);
  }

  /** What tile `id` was launched with: the SPEC as given, its folder, its own variables. */
  launchOf(id: number): { spec: string; cwd: string; env: Record<string, string> } | undefined {
    const at = this.launches.get(id);
    return at ? { spec: at.spec.spec, cwd: at.cwd, env: at.envOverrides } : undefined;
  }
}

/** Why `name` cannot name a tile beside the names `taken`, or null. */
export function nameProblem(name: string, taken: readonly string[]): string | null {
  const problem = tileNameProblem(name);
  if (problem) return problem;
  if (taken.includes(name)) return `another tile is already called "${name}"`;
  return null;
}

function uniqueName(base: string, taken: string[]): string {
  if (!taken.includes(base)) return base;
  for (let n = 2; ; n++) if (!taken.includes(`${base}-${n}`)) return `${base}-${n}`;
}
