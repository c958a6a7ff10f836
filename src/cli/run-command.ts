/**
 * `belltower run --headless [SPEC...]`: the sessions run without a UI; every verdict change is one
 * JSON line on stdout. Exits when every session has exited, or on SIGINT, SIGTERM or SIGHUP after
 * ending every process of every tile; the exit status follows the README's table (platform/exit-codes.ts).
 */
import { join, resolve } from 'node:path';
import { ControlServer, ControlServerError } from '../control/control-server.js';
import { socketPath } from '../control/socket-path.js';
import { sweepOrphans } from '../agents/session-folder.js';
import { fileLogger } from '../platform/file-logger.js';
import { belltowerDirs } from '../platform/state-dir.js';
import { verdictRow } from '../record/verdict-row.js';
import { sizeProblem, TERMINAL_SIZE } from '../session/terminal-size.js';
import { tileWorktree } from '../tile/add-request.js';
import { TileSet } from '../tile/tile-set.js';
import type { VerdictChange } from '../tile/tile.js';
import { resolveTiming } from '../verdict/timing.js';
import { loadWorkspace } from '../workspace/workspace-file.js';
import { EXIT, exitStatus } from '../platform/exit-codes.js';
import { admitWorkspace } from './workspace-trust.js';
import type { EndingSignal } from '../platform/exit-codes.js';
import type { Output } from './output.js';
import { prepareRun, tileSetBase, withWorkspaceTiming } from './run-setup.js';
import type { CommonRunFlags } from './run-setup.js';

export interface RunFlags extends CommonRunFlags {
  headless?: boolean;
  /** A workspace file whose tiles run before the SPECs (it must be trusted). */
  config?: string;
  cols?: string;
  rows?: string;
}

export const DEFAULT_SPEC = 'claude';

export interface RunStyle {
  /** How a verdict change is printed (default: the JSON line contract). */
  format?: (change: VerdictChange) => string;
  /** End the sessions after this long (the demo). */
  stopAfterMs?: number;
  /** Tile names, in SPEC order (default: from the command). */
  names?: string[];
  /** Per tile, in SPEC order: what a workspace file gives it beyond its SPEC. */
  tiles?: readonly HeadlessTile[];
}

export interface HeadlessTile {
  name?: string;
  cwd?: string;
  env?: Record<string, string>;
  timing?: Record<string, number>;
  remoteHooks?: boolean;
  /** A workspace file's `worktree` (see WorkspaceTile). */
  newWorktree?: { branch?: string };
}

/** `run --headless --config FILE [SPEC...]`: the file's tiles first, once it is trusted — there is
 * no question without a terminal: an untrusted file is refused with the command that trusts it. */
export async function runHeadlessWorkspace(specs: string[], flags: RunFlags, out: Output, cwd = process.cwd()): Promise<number> {
  if (flags.config === undefined) return runHeadless(specs, flags, out);
  const loaded = loadWorkspace(resolve(cwd, flags.config), flags.config);
  if (!loaded.ok) {
    for (const error of loaded.errors) out.error(`belltower: ${error}`);
    out.error('belltower: nothing started; fix the workspace file');
    return EXIT.usage;
  }
  const { workspace } = loaded;
  const refused = await admitWorkspace(workspace, flags.config, { ask: null, show: () => {}, out });
  if (refused !== null) return refused;
  const timing = withWorkspaceTiming(workspace.timing, flags.timing);
  const tiles: HeadlessTile[] = [
    ...workspace.tiles.map((t) => ({
      ...(t.name ? { name: t.name } : {}),
      cwd: t.cwd,
      env: t.env,
      timing: t.timing,
      ...(t.remoteHooks !== undefined ? { remoteHooks: t.remoteHooks } : {}),
      ...(t.newWorktree ? { newWorktree: t.newWorktree } : {}),
    })),
    ...specs.map(() => ({})),
  ];
  return runHeadless([...workspace.tiles.map((t) => t.spec), ...specs], { ...flags, timing }, out, { tiles });
}

