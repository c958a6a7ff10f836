/**
 * A session's host: what lives as long as the session — the tile set (ptys, screens, hooks,
 * watchers, engine), the control socket that is its lock, the workspace state and its saver, the
 * log — and who looks at it: the user's own terminal (the one-process grid), or, as a session
 * server, the attach socket with a grid for each client. The command line decides what to start
 * and hands it here; the host owns it until the session ends, restoring the terminal on every way
 * out (q, a signal, a crash), and returns the exit status.
 */
import { join } from 'node:path';
import { onExit } from 'signal-exit';
import type { LaunchSpec } from '../agents/launch-spec.js';
import { sweepOrphans } from '../agents/session-folder.js';
import { ControlServer, ControlServerError } from '../control/control-server.js';
import { socketPath } from '../control/socket-path.js';
import { EXIT, exitStatus } from '../platform/exit-codes.js';
import type { EndingSignal } from '../platform/exit-codes.js';
import { fileLogger } from '../platform/file-logger.js';
import { MOUSE_ON } from '../platform/terminal-sequences.js';
import type { Logger } from '../platform/logger.js';
import type { BelltowerDirs } from '../platform/state-dir.js';
import { tmuxClientFeatures } from '../platform/tmux-features.js';
import { captureState } from '../restore/capture.js';
import type { TileExtras } from '../restore/capture.js';
import { when } from '../restore/restore-plan.js';
import type { RestorePlan } from '../restore/restore-plan.js';
import { StateSaver } from '../restore/state-saver.js';
import type { WorkspaceState } from '../restore/workspace-state.js';
import { tileWorktree } from '../tile/add-request.js';
import { TileSet } from '../tile/tile-set.js';
import type { TileSetOptions } from '../tile/tile-starter.js';
import type { RingState } from '../tile/workspace-view.js';
import { colorDepthFrom } from '../ui/color-depth.js';
import type { BellMode } from '../ui/bell.js';
import type { GridApp, InitialUi, TerminalPort, TileSettings } from '../ui/grid-app.js';
import { initialSizes } from '../ui/initial-sizes.js';
import { DEFAULT_ESCAPE_KEY, parseEscapeKey } from '../ui/keymap.js';
import { chooseNotifier, multiplexer } from '../ui/notify.js';
import type { NotifyChoice } from '../ui/notify.js';
import { UserTerminal } from '../ui/user-terminal.js';
import { resolveTiming } from '../verdict/timing.js';
import type { Timing } from '../verdict/timing.js';
import type { ClientOptions } from '../wire/wire-protocol.js';
import { attachSocketPath } from './attach-server.js';
import { RingCommand } from './ring-command.js';
import { SessionClients } from './session-clients.js';
import type { TileRequest } from './tile-request.js';

/** The grid's own pty size when the terminal is too small to lay tiles out. */
const FALLBACK_SIZE = { cols: 80, rows: 24 };
/** At most one ring per tile matters before the grid starts; a bound all the same. */
const MAX_EARLY_RINGS = 1000;

/** The tiles to open, checked: their launches line up with the requests. */
export interface SessionStart {
  setup: { launches: readonly LaunchSpec[]; timing: Timing };
  requests: readonly TileRequest[];
  restoring: { plan: RestorePlan; state: WorkspaceState } | null;
}

/** The session's own grid choices (each client may bring its own; see ClientOptions). */
export interface GridChoices {
  bell: BellMode;
  notify: NotifyChoice;
  escapeKey: string;
  quietPeriodMs: number;
  scrollback?: number;
}

/** Checks a client's own --bell, --notify and --escape-key (the words the command line takes). */
export type GridFlagReader = (flags: { bell: string; notify: string; escapeKey: string }) => { bell: BellMode; notify: NotifyChoice; escapeKey: string } | { error: string };

export interface HostOptions {
  session: string;
  /** This belltower's version, which a client must share. */
  version: string;
  /** The timing every tile starts from (a tile's own overrides go over it). */
  timing: Timing;
  dirs: BelltowerDirs;
  /** The workspace state file, or null when nothing is kept (the demo). */
  stateFile: string | null;
  /** Run as the session's detached server, its first client of this size; null: on this terminal. */
  serving: { cols: number; rows: number } | null;
  /** What to open, decided once the session's lock is held (a restore question may be asked then),
   * or the status to end with. */
  chooseStart(): Promise<SessionStart | { exit: number }>;
  grid: GridChoices;
  /** How a client's own --bell, --notify and --escape-key are checked (they may come from another build). */
  readClientFlags: GridFlagReader;
  tileSet: Pick<TileSetOptions, 'runtimeDir' | 'recordDir' | 'captureOutput' | 'recordText' | 'answerPsp' | 'hooks' | 'remoteHooks'>;
  /** `--remote-hooks` was given: it wins over each tile's own choice. */
  remoteHooksForAll: boolean;
  mouse: boolean;
  exitWithLastTile: boolean;
  /** The command a ring runs while no client is attached (servers only). */
  onRing?: string;
  /** End after this long (the demo's --seconds). */
  stopAfterMs?: number;
  /** A line for the user, where they will see it (stderr, before and after the grid). */
  say(line: string): void;
}

