/**
 * `belltower run --headless [SPEC...]`: the sessions run without a UI; every verdict change is one
 * JSON line on stdout. Exits when every session has exited, or on SIGINT/SIGTERM after ending them.
 */
import { accessSync, constants } from 'node:fs';
import { join } from 'node:path';
import { parseSpec, SpecError } from '../agents/launch-spec.js';
import type { LaunchSpec } from '../agents/launch-spec.js';
import { ControlServer, ControlServerError } from '../control/control-server.js';
import { checkSessionName, socketPath } from '../control/socket-path.js';
import { sweepOrphans } from '../agents/session-folder.js';
import { fileLogger } from '../platform/file-logger.js';
import { ensureOwnDir, PrivateDirError } from '../platform/private-dir.js';
import { belltowerDirs } from '../platform/state-dir.js';
import { sizeProblem, TERMINAL_SIZE } from '../session/terminal-size.js';
import { verdictRow } from '../record/verdict-row.js';
import { TileSet } from '../tile/tile-set.js';
import type { VerdictChange } from '../tile/tile.js';
import { resolveTiming, TimingError } from '../verdict/timing.js';
import type { Output } from './output.js';

export interface RunFlags {
  headless?: boolean;
  session?: string;
  cols?: string;
  rows?: string;
  record?: string;
  captureOutput?: boolean;
  recordText?: boolean;
  psp?: boolean;
  hooks?: boolean;
  timing?: string[];
}

export const DEFAULT_SPEC = 'claude';

export interface RunStyle {
  /** How a verdict change is printed (default: the JSON line contract). */
  format?: (change: VerdictChange) => string;
  /** End the sessions after this long (the demo). */
  stopAfterMs?: number;
  /** Tile names, in SPEC order (default: from the command). */
  names?: string[];
}

export async function runHeadless(specs: string[], flags: RunFlags, out: Output, style: RunStyle = {}): Promise<number> {
  const dirs = belltowerDirs();
  const log = fileLogger(join(dirs.log, 'belltower.log'));
  let launches: LaunchSpec[];
  let timing;
  try {
    launches = (specs.length > 0 ? specs : [DEFAULT_SPEC]).map((spec) => parseSpec(spec));
    timing = resolveTiming(parseTimingFlags(flags.timing ?? []));
  } catch (error) {
    if (error instanceof SpecError || error instanceof TimingError) {
      out.error(`belltower: ${error.message}`);
      return 2;
    }
    throw error;
  }
  const cols = Number(flags.cols ?? 120);
  const rows = Number(flags.rows ?? 40);
  if (sizeProblem(cols, rows)) {
    const { minCols, maxCols, minRows, maxRows } = TERMINAL_SIZE;
    out.error(`belltower: --cols takes ${minCols}–${maxCols} and --rows ${minRows}–${maxRows} (got ${flags.cols ?? cols}×${flags.rows ?? rows})`);
    return 2;
  }
  if (flags.record) {
    const problem = recordDirProblem(flags.record);
    if (problem) {
      out.error(`belltower: --record ${flags.record}: ${problem}`);
      return 2;
    }
  }
  const session = flags.session ?? `headless-${process.pid}`;
  const badName = checkSessionName(session);
  if (badName) {
    out.error(`belltower: ${badName}`);
    return 2;
  }

  const tiles = new TileSet({
    cwd: process.cwd(),
    env: process.env,
    cols,
    rows,
    timing,
    runtimeDir: dirs.runtime,
    ...(flags.record ? { recordDir: flags.record } : {}),
    captureOutput: flags.captureOutput ?? false,
    ...(flags.recordText ? { recordText: true } : {}),
    ...(flags.psp === false ? { answerPsp: false } : {}),
    hooks: flags.hooks !== false,
    logger: log,
  });
  tiles.onVerdict((change) => out.line((style.format ?? verdictJson)(change)));

  // Signals are ours from before the socket exists: a SIGTERM while starting (a script that saw
  // the socket appear) ends the sessions cleanly instead of killing belltower with them running.
  let stopping = false;
  const stop = async (why: string) => {
    if (stopping) return;
    stopping = true;
    log('info', `headless stop: ${why}`);
    await tiles.stop();
  };
  const onSignal = (signal: NodeJS.Signals) => void stop(signal);
  const signals = (on: boolean) => {
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
      if (on) process.on(signal, onSignal);
      else process.off(signal, onSignal);
    }
  };
  signals(true);

  let control: ControlServer | undefined;
  try {
    control = await ControlServer.listen(socketPath(dirs.runtime, session), tiles);
  } catch (error) {
    signals(false);
    if (error instanceof ControlServerError) {
      out.error(`belltower: ${error.message}`);
      return 2;
    }
    throw error;
  }
  sweepOrphans(dirs.runtime, Date.now(), { logger: log });
  log('info', 'headless start', { session, specs: launches.map((l) => l.spec), socket: control.path });

  const timer = style.stopAfterMs === undefined ? undefined : setTimeout(() => void stop('time is up'), style.stopAfterMs);
  try {
    for (const [i, launch] of launches.entries()) {
      if (stopping) break;
      await tiles.add(launch, style.names?.[i]);
    }
    // A stop that came while a tile was being added did not see that tile: end it too.
    if (stopping) await tiles.stop();
    await tiles.allExited();
    if (timer) clearTimeout(timer);
    await stop('every session exited');
  } catch (error) {
    // A tile that cannot start (its recording cannot be written) ends the ones already running.
    if (timer) clearTimeout(timer);
    await stop(`a tile could not start: ${String(error)}`);
    throw error;
  } finally {
    signals(false);
    await control.close();
  }
  return 0;
}

/** Why recordings cannot be written into `dir` (created if missing, 0700), or null. The folder
 * must be the user's and not writable by others (unless sticky): see Recorder for the files. */
function recordDirProblem(dir: string): string | null {
  try {
    ensureOwnDir(dir);
    accessSync(dir, constants.W_OK);
    return null;
  } catch (error) {
    if (error instanceof PrivateDirError) return error.message;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return 'not writable';
    return (error as Error).message;
  }
}

/** The verdict line of the command line contract. */
export function verdictJson({ tile, from, verdict }: VerdictChange): string {
  return JSON.stringify(verdictRow(tile.id, tile.name, from, verdict));
}

/** `--timing conflictWindowMs=1000` → { conflictWindowMs: 1000 } (validated by resolveTiming). */
export function parseTimingFlags(values: string[]): Record<string, unknown> {
  const overrides: Record<string, unknown> = {};
  for (const value of values) {
    const eq = value.indexOf('=');
    if (eq < 1) throw new TimingError(`--timing takes NAME=MILLISECONDS, got "${value}"`);
    const raw = value.slice(eq + 1);
    overrides[value.slice(0, eq)] = raw.trim() === '' ? raw : Number(raw);
  }
  return overrides;
}
