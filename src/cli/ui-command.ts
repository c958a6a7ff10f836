/**
 * `belltower [SPEC...]`: the full-screen grid. Owns the process while it runs: the user's terminal
 * (restored on every way out — q, a signal, a crash), the tiles, the control socket, and where
 * stray output goes (the log file, never the screen).
 */
import { join } from 'node:path';
import { sessionFromFolder } from './session-name.js';
export { sessionFromFolder } from './session-name.js';
import { captureState } from '../restore/capture.js';
import type { TileExtras } from '../restore/capture.js';
import { when } from '../restore/restore-plan.js';
import type { RestorePlan } from '../restore/restore-plan.js';
import { readStateFile, stateFilePath } from '../restore/state-file.js';
import { StateSaver } from '../restore/state-saver.js';
import type { WorkspaceState } from '../restore/workspace-state.js';
import { askOnTerminal, startingTiles } from './restore-start.js';
import { onExit } from 'signal-exit';
import { ControlServer, ControlServerError } from '../control/control-server.js';
import { socketPath } from '../control/socket-path.js';
import { sweepOrphans } from '../agents/session-folder.js';
import { fileLogger } from '../platform/file-logger.js';
import type { Logger } from '../platform/logger.js';
import { belltowerDirs } from '../platform/state-dir.js';
import { TileSet } from '../tile/tile-set.js';
import type { RingState } from '../tile/workspace-view.js';
import { colorDepthFrom } from '../ui/color-depth.js';
import { tmuxClientFeatures } from '../platform/tmux-features.js';
import type { GridApp, InitialUi, TerminalPort, TileSettings } from '../ui/grid-app.js';
import { SessionClients } from '../server/session-clients.js';
import { RingCommand } from '../server/ring-command.js';
import { attachSocketPath } from '../server/attach-server.js';
import { packageVersion } from './version.js';
import type { ClientOptions } from '../wire/wire-protocol.js';
import { initialSizes } from '../ui/initial-sizes.js';
import { DEFAULT_ESCAPE_KEY, parseEscapeKey } from '../ui/keymap.js';
import { chooseNotifier, multiplexer } from '../ui/notify.js';
import { resolveTiming } from '../verdict/timing.js';
import { UserTerminal } from '../ui/user-terminal.js';
import { launchProblem } from '../session/launch-check.js';
import { EXIT, exitStatus } from './exit-codes.js';
import type { EndingSignal } from './exit-codes.js';
import type { Output } from './output.js';
import { prepareRun, tileSetBase, withWorkspaceTiming } from './run-setup.js';
import type { TileRequest } from './tile-request.js';
import type { CommonRunFlags } from './run-setup.js';
import { readGridFlags } from './grid-options.js';
import type { GridDisplayFlags } from './grid-options.js';

