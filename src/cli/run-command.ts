/**
 * `belltower run --headless [SPEC...]`: the sessions run without a UI; every verdict change is one
 * JSON line on stdout. Exits when every session has exited, or on SIGINT/SIGTERM after ending them.
 */
import { join } from 'node:path';
import { ControlServer, ControlServerError } from '../control/control-server.js';
import { socketPath } from '../control/socket-path.js';
import { sweepOrphans } from '../agents/session-folder.js';
import { fileLogger } from '../platform/file-logger.js';
import { belltowerDirs } from '../platform/state-dir.js';
import { verdictRow } from '../record/verdict-row.js';
import { TileSet } from '../tile/tile-set.js';
import type { VerdictChange } from '../tile/tile.js';
import type { Output } from './output.js';
import { prepareRun } from './run-setup.js';
import type { CommonRunFlags } from './run-setup.js';

export interface RunFlags extends CommonRunFlags {
  headless?: boolean;
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
}

export async function runHeadless(specs: string[], flags: RunFlags, out: Output, style: RunStyle = {}): Promise<number> {
  const setup = prepareRun(specs.length > 0 ? specs : [DEFAULT_SPEC], flags, `headless-${process.pid}`);
  if ('error' in setup) {
    out.error(`belltower: ${setup.error}`);
    return 2;
  }
  const { launches, timing, session } = setup;
  const cols = Number(flags.cols ?? 120);
  const rows = Number(flags.rows ?? 40);
  if (!Number.isInteger(cols) || !Number.isInteger(rows) || cols < 2 || rows < 2) {
    out.error(`belltower: --cols and --rows must be whole numbers of at least 2 (got ${flags.cols ?? cols}×${flags.rows ?? rows})`);
    return 2;
  }
  const dirs = belltowerDirs();
  const log = fileLogger(join(dirs.log, 'belltower.log'));

  const tiles = new TileSet({
    cwd: process.cwd(),
    env: process.env,
    cols,
    rows,
    timing,
    runtimeDir: dirs.runtime,
    ...(flags.record ? { recordDir: flags.record } : {}),
    captureOutput: flags.captureOutput ?? false,
    ...(flags.psp === false ? { answerPsp: false } : {}),
    hooks: flags.hooks !== false,
    logger: log,
  });
  tiles.onVerdict((change) => out.line((style.format ?? verdictJson)(change)));

  let control: ControlServer | undefined;
  try {
    control = await ControlServer.listen(socketPath(dirs.runtime, session), tiles);
  } catch (error) {
    if (error instanceof ControlServerError) {
      out.error(`belltower: ${error.message}`);
      return 2;
    }
    throw error;
  }
  sweepOrphans(dirs.runtime, Date.now(), { logger: log });
  log('info', 'headless start', { session, specs: launches.map((l) => l.spec), socket: control.path });

  let stopping = false;
  const stop = async (why: string) => {
    if (stopping) return;
    stopping = true;
    log('info', `headless stop: ${why}`);
    await tiles.stop();
  };
  const onSignal = (signal: NodeJS.Signals) => void stop(signal);
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('SIGHUP', onSignal);
  const timer = style.stopAfterMs === undefined ? undefined : setTimeout(() => void stop('time is up'), style.stopAfterMs);
  try {
    for (const [i, launch] of launches.entries()) await tiles.add(launch, { name: style.names?.[i] });
    await tiles.allExited();
    if (timer) clearTimeout(timer);
    await stop('every session exited');
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    process.off('SIGHUP', onSignal);
    await control.close();
  }
  return 0;
}

/** The verdict line of the command line contract. */
export function verdictJson({ tile, from, verdict }: VerdictChange): string {
  return JSON.stringify(verdictRow(tile.id, tile.name, from, verdict));
}
