/**
 * `belltower [SPEC...]`: the full-screen grid. Owns the process while it runs: the user's terminal
 * (restored on every way out — q, a signal, a crash), the tiles, the control socket, and where
 * stray output goes (the log file, never the screen).
 */
import { basename, join } from 'node:path';
import { onExit } from 'signal-exit';
import { ControlServer, ControlServerError } from '../control/control-server.js';
import { socketPath } from '../control/socket-path.js';
import { sweepOrphans } from '../agents/session-folder.js';
import { fileLogger } from '../platform/file-logger.js';
import type { Logger } from '../platform/logger.js';
import { belltowerDirs } from '../platform/state-dir.js';
import { TileSet } from '../tile/tile-set.js';
import { BELL_MODES } from '../ui/bell.js';
import type { BellMode } from '../ui/bell.js';
import { colorDepthFrom } from '../ui/color-depth.js';
import { DEFAULT_QUIET_PERIOD_MS } from '../ui/attention.js';
import type { GridApp, TileSettings } from '../ui/grid-app.js';
import { initialSizes } from '../ui/initial-sizes.js';
import { DEFAULT_ESCAPE_KEY, parseEscapeKey } from '../ui/keymap.js';
import { chooseNotifier, multiplexer, NOTIFY_CHOICES } from '../ui/notify.js';
import type { NotifyChoice } from '../ui/notify.js';
import { resolveTiming } from '../verdict/timing.js';
import { parseDuration } from './duration.js';
import { UserTerminal } from '../ui/user-terminal.js';
import { EXIT, exitStatus } from './exit-codes.js';
import type { EndingSignal } from './exit-codes.js';
import type { Output } from './output.js';
import { prepareRun, tileSetBase } from './run-setup.js';
import type { CommonRunFlags } from './run-setup.js';

export interface UiFlags extends CommonRunFlags {
  escapeKey?: string;
  bell?: string;
  notify?: string;
  /** e.g. `30s`, `0` to ring every edge. */
  quietPeriod?: string;
  /** Quit once every tile has exited. */
  exitWithLastTile?: boolean;
  /** Lines of output each tile keeps for the scroll view. */
  scrollback?: string;
  /** Mouse reports: click selects, double click focuses, the wheel scrolls. */
  mouse?: boolean;
}

/** One tile to open: from the workspace file, or a SPEC on the command line. */
export interface TileRequest {
  spec: string;
  name?: string;
  cwd: string;
  env?: Record<string, string>;
  bell?: boolean;
  notify?: boolean;
  escapeKey?: string;
  /** Timing overrides for this tile, over the ones for all. */
  timing?: Record<string, number>;
}

export interface UiStyle {
  /** The workspace file's choices for every tile (the command line's flags win). */
  workspace?: { bell?: string; notify?: string; escapeKey?: string; timing?: Record<string, number> };
  /** End after this long (the demo's --seconds). */
  stopAfterMs?: number;
  /** The session name when --session is not given. */
  defaultSession?: string;
}

/** Memory grows with it (about 2.6 MB per 120×40 tile at 1000 lines, 19 MB at 10 000). */
export const MAX_SCROLLBACK = 100_000;

/** The grid's own pty size when the terminal is too small to lay tiles out. */
const FALLBACK_SIZE = { cols: 80, rows: 24 };