export async function runHeadless(specs: string[], flags: RunFlags, out: Output, style: RunStyle = {}): Promise<number> {
  const setup = prepareRun(specs.length > 0 ? specs : [DEFAULT_SPEC], flags, `headless-${process.pid}`);
  if ('error' in setup) {
    out.error(`belltower: ${setup.error}`);
    return EXIT.usage;
  }
  const { launches, timing, session } = setup;
  const cols = Number(flags.cols ?? 120);
  const rows = Number(flags.rows ?? 40);
  if (sizeProblem(cols, rows)) {
    const { minCols, maxCols, minRows, maxRows } = TERMINAL_SIZE;
    out.error(`belltower: --cols takes ${minCols}–${maxCols} and --rows ${minRows}–${maxRows} (got ${flags.cols ?? cols}×${flags.rows ?? rows})`);
    return EXIT.usage;
  }
  const dirs = belltowerDirs();
  const log = fileLogger(join(dirs.log, 'belltower.log'));

  const tiles = new TileSet({
    cwd: process.cwd(),
    env: process.env,
    cols,
    rows,
    timing,
    ...tileSetBase(flags, dirs.runtime),
    logger: log,
  });
  tiles.onVerdict((change) => out.line((style.format ?? verdictJson)(change)));

  let stopping: Promise<void> | undefined;
  const stop = (why: string): Promise<void> => {
    stopping ??= (async () => {
      log('info', `headless stop: ${why}`);
      await tiles.stop();
    })();
    return stopping;
  };
  // Listening for signals before anything can be reached: a SIGTERM the instant the socket
  // appears must end the tiles, not kill belltower and orphan them.
  let endedBy: EndingSignal | null = null;
  const onSignal = (signal: NodeJS.Signals) => {
    endedBy ??= signal as EndingSignal;
    void stop(signal);
  };
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const signal of signals) process.on(signal, onSignal);
  const unlisten = () => {
    for (const signal of signals) process.off(signal, onSignal);
  };

  let control: ControlServer | undefined;
  try {
    control = await ControlServer.listen(socketPath(dirs.runtime, session), tiles);
  } catch (error) {
    unlisten();
    if (error instanceof ControlServerError) {
      out.error(`belltower: ${error.message}`);
      return EXIT.usage;
    }
    throw error;
  }
  sweepOrphans(dirs.runtime, Date.now(), { logger: log });
  log('info', 'headless start', { session, specs: launches.map((l) => l.spec), socket: control.path });

  const timer = style.stopAfterMs === undefined ? undefined : setTimeout(() => void stop('time is up'), style.stopAfterMs);
  try {
    for (const [i, launch] of launches.entries()) {
      if (stopping) break;
      const extra = style.tiles?.[i] ?? {};
      const own = extra.timing && Object.keys(extra.timing).length > 0 ? resolveTiming({ ...timing, ...extra.timing }) : undefined;
      // A workspace file's `worktree`: the one made for it before, or a new one; a refusal starts
      // nothing for this tile and is said on stderr.
      const worktree = extra.newWorktree ? await tileWorktree(launch, extra.cwd ?? process.cwd(), { ...extra.newWorktree, hint: extra.name ?? launch.name, reuse: true }, { env: process.env }) : undefined;
      if (typeof worktree === 'string') {
        out.error(`belltower: not started: tile ${i + 1}${extra.name ? ` ${extra.name}` : ''}: ${worktree}`);
        continue;
      }
      const tile = await tiles.add(launch, {
        name: extra.name ?? style.names?.[i],
        ...(worktree ? { cwd: worktree.path, worktree } : extra.cwd ? { cwd: extra.cwd } : {}),
        ...(extra.env ? { env: extra.env } : {}),
        ...(own ? { timing: own } : {}),
        ...(extra.remoteHooks !== undefined && !flags.remoteHooks ? { remoteHooks: extra.remoteHooks } : {}),
      });
      // A signal that came while this tile was starting ended only the tiles before it.
      if (stopping) void tile.stop();
    }
    await tiles.allExited();
    if (timer) clearTimeout(timer);
    await stop('every session exited');
  } catch (error) {
    // A tile that cannot start (its recording cannot be written) ends the ones already running.
    if (timer) clearTimeout(timer);
    await stop(`a tile could not start: ${String(error)}`);
    throw error;
  } finally {
    unlisten();
    await control.close();
  }
  const status = exitStatus(endedBy, tiles.ends());
  log('info', `headless exit ${status}`, { endedBy });
  return status;
}

/** The verdict line of the command line contract. */
export function verdictJson({ tile, from, verdict }: VerdictChange): string {
  return JSON.stringify(verdictRow(tile.id, tile.name, from, verdict));
}