export interface UiFlags extends CommonRunFlags, GridDisplayFlags {
  /** Bring back the session's saved workspace without asking. */
  restore?: boolean;
  /** Ignore the saved workspace (it is replaced by this one's). */
  fresh?: boolean;
  /** Run as this session's detached server (started by `belltower --server`): no terminal of its
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

/** The grid's own pty size when the terminal is too small to lay tiles out. */
const FALLBACK_SIZE = { cols: 80, rows: 24 };
/** At most one ring per tile matters before the grid starts; a bound all the same. */
const MAX_EARLY_RINGS = 1000;

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
  let setup = prepareRun(
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

  // The grid's modules (Ink, React: about 280 ms to load) load while the rest starts — the
  // control socket, the hook server, the agents: none waits for the others.
  const loadingApp = import('../ui/grid-app.js');
  loadingApp.catch(() => undefined); // awaited below; an early return must not leave it unhandled

  // A server's stderr is its launcher's pipe until the launcher attaches and lets go of it.
  if (serving) process.stderr.on('error', () => undefined);
  const logPath = join(dirs.log, 'belltower.log');
  const log = fileLogger(logPath);
  const terminal = serving ? null : new UserTerminal(process.stdin, process.stdout);
  const firstSize = serving ?? { cols: terminal?.cols ?? FALLBACK_SIZE.cols, rows: terminal?.rows ?? FALLBACK_SIZE.rows };

  // Inside tmux, COLORTERM rarely says it: ask tmux what the terminal outside can show. Tiles are
  // told truecolor when it has it, as a terminal emulator tells its programs.
  const depth = colorDepthFrom(process.env, tmuxClientFeatures(process.env));
  const tileEnv = depth === 'truecolor' && !process.env.COLORTERM ? { ...process.env, COLORTERM: 'truecolor' } : process.env;
  const tiles = new TileSet({
    cwd: process.cwd(),
    env: tileEnv,
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
  // The socket is this session's lock: from here on, no other belltower writes its state.
  let restoring: RestorePlan | null = null;
  let restoredFrom: WorkspaceState | null = null;
  if (persist) {
    const start = await startingTiles(stateFile, setup.session, flags, requests, serving ? async () => false : askOnTerminal(process.stdin, process.stdout), out);
    if ('exit' in start) {
      await control.close();
      return start.exit;
    }
    if (start.restoring) {
      ({ plan: restoring, state: restoredFrom } = start.restoring);
      requests = start.requests;
      const again = prepareRun(
        requests.map((r) => r.spec),
        runFlags,
        defaultSession,
      );
      if ('error' in again) {
        out.error(`belltower: the saved workspace cannot be restored: ${again.error}`);
        await control.close();
        return EXIT.usage;
      }
      setup = again;
    }
  }
  if (requests.length === 0 && style.whenEmpty) {
    if (Array.isArray(style.whenEmpty)) {
      for (const line of style.whenEmpty) out.error(line);
      await control.close();
      return EXIT.usage;
    }
    requests = [style.whenEmpty];
    const again = prepareRun([style.whenEmpty.spec], runFlags, defaultSession);
    if ('error' in again) {
      out.error(`belltower: ${again.error}`);
      await control.close();
      return EXIT.usage;
    }
    setup = again;
  }
  const timings = requests.map((r) => (r.timing && Object.keys(r.timing).length > 0 ? resolveTiming({ ...setup.timing, ...r.timing }) : setup.timing));
  const sizes = initialSizes(firstSize.cols, firstSize.rows, setup.launches.length);
  const sizeOf = (index: number) => sizes[index] ?? { width: FALLBACK_SIZE.cols, height: FALLBACK_SIZE.rows };

  sweepOrphans(dirs.runtime, Date.now(), { logger: log });
  log('info', 'ui start', { session: setup.session, specs: setup.launches.map((l) => l.spec), socket: control.path, bell, escapeKey: escape.key, restored: restoring !== null });

  const quiet = captureStray(log);
  let app: GridApp | null = null;
  /** A server's attached clients (each with its grid). */
  let clients: SessionClients | null = null;
  /** A server's `--on-ring` command. */
  let ringCommand: RingCommand | null = null;
  /** The chrome's row cache at work (rows built and reused), for the log at the end. */
  let rowCacheStats: (() => object) | null = null;
  let finishing = false;
  const settings = new Map<number, TileSettings>();
  const extras = new Map<number, TileExtras>();
  const initialUi: InitialUi = {
    selected: restoring?.ui.selected ?? 0,
    zoomed: restoring?.ui.zoomed ?? false,
    layoutMode: restoring?.ui.layout ?? 'auto',
    hideIdle: restoring?.ui.hideIdle ?? false,
    unseen: [],
    muted: [],
  };
  // Said once on the status line (or, before the grid shows, as its first note).
  const stateTrouble = (message: string) => {
    if (clients) clients.say(message);
    else if (app) app.say(message);
    else initialUi.note = message;
  };
  const saver = persist
    ? new StateSaver({
        file: stateFile,
        logger: log,
        onTrouble: stateTrouble,
        capture: (ended) =>
          captureState({
            session: setup.session,
            pid: process.pid,
            now: new Date(),
            ended,
            tiles: tiles.tiles,
            launchOf: (id) => tiles.launchOf(id),
            extras: (id) => extras.get(id) ?? {},
            ui: (clients ? clients.snapshot() : app?.snapshot()) ?? { selected: initialUi.selected, zoomed: initialUi.zoomed, layout: initialUi.layoutMode, hideIdle: initialUi.hideIdle, unseen: initialUi.unseen, muted: initialUi.muted },
          }),
      })
    : null;
  if (saver) {
    tiles.onChange(() => saver.changed());
    tiles.onRestart(() => saver.changed());
    tiles.onActivity(() => saver.activity());
  }
  // How belltower ends: a signal, a crash, or null (q, time is up, the last tile exited).
  type Ending = EndingSignal | 'crash' | null;
  let resolveDone: (ending: Ending) => void = () => {};
  const done = new Promise<Ending>((resolve) => (resolveDone = resolve));

  // Whatever happens, the terminal goes back to how it was, first and synchronously.
  const restoreScreen = () => {
    app?.stop();
    clients?.stopDrawing();
    terminal?.restore();
    quiet.release();
  };
  const finish = (ending: Ending, why: string) => {
    if (finishing) return;
    finishing = true;
    log('info', `ui stop: ${why}`);
    restoreScreen();
    // Saved as the tiles were, before belltower ends them: a restore brings back this workspace.
    saver?.flush(ending ?? 'quit');
    saver?.stop();
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
  // A server has no terminal to lose: a hang-up is no reason to end the tiles.
  const signals: EndingSignal[] = serving ? ['SIGINT', 'SIGTERM'] : ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const signal of signals) process.on(signal, onSignal);
  const ignoreHangUp = () => log('info', 'server: SIGHUP ignored (no terminal to lose)');
  if (serving) process.on('SIGHUP', ignoreHangUp);
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
  if (!serving) process.stdout.on('error', onStdoutError);

  let ending: Ending = null;
  const timer = style.stopAfterMs === undefined ? undefined : setTimeout(() => finish(null, 'time is up'), style.stopAfterMs);
  try {
    terminal?.enter({ mouse: flags.mouse === true });
    // Rings that come before the grid does (a quick command finishes while Ink loads) wait for it.
    const earlyRings: { id: number; state: RingState }[] = [];
    const offEarlyRings = tiles.onRing((id, state) => {
      if (earlyRings.length < MAX_EARLY_RINGS) earlyRings.push({ id, state });
    });
    const unseen: number[] = [];
    const muted: number[] = [];
    for (const [i, launch] of setup.launches.entries()) {
      const size = sizeOf(i);
      const request = requests[i]!;
      const tile = await tiles.add(launch, {
        ...(request.name ? { name: request.name } : {}),
        // A restored screen is drawn at its own size; the grid gives the tile its place after.
        cols: request.size?.cols ?? size.width,
        rows: request.size?.rows ?? size.height,
        cwd: request.cwd,
        ...(request.env ? { env: request.env } : {}),
        timing: timings[i]!,
        ...(request.conversation ? { conversation: request.conversation } : {}),
        ...(request.restored ? { restored: request.restored } : {}),
        ...(request.remoteHooks !== undefined && !flags.remoteHooks ? { remoteHooks: request.remoteHooks } : {}),
      });
      settings.set(tile.id, { bell: request.bell ?? true, notify: request.notify ?? true, ...(request.escapeKey ? { escapeKey: parseEscapeKeyName(request.escapeKey) } : {}) });
      extras.set(tile.id, {
        ...(request.bell !== undefined ? { bell: request.bell } : {}),
        ...(request.notify !== undefined ? { notify: request.notify } : {}),
        ...(request.escapeKey !== undefined ? { escapeKey: request.escapeKey } : {}),
        ...(request.timing ? { timing: request.timing } : {}),
        ...(request.remoteHooks !== undefined ? { remoteHooks: request.remoteHooks } : {}),
      });
      if (request.unseen) unseen.push(tile.id);
      if (request.muted) muted.push(tile.id);
      if (finishing) break;
    }
    initialUi.unseen = unseen;
    initialUi.muted = muted;
    if (restoring && restoredFrom) {
      const count = restoring.tiles.length;
      initialUi.note = `restored ${count} ${count === 1 ? 'tile' : 'tiles'} from ${when(new Date(restoredFrom.savedAt), new Date())}${restoring.skipped.length > 0 ? ` (${restoring.skipped.length} not: see the log)` : ''}`;
      for (const line of restoring.skipped) log('warn', `not restored: ${line}`);
    }
    saver?.changed();
    if (!finishing) {
      const { GridApp, chromeStylesOn, inkRowCacheOn, inkRowCacheStats } = await loadingApp;
      if (serving) chromeStylesOn();
      log('info', 'grid loaded', { inkRowCache: inkRowCacheOn });
      rowCacheStats = inkRowCacheStats;
      const makeApp = (port: TerminalPort, env: NodeJS.ProcessEnv, onDetach?: () => void, own: ClientOptions = {}) => {
        // A client's own --bell, --notify and --escape-key, over the session's (checked again here:
        // a client of another build may send what this one does not know).
        const mine = readGridFlags({ bell: own.bell ?? bell, notify: own.notify ?? notifyChoice, escapeKey: own.escapeKey ?? escape.key });
        if ('error' in mine) log('warn', `attach: a client's own options are not used: ${mine.error}`);
        const chosen = 'error' in mine ? { bell, notify: notifyChoice, escapeKey: escape.key } : mine;
        return new GridApp({
          initial: uiForNextClient(clients?.snapshot() ?? null, initialUi),
          onUiChange: () => saver?.changed(),
          view: tiles,
          terminal: port,
          escapeKey: chosen.escapeKey,
          bell: chosen.bell,
          notify: chooseNotifier(chosen.notify, env),
          notifyWrap: multiplexer(env),
          quietPeriodMs,
          tileSettings: (id) => settings.get(id) ?? { bell: true, notify: true },
          cwd: process.cwd(),
          color: wantsColor(env),
          depth: env === process.env ? depth : colorDepthFrom(env, tmuxClientFeatures(env)),
          logger: log,
          onQuit: () => finish(null, 'quit'),
          ...(onDetach ? { onDetach } : {}),
        });
      };
      if (serving) {
        const allEnded = () => tiles.tileInfos().every((t) => t.state === 'exited');
        // The server ends when its last tile is gone and nobody is looking.
        const endIfDone = () => {
          if (clients && clients.count === 0 && allEnded()) finish(null, 'every tile has ended and no client is attached');
        };
        const onRingCommand = flags.onRing ?? style.workspace?.onRing;
        ringCommand = onRingCommand ? new RingCommand({ command: onRingCommand, logger: log }) : null;
        clients = await SessionClients.listen({
          path: attachSocketPath(dirs.runtime, setup.session),
          runtimeDir: dirs.runtime,
          session: setup.session,
          version: packageVersion(),
          cwd: process.cwd(),
          logger: log,
          view: tiles,
          earlier: earlyRings,
          makeApp: (link, detach) => makeApp(link, { ...link.hello.env }, detach, link.hello.options),
          changed: () => {
            saver?.changed();
            endIfDone();
          },
          unattended: (id, state) => {
            const info = tiles.tileInfos().find((t) => t.id === id);
            if (!info || !ringCommand) return;
            // A tile muted in the last client's grid, or kept quiet by the workspace file, is not pushed.
            if (clients?.snapshot()?.muted.includes(id) || settings.get(id)?.notify === false) return;
            ringCommand.ring({ session: setup.session, tile: id, name: info.name, folder: info.cwd ?? process.cwd(), state, agent: info.agent, ...(info.says ? { message: info.says } : {}) });
          },
        });
        offEarlyRings();
        control.serveSession({ detach: (all) => clients?.detach(all) ?? 0 });
        tiles.onChange(() => endIfDone());
        log('info', 'server ready', { attach: attachSocketPath(dirs.runtime, setup.session), pid: process.pid });
      } else if (terminal) {
        app = makeApp(terminal, process.env);
        offEarlyRings();
        app.start(earlyRings);
      }
      if (flags.exitWithLastTile) void tiles.allExited().then(() => finish(null, 'every tile exited'));
    }
    ending = await done;
  } catch (error) {
    onCrash(error);
    ending = 'crash';
  } finally {
    if (timer) clearTimeout(timer);
    restoreScreen();
    ringCommand?.close();
    await tiles.stop();
    await control.close();
    if (clients) {
      const status = ending === 'crash' ? EXIT.failure : exitStatus(ending, tiles.ends());
      await clients.close(ending === null ? 'quit' : 'killed', status);
    }
    process.off('SIGHUP', ignoreHangUp);
    for (const signal of signals) process.off(signal, onSignal);
    process.off('uncaughtException', onCrash);
    process.off('unhandledRejection', onCrash);
    for (const listener of outerUncaught) process.on('uncaughtException', listener);
    for (const listener of outerRejection) process.on('unhandledRejection', listener);
    if (!serving) process.stdout.off('error', onStdoutError);
    removeExitHook();
    if (app) log('info', 'ui painted', { ...app.stats, ...(rowCacheStats ? { inkRows: rowCacheStats() } : {}) });
    if (saver) log('info', 'workspace state', { file: stateFile, ...saver.stats });
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

/** `120x40` as a size, or null. */
export function parseSize(text: string): { cols: number; rows: number } | null {
  const m = /^(\d{1,4})x(\d{1,4})$/.exec(text.trim());
  if (!m) return null;
  const cols = Number(m[1]);
  const rows = Number(m[2]);
  return cols >= 1 && rows >= 1 && cols <= 1000 && rows <= 1000 ? { cols, rows } : null;
}

/** Where a client's grid starts: where the last one left it (selection, zoom, layout, marks), or
 * where the session started. */
function uiForNextClient(seen: ReturnType<GridApp['snapshot']> | null, start: InitialUi): InitialUi {
  if (!seen) return start;
  return { selected: seen.selected, zoomed: seen.zoomed, layoutMode: seen.layout, hideIdle: seen.hideIdle, unseen: seen.unseen, muted: seen.muted };
}