export async function runUi(requests: TileRequest[], flags: UiFlags, out: Output, style: UiStyle = {}): Promise<number> {
  const ws = style.workspace ?? {};
  const escape = parseEscapeKey(flags.escapeKey ?? ws.escapeKey ?? DEFAULT_ESCAPE_KEY);
  if ('error' in escape) {
    out.error(`belltower: ${escape.error}`);
    return EXIT.usage;
  }
  const bell = (flags.bell ?? ws.bell ?? 'all') as BellMode;
  if (!BELL_MODES.includes(bell)) {
    out.error(`belltower: --bell takes ${BELL_MODES.join(', ')} (got "${flags.bell}")`);
    return EXIT.usage;
  }
  const notifyChoice = (flags.notify ?? ws.notify ?? 'auto') as NotifyChoice;
  if (!NOTIFY_CHOICES.includes(notifyChoice)) {
    out.error(`belltower: --notify takes ${NOTIFY_CHOICES.join(', ')} (got "${flags.notify}")`);
    return EXIT.usage;
  }
  let quietPeriodMs = DEFAULT_QUIET_PERIOD_MS;
  if (flags.quietPeriod !== undefined) {
    const parsed = flags.quietPeriod.trim() === '0' ? 0 : parseDuration(flags.quietPeriod);
    if (parsed === null) {
      out.error(`belltower: --quiet-period takes a duration such as 30s or 0 (got "${flags.quietPeriod}")`);
      return EXIT.usage;
    }
    quietPeriodMs = parsed;
  }
  const scrollback = flags.scrollback === undefined ? undefined : Number(flags.scrollback);
  if (scrollback !== undefined && (!Number.isInteger(scrollback) || scrollback < 0 || scrollback > MAX_SCROLLBACK)) {
    out.error(`belltower: --scrollback takes a whole number of lines from 0 to ${MAX_SCROLLBACK} (got "${flags.scrollback}")`);
    return EXIT.usage;
  }
  const setup = prepareRun(
    requests.map((r) => r.spec),
    { ...flags, timing: [...Object.entries(ws.timing ?? {}).map(([k, v]) => `${k}=${v}`), ...(flags.timing ?? [])] },
    style.defaultSession ?? sessionFromFolder(process.cwd()),
  );
  if ('error' in setup) {
    out.error(`belltower: ${setup.error}`);
    return EXIT.usage;
  }
  const timings = requests.map((r) => (r.timing && Object.keys(r.timing).length > 0 ? resolveTiming({ ...setup.timing, ...r.timing }) : setup.timing));
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    out.error('belltower: the full-screen UI needs a terminal; without one, run `belltower run --headless [SPEC...]`');
    return EXIT.usage;
  }

  // The grid's modules (Ink, React: about 280 ms to load) load while the rest starts — the
  // control socket, the hook server, the agents: none waits for the others.
  const loadingApp = import('../ui/grid-app.js');
  loadingApp.catch(() => undefined); // awaited below; an early return must not leave it unhandled

  const dirs = belltowerDirs();
  const logPath = join(dirs.log, 'belltower.log');
  const log = fileLogger(logPath);
  const terminal = new UserTerminal(process.stdin, process.stdout);
  const sizes = initialSizes(terminal.cols, terminal.rows, setup.launches.length);
  const sizeOf = (index: number) => sizes[index] ?? { width: FALLBACK_SIZE.cols, height: FALLBACK_SIZE.rows };

  const tiles = new TileSet({
    cwd: process.cwd(),
    env: process.env,
    cols: FALLBACK_SIZE.cols,
    rows: FALLBACK_SIZE.rows,
    timing: setup.timing,
    ...tileSetBase(flags, dirs.runtime),
    logger: log,
    ...(scrollback !== undefined ? { scrollback } : {}),
  });

  let control: ControlServer;
  try {
    control = await ControlServer.listen(socketPath(dirs.runtime, setup.session), tiles);
  } catch (error) {
    if (error instanceof ControlServerError) {
      out.error(`belltower: ${error.message}`);
      return EXIT.usage;
    }
    throw error;
  }
  sweepOrphans(dirs.runtime, Date.now(), { logger: log });
  log('info', 'ui start', { session: setup.session, specs: setup.launches.map((l) => l.spec), socket: control.path, bell, escapeKey: escape.key });

  const quiet = captureStray(log);
  let app: GridApp | null = null;
  let finishing = false;
  // How belltower ends: a signal, a crash, or null (q, time is up, the last tile exited).
  type Ending = EndingSignal | 'crash' | null;
  let resolveDone: (ending: Ending) => void = () => {};
  const done = new Promise<Ending>((resolve) => (resolveDone = resolve));

  // Whatever happens, the terminal goes back to how it was, first and synchronously.
  const restoreScreen = () => {
    app?.stop();
    terminal.restore();
    quiet.release();
  };
  const finish = (ending: Ending, why: string) => {
    if (finishing) return;
    finishing = true;
    log('info', `ui stop: ${why}`);
    restoreScreen();
    resolveDone(ending);
  };
  const onSignal = (signal: EndingSignal) => finish(signal, signal);
  const onCrash = (error: unknown) => {
    log('error', 'crashed', { stack: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    if (finishing) return;
    restoreScreen();
    out.error(`belltower: crashed (${error instanceof Error ? error.message : String(error)}); the details are in ${logPath}`);
    finish('crash', 'crash');
  };
  const signals: EndingSignal[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const signal of signals) process.on(signal, onSignal);
  // While the grid owns the terminal, a crash is ours to report: the screen must be restored
  // before anything is printed. The command line's own handlers come back afterwards.
  const outerUncaught = process.listeners('uncaughtException');
  const outerRejection = process.listeners('unhandledRejection');
  process.removeAllListeners('uncaughtException');
  process.removeAllListeners('unhandledRejection');
  process.on('uncaughtException', onCrash);
  process.on('unhandledRejection', onCrash);
  const removeExitHook = onExit(() => restoreScreen(), { alwaysLast: true });
  // The terminal going away shows up as EIO on stdout before (or instead of) SIGHUP.
  const onStdoutError = () => finish('SIGHUP', 'the terminal went away');
  process.stdout.on('error', onStdoutError);

  let ending: Ending = null;
  const timer = style.stopAfterMs === undefined ? undefined : setTimeout(() => finish(null, 'time is up'), style.stopAfterMs);
  try {
    terminal.enter({ mouse: flags.mouse === true });
    const settings = new Map<number, TileSettings>();
    for (const [i, launch] of setup.launches.entries()) {
      const size = sizeOf(i);
      const request = requests[i]!;
      const tile = await tiles.add(launch, {
        ...(request.name ? { name: request.name } : {}),
        cols: size.width,
        rows: size.height,
        cwd: request.cwd,
        ...(request.env ? { env: request.env } : {}),
        timing: timings[i]!,
      });
      settings.set(tile.id, { bell: request.bell ?? true, notify: request.notify ?? true, ...(request.escapeKey ? { escapeKey: parseEscapeKeyName(request.escapeKey) } : {}) });
      if (finishing) break;
    }
    if (!finishing) {
      const { GridApp } = await loadingApp;
      app = new GridApp({
        view: tiles,
        terminal,
        escapeKey: escape.key,
        bell,
        notify: chooseNotifier(notifyChoice, process.env),
        notifyWrap: multiplexer(process.env),
        quietPeriodMs,
        tileSettings: (id) => settings.get(id) ?? { bell: true, notify: true },
        cwd: process.cwd(),
        color: wantsColor(process.env),
        depth: colorDepthFrom(process.env),
        logger: log,
        onQuit: () => finish(null, 'quit'),
      });
      app.start();
      if (flags.exitWithLastTile) void tiles.allExited().then(() => finish(null, 'every tile exited'));
    }
    ending = await done;
  } catch (error) {
    onCrash(error);
    ending = 'crash';
  } finally {
    if (timer) clearTimeout(timer);
    restoreScreen();
    await tiles.stop();
    await control.close();
    for (const signal of signals) process.off(signal, onSignal);
    process.off('uncaughtException', onCrash);
    process.off('unhandledRejection', onCrash);
    for (const listener of outerUncaught) process.on('uncaughtException', listener);
    for (const listener of outerRejection) process.on('unhandledRejection', listener);
    process.stdout.off('error', onStdoutError);
    removeExitHook();
    if (app) log('info', 'ui painted', { ...app.stats });
  }
  // The table in the README: a crash is 1; a signal 128 + its number; else how the tiles ended.
  return ending === 'crash' ? EXIT.failure : exitStatus(ending, tiles.ends());
}

/** A workspace tile's escape key, already validated with the file. */
function parseEscapeKeyName(text: string): string {
  const key = parseEscapeKey(text);
  return 'key' in key ? key.key : DEFAULT_ESCAPE_KEY;
}

/** NO_COLOR (no-color.org): present and not empty turns the chrome's colours off. */
export function wantsColor(env: Readonly<Record<string, string | undefined>>): boolean {
  return !(env.NO_COLOR !== undefined && env.NO_COLOR !== '');
}

/** The default session name: the folder's name, in the alphabet session names allow. */
export function sessionFromFolder(folder: string): string {
  const name = basename(folder).replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '').slice(0, 64);
  return name === '' ? 'belltower' : name;
}

/**
 * While the UI owns the terminal, anything written to stderr (a library's warning, Node's own
 * warnings) goes to the log instead of through the frames.
 */
function captureStray(log: Logger): { release(): void } {
  const stderr = process.stderr;
  const original = stderr.write.bind(stderr);
  let released = false;
  // Node's stream typings overload write; this replacement accepts every overload's arguments.
  stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    log('warn', 'stderr', { text: text.slice(0, 4000) });
    const callback = rest.find((r): r is () => void => typeof r === 'function');
    callback?.();
    return true;
  }) as typeof stderr.write;
  return {
    release() {
      if (released) return;
      released = true;
      stderr.write = original;
    },
  };
}
