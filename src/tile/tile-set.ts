/**
 * The running tiles of one belltower, however they are shown (headless or the UI): starts them,
 * shares one hook server among them, answers the control socket, and ends them all.
 */
import { join } from 'node:path';
import type { LaunchSpec } from '../agents/launch-spec.js';
import type { ControlTarget } from '../control/control-target.js';
import type { TileInfo } from '../control/protocol.js';
import type { Logger } from '../platform/logger.js';
import { HookServer } from '../sources/hooks/hook-server.js';
import type { WhyEntry } from '../verdict/state.js';
import type { Timing } from '../verdict/timing.js';
import { probeAgentVersion } from '../agents/agent-version.js';
import { injects, versionMatters } from './agent-injection.js';
import { Tile } from './tile.js';
import type { VerdictChange } from './tile.js';

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
  answerPsp?: boolean;
  hooks?: boolean;
  logger: Logger;
}

export class TileSet implements ControlTarget {
  readonly tiles: Tile[] = [];
  private hookServer: HookServer | undefined;
  private readonly listeners = new Set<(tile: TileInfo) => void>();
  private readonly changeListeners = new Set<(change: VerdictChange) => void>();
  private readonly stamp = new Date().toISOString().replace(/[:.]/g, '-');

  constructor(private readonly options: TileSetOptions) {}

  async add(spec: LaunchSpec, name?: string): Promise<Tile> {
    const wantsHooks = this.options.hooks !== false && injects(spec.agent);
    if (wantsHooks && !this.hookServer) this.hookServer = await HookServer.start({ logger: this.options.logger });
    const agentVersion = wantsHooks && versionMatters(spec.agent) ? await probeAgentVersion(spec.file, this.options.env) : undefined;
    const id = this.tiles.length + 1;
    const tileName = name ?? uniqueName(spec.name, this.tiles.map((t) => t.name));
    const tile = new Tile({
      id,
      spec,
      name: tileName,
      cwd: this.options.cwd,
      env: this.options.env,
      cols: this.options.cols,
      rows: this.options.rows,
      timing: this.options.timing,
      ...(this.options.answerPsp === undefined ? {} : { answerPsp: this.options.answerPsp }),
      hooks: this.options.hooks !== false,
      agentVersion,
      ...(this.hookServer ? { hookServer: this.hookServer } : {}),
      runtimeDir: this.options.runtimeDir,
      ...(this.options.recordDir ? { recordPath: join(this.options.recordDir, `${this.stamp}-${id}-${tileName}.jsonl`) } : {}),
      captureOutput: this.options.captureOutput ?? false,
      logger: this.options.logger,
    });
    tile.onChange((change) => {
      for (const listener of this.changeListeners) listener(change);
      const info = tile.info();
      for (const listener of this.listeners) listener(info);
    });
    this.tiles.push(tile);
    return tile;
  }

  /** Every verdict change of every tile. */
  onVerdict(listener: (change: VerdictChange) => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  /** Resolves when every tile's process has exited. */
  allExited(): Promise<void> {
    return Promise.all(
      this.tiles.map(
        (tile) =>
          new Promise<void>((resolve) => {
            if (tile.hasExited) return resolve();
            tile.session.onExit(() => queueMicrotask(resolve));
          }),
      ),
    ).then(() => undefined);
  }

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

  why(info: TileInfo): WhyEntry[] {
    return this.tiles.find((t) => t.id === info.id)?.engine.why ?? [];
  }

  onChange(listener: (tile: TileInfo) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

function uniqueName(base: string, taken: string[]): string {
  if (!taken.includes(base)) return base;
  for (let n = 2; ; n++) if (!taken.includes(`${base}-${n}`)) return `${base}-${n}`;
}
