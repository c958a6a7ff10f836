/**
 * The running tiles of one belltower, however they are shown (headless or the UI): starts them,
 * shares one hook server among them, answers the control socket, restarts and closes them one by
 * one, and ends them all.
 */
import type { LaunchSpec } from '../agents/launch-spec.js';
import type { Conversation } from '../agents/conversation.js';
import type { AnswerOutcome } from '../control/control-target.js';
import type { AnswerChoice, TileInfo } from '../control/protocol.js';
import { subscribe } from '../session/listeners.js';
import { routePtyWriteErrors } from '../session/pty-write-errors.js';
import { TERMINAL_SIZE } from '../session/terminal-size.js';
import type { WhyEntry } from '../verdict/state.js';
import { readAddRequest, tileWorktree } from './add-request.js';
import { AllExited } from './all-exited.js';
import { answerRequest } from './answer-request.js';
import type { AnswerOptions, AnswerPort } from './answer-request.js';
import type { Tile } from './tile.js';
import type { RestoredTile, TileEnd, VerdictChange } from './tile.js';
import { resumeFailure } from './resume-failure.js';
import { nameProblem, uniqueName } from './tile-names.js';
import { firstLaunch, nextLaunch, TileStarter } from './tile-starter.js';
import type { AddOptions, Launch, TileSetOptions } from './tile-starter.js';
import type { RingState, TileScreenView, WorkspaceView } from './workspace-view.js';

export { nameProblem } from './tile-names.js';
export type { AddOptions, TileSetOptions } from './tile-starter.js';

export class TileSet implements WorkspaceView {
  readonly tiles: Tile[] = [];
  private readonly starter: TileStarter;
  private readonly listeners = new Set<(tile: TileInfo) => void>();
  private readonly changeListeners = new Set<(change: VerdictChange) => void>();
  private readonly ringListeners = new Set<(id: number, state: RingState) => void>();
  private readonly activityListeners = new Set<(id: number) => void>();
  private readonly restartListeners = new Set<(tile: Tile, previous: Tile) => void>();
  private readonly launches = new Map<number, Launch>();
  private nextId = 1;
  private readonly ending = new AllExited(() => this.tiles.every((tile) => tile.hasExited));

  constructor(private readonly options: TileSetOptions) {
    routePtyWriteErrors(options.logger);
    this.starter = new TileStarter(options);
  }

  add(spec: LaunchSpec, options: AddOptions = {}): Promise<Tile> {
    return this.ending.during(() => this.addNow(spec, options));
  }

  private async addNow(spec: LaunchSpec, options: AddOptions): Promise<Tile> {
    const name = options.name ?? uniqueName(spec.name, this.tiles.map((t) => t.name));
    const tile = await this.launch(firstLaunch(this.nextId++, spec, name, options, this.options));
    // The old screen is drawn at the size it had before the grid resizes the tile.
    await tile.session.restored;
    this.tiles.push(tile);
    this.changed(tile);
    return tile;
  }

  /** A tile the control socket (or the UI's `a`) asks for: its info, or what is wrong with it. */
  async addTile(spec: string, options: { name?: string; cwd?: string; worktree?: { branch?: string; base?: string } } = {}): Promise<TileInfo | string> {
    const request = readAddRequest(spec, options, { cwd: this.options.cwd, env: this.options.env, names: this.tiles.map((t) => t.name) });
    if (typeof request === 'string') return request;
    const { launch, cwd } = request;
    const worktree = options.worktree ? await tileWorktree(launch, cwd, { ...options.worktree, hint: options.name ?? launch.name }, this.options) : undefined;
    if (typeof worktree === 'string') return worktree;
    const tile = await this.add(launch, { ...(options.name ? { name: options.name } : {}), cwd: worktree?.path ?? cwd, ...(worktree ? { worktree } : {}) });
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
    return this.ending.during(() => this.restartNow(id));
  }

  private async restartNow(id: number): Promise<Tile> {
    const index = this.tiles.findIndex((t) => t.id === id);
    const previous = this.tiles[index];
    if (!previous) throw new Error(`no tile ${id}`);
    const size = { cols: previous.session.screen.cols, rows: previous.session.screen.rows };
    await previous.stop();
    // Reconnecting a remote agent whose connection dropped carries on with its conversation.
    const resume = previous.connectionLost ? previous.conversationToResume : null;
    return this.relaunch(index, previous, size, resume ? { conversation: { id: resume, resume: true } } : {});
  }

  /** Launch tile `previous` (ended) again in its place, with a fresh conversation or as told. */
  private async relaunch(index: number, previous: Tile, size: { cols: number; rows: number }, how: { conversation?: Conversation | null; restored?: RestoredTile }): Promise<Tile> {
    const tile = await this.launch(nextLaunch(previous, this.launches.get(previous.id), size, how, this.options));
    this.tiles[index] = tile;
    for (const listener of this.restartListeners) listener(tile, previous);
    return tile;
  }

  /**
   * A resumed agent that gave up at once could not resume its conversation: run it again with a
   * new one, and say so in the tile (above what it prints) and in its info.
   */
  private async resumeFailed(tile: Tile): Promise<void> {
    const index = this.tiles.indexOf(tile);
    const note = index < 0 ? null : resumeFailure(tile);
    if (note === null) return;
    this.options.logger('warn', `tile ${tile.id}: ${note}`);
    const screen = tile.session.screen;
    const size = { cols: screen.cols, rows: screen.rows };
    await this.ending.during(async () => {
      await tile.stop();
      if (this.tiles[index] !== tile) return; // closed or restarted meanwhile
      await this.relaunch(index, tile, size, { restored: { note, screen: `\x1b[2m[belltower] ${note}\x1b[0m` } });
    });
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
    this.ending.check();
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
    return subscribe(this.activityListeners, listener);
  }

  private async launch(at: Launch): Promise<Tile> {
    this.launches.set(at.id, at);
    const tile = await this.starter.start(at, {
      // From the first verdict: a plain command is working from the instant it starts.
      onChange: (change) => {
        for (const listener of this.changeListeners) listener(change);
        this.changed(change.tile);
      },
      onRing: (t, state) => {
        for (const listener of this.ringListeners) listener(t.id, state as RingState);
      },
      onInfo: (t) => this.changed(t),
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
      this.ending.check();
    });
    return tile;
  }

  private changed(tile: Tile): void {
    const info = tile.info();
    for (const listener of this.listeners) listener(info);
  }

  /** Every verdict change of every tile. */
  onVerdict(listener: (change: VerdictChange) => void): () => void {
    return subscribe(this.changeListeners, listener);
  }

  /** Resolves once every tile's exit has been reported and no tile is being added or restarted:
   * the tiles of the set at that moment, not those it had when asked (a tile added or restarted
   * since keeps the set running). */
  allExited(): Promise<void> {
    return this.ending.wait();
  }

  /** How each tile ended (undefined: still running), for belltower's exit status. */
  ends(): (TileEnd | undefined)[] {
    return this.tiles.map((tile) => tile.ended);
  }

  /** End every tile (what quitting and every signal do) and the shared hook server. */
  async stop(): Promise<void> {
    await Promise.all(this.tiles.map((tile) => tile.stop()));
    await this.starter.close();
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
    return subscribe(this.listeners, listener);
  }

  // WorkspaceView
  screenOf(id: number): TileScreenView | undefined {
    return this.byId(id)?.session.screen;
  }

  input(id: number, data: string): void {
    this.byId(id)?.type(data);
  }

  /** The program's pty master while it runs and takes input (Session.keyboardFd). */
  keyboardFd(id: number): number | undefined {
    return this.byId(id)?.session.keyboardFd;
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