export async function hostSession(options: HostOptions): Promise<number> {
  const { dirs, serving, session, grid } = options;
  // The grid's modules (Ink, React: about 280 ms to load) load while the rest starts — the
  // control socket, the hook server, the agents: none waits for the others.
  const loadingApp = import('../ui/grid-app.js');
  loadingApp.catch(() => undefined); // awaited below; an early return must not leave it unhandled

  // A server's stderr is its launcher's pipe until the launcher attaches and lets go of it.
  if (serving) process.stderr.on('error', () => undefined);
  const logPath = join(dirs.log, 'belltower.log');
  const log = fileLogger(logPath);
  const terminal = serving
    ? null
    : new UserTerminal(process.stdin, process.stdout, {
        // BELLTOWER_KEYBOARD_THREAD=0 reads keys on the main thread (the bench's baseline).
        keyboardThread: process.env.BELLTOWER_KEYBOARD_THREAD !== '0',
        log,
      });
  const firstSize = serving ?? { cols: terminal?.cols ?? FALLBACK_SIZE.cols, rows: terminal?.rows ?? FALLBACK_SIZE.rows };

  // Inside tmux, COLORTERM rarely says it: ask tmux what the terminal outside can show. Tiles are
  // told truecolor when it has it, as a terminal emulator tells its programs.
  const depth = colorDepthFrom(process.env, tmuxClientFeatures(process.env));
  const tileEnv = depth === 'truecolor' && !process.env.COLORTERM ? { ...process.env, COLORTERM: 'truecolor' } : process.env;
  // git's counts of the tiles' changes wait for the first frame (or a server's readiness): at
  // start they compete with it for the cores (bench item 6).
  let firstFrame = (): void => undefined;
  const changesAfter = new Promise<void>((resolve) => (firstFrame = resolve));
  const tiles = new TileSet({
    cwd: process.cwd(),
    env: tileEnv,
    changesAfter,
    cols: FALLBACK_SIZE.cols,
    rows: FALLBACK_SIZE.rows,
    timing: options.timing,
    ...options.tileSet,
    logger: log,
    ...(grid.scrollback !== undefined ? { scrollback: grid.scrollback } : {}),
  });

  let control: ControlServer;
  try {
    control = await ControlServer.listen(socketPath(dirs.runtime, session), tiles);
  } catch (error) {
    if (error instanceof ControlServerError) {
      options.say(`belltower: ${error.message}`);
      return EXIT.usage;
    }
    throw error;
  }
  // The socket is this session's lock: from here on, no other belltower writes its state.
  const start = await options.chooseStart();
  if ('exit' in start) {
    await control.close();
    return start.exit;
  }
  const { setup, requests, restoring } = start;
  const timings = requests.map((r) => (r.timing && Object.keys(r.timing).length > 0 ? resolveTiming({ ...setup.timing, ...r.timing }) : setup.timing));
  const sizes = initialSizes(firstSize.cols, firstSize.rows, setup.launches.length);
  const sizeOf = (index: number) => sizes[index] ?? { width: FALLBACK_SIZE.cols, height: FALLBACK_SIZE.rows };

  sweepOrphans(dirs.runtime, Date.now(), { logger: log });
  log('info', 'ui start', { session, specs: setup.launches.map((l) => l.spec), socket: control.path, bell: grid.bell, escapeKey: grid.escapeKey, restored: restoring !== null });

  const quiet = captureStray(log);
  let app: GridApp | null = null;
  /** A server's attached clients (each with its grid). */
  let clients: SessionClients | null = null;
  /** A server's `--on-ring` command. */
  let ringCommand: RingCommand | null = null;
  /** The chrome's row cache at work (rows built and reused), for the log at the end. */
  let rowCacheStats: (() => object) | null = null;
  /** Texts the chrome measured, and Ink's widest-line asks, for the same line. */
  let widthStats: (() => object) | null = null;
  let finishing = false;
  const settings = new Map<number, TileSettings>();
  const extras = new Map<number, TileExtras>();
  const initialUi: InitialUi = {
    selected: restoring?.plan.ui.selected ?? 0,
    zoomed: restoring?.plan.ui.zoomed ?? false,
    layoutMode: restoring?.plan.ui.layout ?? 'auto',
    hideIdle: restoring?.plan.ui.hideIdle ?? false,
    unseen: [],
    muted: [],
  };
  // Said once on the status line (or, before the grid shows, as its first note).
  const stateTrouble = (message: string) => {
    if (clients) clients.say(message);
    else if (app) app.say(message);
    else initialUi.note = message;
  };
  const saver = options.stateFile
    ? new StateSaver({
        file: options.stateFile,
        logger: log,
        onTrouble: stateTrouble,
        capture: (ended) =>
          captureState({
            session,
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
  // How the session ends: a signal, a crash, or null (q, time is up, the last tile exited).
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
  /** What a crash said, for the clients too: a server's own stderr is no one's terminal. */
  let crashed: string | undefined;
  const onCrash = (error: unknown) => {
    log('error', 'crashed', { stack: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    if (finishing) return;
    restoreScreen();
    crashed = `belltower: crashed (${error instanceof Error ? error.message : String(error)}); the details are in ${logPath}`;
    options.say(crashed);
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
  const timer = options.stopAfterMs === undefined ? undefined : setTimeout(() => finish(null, 'time is up'), options.stopAfterMs);
  try {
    terminal?.enter({ mouse: options.mouse });
    // Rings that come before the grid does (a quick command finishes while Ink loads) wait for it.
    const earlyRings: { id: number; state: RingState }[] = [];
    const offEarlyRings = tiles.onRing((id, state) => {
      if (earlyRings.length < MAX_EARLY_RINGS) earlyRings.push({ id, state });
    });
    const unseen: number[] = [];
    const muted: number[] = [];
    const notStarted: string[] = [];
    for (const [i, launch] of setup.launches.entries()) {
      const size = sizeOf(i);
      const request = requests[i]!;
      // A workspace file's `worktree`: the one made for this tile before, or a new one; a refusal
      // starts nothing for it and is said on the status line and in the log.
      let worktree = request.worktree;
      if (!worktree && request.newWorktree) {
        const made = await tileWorktree(launch, request.cwd, { ...request.newWorktree, hint: request.name ?? launch.name, reuse: true }, { env: tileEnv });
        if (typeof made === 'string') {
          notStarted.push(`tile ${i + 1}${request.name ? ` ${request.name}` : ''}: ${made}`);
          log('warn', `not started: tile ${i + 1}: ${made}`);
          continue;
        }
        worktree = made;
      }
      const tile = await tiles.add(launch, {
        ...(request.name ? { name: request.name } : {}),
        // A restored screen is drawn at its own size; the grid gives the tile its place after.
        cols: request.size?.cols ?? size.width,
        rows: request.size?.rows ?? size.height,
        cwd: worktree?.path ?? request.cwd,
        ...(request.env ? { env: request.env } : {}),
        timing: timings[i]!,
        ...(request.conversation ? { conversation: request.conversation } : {}),
        ...(request.restored ? { restored: request.restored } : {}),
        ...(worktree ? { worktree } : {}),
        ...(request.remoteHooks !== undefined && !options.remoteHooksForAll ? { remoteHooks: request.remoteHooks } : {}),
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
    if (restoring) {
      const count = restoring.plan.tiles.length;
      initialUi.note = `restored ${count} ${count === 1 ? 'tile' : 'tiles'} from ${when(new Date(restoring.state.savedAt), new Date())}${restoring.plan.skipped.length > 0 ? ` (${restoring.plan.skipped.length} not: see the log)` : ''}`;
      for (const line of restoring.plan.skipped) log('warn', `not restored: ${line}`);
    }
    if (notStarted.length > 0) {
      const said = `not started: ${notStarted[0]}${notStarted.length > 1 ? ` (and ${notStarted.length - 1} more: see the log)` : ''}`;
      initialUi.note = initialUi.note ? `${initialUi.note} · ${said}` : said;
    }
    saver?.changed();
    if (!finishing) {
      const { GridApp, chromeStylesOn, inkRowCacheOn, inkRowCacheStats, widthCounts } = await loadingApp;
      if (serving) chromeStylesOn();
      log('info', 'grid loaded', { inkRowCache: inkRowCacheOn });
      rowCacheStats = inkRowCacheStats;
      widthStats = widthCounts;
      const makeApp = (port: TerminalPort, env: NodeJS.ProcessEnv, onDetach?: () => void, own: ClientOptions = {}) => {
        // A client's own --bell, --notify and --escape-key, over the session's (checked again here:
        // a client of another build may send what this one does not know).
        const mine = options.readClientFlags({ bell: own.bell ?? grid.bell, notify: own.notify ?? grid.notify, escapeKey: own.escapeKey ?? grid.escapeKey });
        if ('error' in mine) log('warn', `attach: a client's own options are not used: ${mine.error}`);
        const chosen = 'error' in mine ? grid : mine;
        return new GridApp({
          initial: uiForNextClient(clients?.snapshot() ?? null, initialUi),
          onUiChange: () => saver?.changed(),
          view: tiles,
          terminal: port,
          escapeKey: chosen.escapeKey,
          bell: chosen.bell,
          notify: chooseNotifier(chosen.notify, env),
          notifyWrap: multiplexer(env),
          quietPeriodMs: grid.quietPeriodMs,
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
        ringCommand = options.onRing ? new RingCommand({ command: options.onRing, logger: log }) : null;
        clients = await SessionClients.listen({
          path: attachSocketPath(dirs.runtime, session),
          runtimeDir: dirs.runtime,
          session,
          version: options.version,
          cwd: process.cwd(),
          logger: log,
          keyboardThread: process.env.BELLTOWER_KEYBOARD_THREAD !== '0',
          view: tiles,
          earlier: earlyRings,
          makeApp: (link, detach) => {
            // The client entered its terminal's modes as it attached; mouse reports are the
            // session's choice (--mouse), and its restore turns them off again.
            if (options.mouse) link.write(MOUSE_ON);
            return makeApp(link, { ...link.hello.env }, detach, link.hello.options);
          },
          changed: () => {
            saver?.changed();
            endIfDone();
          },
          unattended: (id, state) => {
            const info = tiles.tileInfos().find((t) => t.id === id);
            if (!info || !ringCommand) return;
            // A tile muted in the last client's grid, or kept quiet by the workspace file, is not pushed.
            if (clients?.snapshot()?.muted.includes(id) || settings.get(id)?.notify === false) return;
            ringCommand.ring({ session, tile: id, name: info.name, folder: info.cwd ?? process.cwd(), state, agent: info.agent, ...(info.says ? { message: info.says } : {}) });
          },
        });
        offEarlyRings();
        control.serveSession({ detach: (all) => clients?.detach(all) ?? 0 });
        tiles.onChange(() => endIfDone());
        log('info', 'server ready', { attach: attachSocketPath(dirs.runtime, session), pid: process.pid });
        firstFrame();
      } else if (terminal) {
        app = makeApp(terminal, process.env);
        offEarlyRings();
        app.start(earlyRings); // paints the first frame
        firstFrame();
      }
      if (options.exitWithLastTile) void tiles.allExited().then(() => finish(null, 'every tile exited'));
    }
    ending = await done;
  } catch (error) {
    onCrash(error);
    ending = 'crash';
  } finally {
    firstFrame();
    if (timer) clearTimeout(timer);
    restoreScreen();
    // Before the clients are let go: what they were drawn with is in the log once they have ended.
    if (app || clients) log('info', 'ui painted', { ...(app ? app.stats : {}), ...(rowCacheStats ? { inkRows: rowCacheStats() } : {}), ...(widthStats ? { widths: widthStats() } : {}) });
    ringCommand?.close();
    await tiles.stop();
    await control.close();
    if (clients) {
      const status = ending === 'crash' ? EXIT.failure : exitStatus(ending, tiles.ends());
      if (crashed) await clients.close('ended', status, crashed);
      else await clients.close(ending === null ? 'quit' : 'killed', status);
    }
    process.off('SIGHUP', ignoreHangUp);
    for (const signal of signals) process.off(signal, onSignal);
    process.off('uncaughtException', onCrash);
    process.off('unhandledRejection', onCrash);
    for (const listener of outerUncaught) process.on('uncaughtException', listener);
    for (const listener of outerRejection) process.on('unhandledRejection', listener);
    if (!serving) process.stdout.off('error', onStdoutError);
    removeExitHook();
    if (saver) log('info', 'workspace state', { file: options.stateFile, ...saver.stats });
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

/** Where a client's grid starts: where the last one left it (selection, zoom, layout, marks), or
 * where the session started. */
function uiForNextClient(seen: ReturnType<GridApp['snapshot']> | null, start: InitialUi): InitialUi {
  if (!seen) return start;
  return { selected: seen.selected, zoomed: seen.zoomed, layoutMode: seen.layout, hideIdle: seen.hideIdle, unseen: seen.unseen, muted: seen.muted };
}
