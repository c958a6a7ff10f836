/**
 * `belltower [SPEC...]`: the full-screen grid's command line. It reads the flags, checks what is
 * asked (SPECs, programs, a terminal) and decides what to start; the session host
 * (server/session-host.ts) owns the session from then on, on this terminal or as a server.
 */
import { sessionFromFolder } from './session-name.js';
export { sessionFromFolder } from './session-name.js';
import { readStateFile, stateFilePath } from '../restore/state-file.js';
import { askOnTerminal, startingTiles } from './restore-start.js';
import { belltowerDirs } from '../platform/state-dir.js';
import { hostSession } from '../server/session-host.js';
import type { SessionStart } from '../server/session-host.js';
import { packageVersion } from './version.js';
import { launchProblem } from '../session/launch-check.js';
import { EXIT } from '../platform/exit-codes.js';
import type { Output } from './output.js';
import { prepareRun, tileSetBase, withWorkspaceTiming } from './run-setup.js';
import type { RunSetup } from './run-setup.js';
import type { TileRequest } from '../server/tile-request.js';
import type { CommonRunFlags } from './run-setup.js';
import { readGridFlags } from './grid-options.js';
import type { GridDisplayFlags } from './grid-options.js';

export interface UiFlags extends CommonRunFlags, GridDisplayFlags {
  /** Bring back the session's saved workspace without asking. */
  restore?: boolean;
  /** Ignore the saved workspace (it is replaced by this one's). */
  fresh?: boolean;
  /** Run as this session's detached server (started by `belltower`): no terminal of its
   * own, a grid for each client that attaches; the value is the first client's size, COLSxROWS. */
  asServer?: string;
}

export interface UiStyle {
  /** The workspace file's choices for every tile (the command line's flags win). */
  workspace?: { bell?: string; notify?: string; escapeKey?: string; onRing?: string; timing?: Record<string, number> };
  /** End after this long (the demo's --seconds). */
  stopAfterMs?: number;
  /** The session name when --session is not given. */
  defaultSession?: string;
  /** Keep the workspace state so a restart can restore it, and offer it at start (default true). */
  persist?: boolean;
  /** The tile to open when nothing else is asked for and nothing is restored, or why there is
   * none (lines for the user; exit 2). */
  whenEmpty?: TileRequest | string[];
}

export { MAX_SCROLLBACK } from './grid-options.js';

export async function runUi(asked: TileRequest[], flags: UiFlags, out: Output, style: UiStyle = {}): Promise<number> {
  let requests = asked;
  const ws = style.workspace ?? {};
  const read = readGridFlags(flags, ws);
  if ('error' in read) {
    out.error(`belltower: ${read.error}`);
    return EXIT.usage;
  }
  const { bell, notify: notifyChoice, quietPeriodMs, scrollback } = read;
  const escape = { key: read.escapeKey };
  const runFlags = { ...flags, timing: withWorkspaceTiming(ws.timing, flags.timing) };
  const defaultSession = style.defaultSession ?? sessionFromFolder(process.cwd());
  const setup = prepareRun(
    requests.map((r) => r.spec),
    runFlags,
    defaultSession,
  );
  if ('error' in setup) {
    out.error(`belltower: ${setup.error}`);
    return EXIT.usage;
  }
  // A program that is not there is said before anything starts (README "Commands"), with its
  // name: a blank tile that says `exited` is no way to learn of a typo.
  for (const [i, launch] of setup.launches.entries()) {
    const request = requests[i]!;
    const problem = launchProblem(launch.file, request.cwd, { ...process.env, ...request.env });
    if (problem) {
      const where = request.fromCommandLine ? (launch.spec.trim() === launch.file ? '' : ` (in "${launch.spec}")`) : ` (tile ${i + 1}${request.name ? ` ${request.name}` : ''} of the workspace file)`;
      out.error(`belltower: ${problem}${where}; nothing started`);
      return EXIT.usage;
    }
  }
  const dirs = belltowerDirs();
  const persist = style.persist !== false;
  const stateFile = stateFilePath(dirs.state, setup.session);
  // Nothing to open and nothing saved to offer: say what to run instead, terminal or not.
  if (requests.length === 0 && Array.isArray(style.whenEmpty) && !flags.restore && (!persist || readStateFile(stateFile).kind === 'absent')) {
    for (const line of style.whenEmpty) out.error(line);
    return EXIT.usage;
  }
  const serving = flags.asServer !== undefined ? parseSize(flags.asServer) : null;
  if (flags.asServer !== undefined && !serving) {
    out.error(`belltower: --as-server takes COLSxROWS (got "${flags.asServer}")`);
    return EXIT.usage;
  }
  if (!serving && (!process.stdin.isTTY || !process.stdout.isTTY)) {
    out.error('belltower: the full-screen UI needs a terminal; without one, run `belltower run --headless [SPEC...]`');
    return EXIT.usage;
  }
  const first = setup;
  // Asked once the session's lock is held: restore the saved workspace, or start these tiles.
  const chooseStart = async (): Promise<SessionStart | { exit: number }> => {
    let chosen: RunSetup = first;
    let restoring: SessionStart['restoring'] = null;
    if (persist) {
      const start = await startingTiles(stateFile, first.session, flags, requests, serving ? async () => false : askOnTerminal(process.stdin, process.stdout), out);
      if ('exit' in start) return start;
      if (start.restoring) {
        restoring = start.restoring;
        requests = start.requests;
        const again = prepareRun(
          requests.map((r) => r.spec),
          runFlags,
          defaultSession,
        );
        if ('error' in again) {
          out.error(`belltower: the saved workspace cannot be restored: ${again.error}`);
          return { exit: EXIT.usage };
        }
        chosen = again;
      }
    }
    if (requests.length === 0 && style.whenEmpty) {
      if (Array.isArray(style.whenEmpty)) {
        for (const line of style.whenEmpty) out.error(line);
        return { exit: EXIT.usage };
      }
      requests = [style.whenEmpty];
      const again = prepareRun([style.whenEmpty.spec], runFlags, defaultSession);
      if ('error' in again) {
        out.error(`belltower: ${again.error}`);
        return { exit: EXIT.usage };
      }
      chosen = again;
    }
    return { setup: chosen, requests, restoring };
  };
  return hostSession({
    session: setup.session,
    version: packageVersion(),
    timing: setup.timing,
    dirs,
    stateFile: persist ? stateFile : null,
    serving,
    chooseStart,
    grid: read,
    readClientFlags: (own) => readGridFlags(own),
    tileSet: tileSetBase(flags, dirs.runtime),
    remoteHooksForAll: flags.remoteHooks === true,
    mouse: flags.mouse === true,
    exitWithLastTile: flags.exitWithLastTile === true,
    ...(flags.onRing ?? ws.onRing ? { onRing: flags.onRing ?? ws.onRing } : {}),
    ...(style.stopAfterMs !== undefined ? { stopAfterMs: style.stopAfterMs } : {}),
    say: (line) => out.error(line),
  });
}

/** `120x40` as a size, or null. */
export function parseSize(text: string): { cols: number; rows: number } | null {
  const m = /^(\d{1,4})x(\d{1,4})$/.exec(text.trim());
  if (!m) return null;
  const cols = Number(m[1]);
  const rows = Number(m[2]);
  return cols >= 1 && rows >= 1 && cols <= 1000 && rows <= 1000 ? { cols, rows } : null;
}
