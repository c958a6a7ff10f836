/**
 * The grid's imperative shell: reads keys from the user's terminal, runs them through the pure UI
 * state, acts on the tiles through the workspace view, rings the bell, and paints frames — at most
 * 30 a second and none while nothing visible changes.
 */
import { createElement } from 'react';
import type { Logger } from '../platform/logger.js';
import type { TileInfo } from '../control/protocol.js';
import { remoteWhy } from '../remote/remote-why.js';
import type { RingState, TileScreenView, WorkspaceView } from '../tile/workspace-view.js';
import { missed, ringArrived } from './attention.js';
import { whileAwayNote } from './while-away.js';
import { BEL } from './bell.js';
import type { BellMode } from './bell.js';
import type { Body, PaintableScreen } from './body-writer.js';
import { ChromeRenderer } from './chrome-renderer.js';
import { changesLabel } from './header.js';
import type { ColorDepth } from './color-depth.js';
import { GridView } from './components/grid-view.js';
import type { GridModel } from './components/grid-view.js';
import { nextTickedAgeChange, showsAge, tickedAge } from './format.js';
import { FrameWriter } from './frame-writer.js';
import { withoutWritten, type DirectWritten } from './direct-keys.js';
import { flushPending, INITIAL_PARSER, parseInput } from './input-parser.js';
import type { KeyTarget } from './keyboard-thread.js';
import type { InputEvent, ParserState } from './input-parser.js';
import { compactSize } from './initial-sizes.js';
import { lastLineOf } from './last-line.js';
import { layout } from './layout.js';
import type { Layout, LayoutMode, Rect } from './layout.js';
import { notificationBody, notificationSequence } from './notify.js';
import { askedWords, WordedNotifications } from './worded-notifications.js';
import type { Notifier } from './notify.js';
import { overlayContent, overlayFit, overlayRect, peekRect } from './overlay.js';
import { bigOrder, nextBigSet } from './big-set.js';
import { foldersFrom, isFolderTyped, programsOnPath } from '../platform/path-completions.js';
import type { AnswerChoice } from '../control/protocol.js';
import { answerWords } from '../agents/permission-choices.js';
import { rowText } from '../session/styled-row.js';
import type { AddForm, Completions } from './tile-forms.js';
import { loadReview } from './review-source.js';
import { lossRead } from './close-worktree.js';
import { readWorktreeLoss, removeTileWorktree } from './worktree-closing.js';
import type { ReviewLine } from './review.js';
import { describeFacts } from '../sources/transcript/session-facts.js';
import { follow, scrollbackView } from './scroll.js';
import { clipboardSequence, copiedNote, selectionSummary, selectionText } from './copy-mode.js';
import type { ScrollState } from './scroll.js';
import { NO_ATTENTION } from './attention.js';
import { clampSelection, handleInput, INITIAL_UI, withNote } from './ui-state.js';
import type { TileSummary, UiEffect, UiState } from './ui-state.js';

/** What the app needs of the user's terminal (UserTerminal implements it). */
/** Body cache keys apart from the tiles' own ids (which are positive): a peek, a preview. */
const PEEK_KEY = -1;
const PREVIEW_KEY = -1_000_000_000;

export { chromeStylesOn, inkRowCacheOn } from './chrome-renderer.js';
export { inkRowCacheStats } from './ink-row-cache.js';
export { widthCounts } from './display-width.js';

export interface TerminalPort {
  readonly cols: number;
  readonly rows: number;
  write(data: string): void;
  /** `direct`: the part of `data` the terminal's keyboard thread already wrote to a tile (see
   * `directKeys`). */
  onInput(listener: (data: string, direct?: DirectWritten) => void): () => void;
  /** Plain typing may go to `target`'s pty before the app sees it (null: to no tile). Absent
   * where keys reach the app first (an attached client's). */
  directKeys?(target: KeyTarget | null): void;
  onResized(listener: () => void): () => void;
  /** A terminal at the end of a connection (an attached client) may fall behind: while it is, the
   * grid holds its next frame, and paints what is current then once it has caught up — frames go
   * no faster than the terminal takes them, and it never gets one that is already old. */
  readonly backedUp?: boolean;
  onCaughtUp?(listener: () => void): () => void;
}

/** What the workspace file says of one tile (defaults for tiles added later). */
export interface TileSettings {
  bell: boolean;
  notify: boolean;
  escapeKey?: string;
}

export interface GridAppOptions {
  view: WorkspaceView;
  terminal: TerminalPort;
  escapeKey: string;
  bell: BellMode;
  /** The desktop notification this terminal shows, and the multiplexer to pass it through. */
  notify?: Notifier;
  notifyWrap?: 'tmux' | 'screen' | null;
  /** A tile ringing again within this long of its last ring is shown, not rung. */
  quietPeriodMs?: number;
  tileSettings?: (id: number) => TileSettings;
  /** Where a tile added with `a` starts unless the user names a folder. */
  cwd?: string;
  color: boolean;
  depth: ColorDepth;
  logger: Logger;
  /** The user asked to quit (q, confirmed). */
  onQuit: () => void;
  /** The user asked to leave with every tile running (d); absent where there is no server to
   * keep them. */
  onDetach?: () => void;
  now?: () => number;
  /** Where the grid starts (a restore): selection, zoom, layout, hidden idle tiles, the unseen and
   * muted tile ids, and a word on the status line. */
  initial?: InitialUi;
  /** What a restore brings back changed: the selection, zoom, layout, unseen or muted tiles. */
  onUiChange?: () => void;
}

export interface InitialUi {
  selected: number;
  zoomed: boolean;
  layoutMode: LayoutMode;
  hideIdle: boolean;
  unseen: readonly number[];
  muted: readonly number[];
  note?: string;
}

/** At most this many frames a second. */
export const MAX_FPS = 30;
const FRAME_MS = Math.ceil(1000 / MAX_FPS);
/** A lone ESC is the Escape key once this long passes without the rest of a sequence. */
const ESCAPE_WAIT_MS = 25;
/** Looks, 1, 2, 4 … 32 ms apart, for a focused tile's queued writes to be gone (directKeys). */
const DIRECT_RETRIES = 6;
/** Resizing a pty makes its program redraw: wait until the window stops changing size. */
const PTY_RESIZE_DEBOUNCE_MS = 80;

/** How long the status line says what rang while nobody was attached. */
const AWAY_NOTE_MS = 20_000;

export class GridApp {
  private ui: UiState = INITIAL_UI;
  private parser: ParserState = INITIAL_PARSER;
  private readonly frames: FrameWriter;
  private chrome: ChromeRenderer | null = null;
  private chromeDirty = true;
  private lastPaint = -Infinity;
  private paintTimer: NodeJS.Timeout | undefined;
  /** A frame is owed to a terminal that was behind (see TerminalPort.backedUp). */
  private heldForTerminal = false;
  private ageTimer: NodeJS.Timeout | undefined;
  private escapeTimer: NodeJS.Timeout | undefined;
  private directRetry: NodeJS.Timeout | undefined;
  /** A chunk's events are being handled (directKeys waits for the end). */
  private handling = false;
  private resizeTimer: NodeJS.Timeout | undefined;
  private readonly unsubscribe: (() => void)[] = [];
  private visible = new Set<number>();
  private stopped = false;
  /** Notifications of blocked tiles waiting for the agent's words (worded-notifications.ts). */
  private readonly notifications: WordedNotifications;
  private readonly now: () => number;
  private readonly lastLines = new Map<number, { screen: unknown; view: PaintableScreen }>();
  private scrolled: { state: ScrollState; screen: unknown; view: PaintableScreen } | null = null;
  private shownIds = '';
  /** The request each blocked tile showed in the last frame drawn: an answer is for that one. */
  private readonly shownRequests = new Map<number, string>();
  /** Where the add form's Tab looks: PATH, and folders from where belltower started. */
  private readonly completions: Completions = {
    programs: (prefix) => programsOnPath(prefix, process.env.PATH),
    folders: (partial) => foldersFrom(partial, this.options.cwd ?? process.cwd(), process.env.HOME),
    isFolder: (typed) => isFolderTyped(typed, this.options.cwd ?? process.cwd(), process.env.HOME),
  };
  /** The rows layout's big tiles (ids, in the order they joined) and its rows' scroll. */
  private big: readonly number[] = [];
  private bigMoved = false;
  /** Each tile's state at the last paint, to tell a tile that starts working again. */
  private lastStates = new Map<number, TileInfo['state']>();
  private rowsFirst: number | undefined;
  /** Frames painted and bytes written, for benchmarks and the log. */
  readonly stats = { frames: 0, bytes: 0, bells: 0, notifications: 0 };

  constructor(private readonly options: GridAppOptions) {
    this.now = options.now ?? (() => performance.now());
    this.notifications = new WordedNotifications({ info: (id) => options.view.tileInfos().find((t) => t.id === id), send: (info, state) => this.notify(info, state) });
    this.frames = new FrameWriter(options.depth);
    const initial = options.initial;
    if (initial) {
      const seeded: UiState = {
        ...INITIAL_UI,
        selected: initial.selected,
        zoomed: initial.zoomed,
        layoutMode: initial.layoutMode,
        hideIdle: initial.hideIdle,
        attention: { ...NO_ATTENTION, unseen: initial.unseen, muted: initial.muted },
      };
      this.ui = initial.note ? withNote(seeded, initial.note, this.now()) : seeded;
    }
  }

  /** What a restore needs of the UI state: the selection, zoom, layout, unseen and muted ids. */
  snapshot(): { selected: number; zoomed: boolean; layout: LayoutMode; hideIdle: boolean; unseen: readonly number[]; muted: readonly number[] } {
    const ui = this.ui;
    return { selected: ui.selected, zoomed: ui.zoomed, layout: ui.layoutMode, hideIdle: ui.hideIdle, unseen: ui.attention.unseen, muted: ui.attention.muted };
  }

  /** A line on the status line for a moment: news from belltower itself (a save that failed). */
  say(text: string): void {
    if (this.stopped) return;
    this.ui = withNote(this.ui, text, this.now());
    this.markChrome();
  }

  /** Tell the listener when a part of the UI state that a restore brings back moved. */
  private kept(before: UiState): void {
    const ui = this.ui;
    const moved =
      ui.selected !== before.selected ||
      ui.zoomed !== before.zoomed ||
      ui.layoutMode !== before.layoutMode ||
      ui.hideIdle !== before.hideIdle ||
      ui.attention.unseen !== before.attention.unseen ||
      ui.attention.muted !== before.attention.muted;
    if (moved) this.options.onUiChange?.();
  }

  /** `earlier`: the rings of tiles that finished before the grid started (a quick command's done
   * must ring even when it beat the grid's first paint). `away`: the rings that came while no
   * client was attached to the session — old news: unseen, said on the status line, not rung. */
  start(earlier: readonly { id: number; state: RingState }[] = [], away: readonly { id: number; state: RingState }[] = []): void {
    const { view, terminal } = this.options;
    this.unsubscribe.push(
      view.onChange(() => {
        this.markChrome();
        this.notifications.changed();
      }),
      view.onActivity((id) => {
        if (this.visible.has(id)) this.markBodies();
      }),
      view.onRing((id, state) => this.ring(id, state)),
      terminal.onInput((data, direct) => this.input(data, direct)),
      terminal.onResized(() => {
        this.frames.invalidate();
        this.markChrome();
        this.scheduleResize();
      }),
    );
    if (terminal.onCaughtUp) {
      this.unsubscribe.push(
        terminal.onCaughtUp(() => {
          if (!this.heldForTerminal) return;
          this.heldForTerminal = false;
          this.requestPaint();
        }),
      );
    }
    this.applySizes();
    for (const { id, state } of earlier) this.ring(id, state);
    if (away.length > 0) {
      const names = new Map(view.tileInfos().map((t) => [t.id, t.name]));
      const note = whileAwayNote(away, (id) => names.get(id));
      this.ui = { ...this.ui, attention: missed(this.ui.attention, away.map((r) => r.id).filter((id) => names.has(id))) };
      if (note) this.ui = withNote(this.ui, note, this.now(), AWAY_NOTE_MS);
      this.options.logger('info', `attached after ${away.length} ring(s) with no client: ${note ?? 'tiles since closed'}`);
    }
    this.paint();
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.options.terminal.directKeys?.(null);
    for (const off of this.unsubscribe.splice(0)) off();
    for (const timer of [this.paintTimer, this.ageTimer, this.escapeTimer, this.resizeTimer, this.directRetry]) if (timer) clearTimeout(timer);
    this.notifications.stop();
    this.chrome?.unmount();
    this.chrome = null;
  }

  /** The current UI state (for tests and the log). */
  get state(): UiState {
    return this.ui;
  }

  private input(data: string, direct?: DirectWritten): void {
    if (direct && this.keyboardTile()?.id !== direct.tileId) {
      // The UI moved off that tile without a key (a tile added, a form back) after the keyboard
      // thread wrote to it: those keys were that tile's, and reached it; the rest is the UI's now.
      data = data.slice(direct.chars);
      direct = undefined;
      if (data === '') return this.directKeys();
    }
    if (this.escapeTimer) clearTimeout(this.escapeTimer);
    this.escapeTimer = undefined;
    const parsed = parseInput(this.parser, data);
    this.parser = parsed.state;
    this.handle(parsed.events, direct);
    if (this.parser.pending !== '') {
      this.escapeTimer = setTimeout(() => {
        this.escapeTimer = undefined;
        const flushed = flushPending(this.parser);
        this.parser = flushed.state;
        this.handle(flushed.events);
        this.directKeys();
      }, ESCAPE_WAIT_MS);
    }
    this.directKeys();
  }

  /**
   * Tell the terminal which tile plain typing may go to before this thread sees it: the focused
   * one, while nothing else can take a key (an overlay, a scroll view, an escape sequence half
   * read) and its program runs. What that tile is sent for those keys is exactly what was typed
   * (direct-keys.ts), so only when it arrives changes.
   */
  private directKeys(retry = 0): void {
    const { terminal, view } = this.options;
    // Not while a chunk's effects are being carried out: its own writes are not queued yet.
    if (!terminal.directKeys || this.stopped || this.handling) return;
    if (this.directRetry) clearTimeout(this.directRetry);
    this.directRetry = undefined;
    const info = this.keyboardTile();
    const fd = info && info.state !== 'exited' ? view.keyboardFd?.(info.id) : undefined;
    terminal.directKeys(info && fd !== undefined ? { tileId: info.id, fd, escapeKey: this.settings(info.id).escapeKey ?? this.options.escapeKey } : null);
    // A tile with this thread's own writes still queued (the key just handled here) takes keys
    // from the other thread once they are gone: look again shortly, a few times, not for ever (a
    // program that does not read its input keeps them queued).
    if (info && info.state !== 'exited' && fd === undefined && retry < DIRECT_RETRIES) {
      this.directRetry = setTimeout(() => this.directKeys(retry + 1), 1 << retry);
    }
  }

  /** The tile the keyboard is the program's in: the focused one, while nothing else can take a
   * key (an overlay, a scroll view, an escape sequence half read). */
  private keyboardTile(): TileInfo | undefined {
    const ui = this.ui;
    const ready = ui.mode === 'focus' && !ui.overlay && !ui.scroll && this.parser.pending === '' && this.parser.paste === null && !this.escapeTimer;
    return ready ? this.options.view.tileInfos()[ui.selected] : undefined;
  }

  private handle(events: InputEvent[], direct?: DirectWritten): void {
    this.handling = true;
    try {
      this.handleEvents(events, direct);
    } finally {
      this.handling = false;
    }
  }

  private handleEvents(events: InputEvent[], direct?: DirectWritten): void {
    if (events.length === 0 || this.stopped) return;
    const infos = this.options.view.tileInfos();
    const summaries = infos.map((info) => this.summary(info));
    const grid = this.layoutOf(infos, false);
    const shown = this.layoutOf(infos);
    const cols = this.options.terminal.cols;
    const rows = this.options.terminal.rows;
    const help = this.ui.overlay?.type === 'help' ? overlayContent(this.ui.overlay, { escapeKey: this.options.escapeKey, why: null }, cols - 4) : null;
    const selectedId = infos[this.ui.selected]?.id;
    const escapeKey = (selectedId !== undefined ? this.settings(selectedId).escapeKey : undefined) ?? this.options.escapeKey;
    const screen = selectedId !== undefined ? this.options.view.screenOf(selectedId) : undefined;
    const ctx = {
      now: this.now(),
      tiles: summaries,
      grid: grid.kind === 'grid' ? grid.tiles : [],
      ...(grid.kind === 'grid' && grid.rowOrder ? { rowOrder: grid.rowOrder } : {}),
      ...(help ? { helpLines: { total: help.lines.length, fit: overlayFit(rows) } } : {}),
      overlayFit: overlayFit(rows),
      shown: shown.kind === 'grid' ? shown.tiles : [],
      escapeKey,
      cwd: this.options.cwd ?? '.',
      completions: this.completions,
      ...(screen
        ? {
            scrollSource: {
              rows: screen.rows,
              bufferLength: screen.bufferLength,
              scrolledLines: screen.scrolledLines,
              lineText: (i: number) => screen.lineText(i),
              alternate: screen.activeBuffer === 'alternate',
            },
          }
        : {}),
    };
    const before = this.ui;
    const effects: UiEffect[] = [];
    for (const event of events) {
      const step = handleInput(this.ui, event, ctx);
      this.ui = step.state;
      effects.push(...step.effects);
    }
    for (const effect of direct ? withoutWritten(effects, direct) : effects) this.perform(effect);
    this.kept(before);
    if (this.ui !== before) {
      if (this.ui.zoomed !== before.zoomed || this.ui.selected !== before.selected || this.ui.layoutMode !== before.layoutMode || this.ui.hideIdle !== before.hideIdle) this.applySizes();
      // Keys typed into a focused tile change only what the chrome never shows (the line being
      // typed): re-rendering it for each of them cost a whole chrome frame per keystroke.
      if (chromeChanged(before, this.ui)) this.markChrome();
    }
  }

  private perform(effect: UiEffect): void {
    const { view } = this.options;
    switch (effect.type) {
      case 'write':
        return view.input(effect.tileId, effect.data);
      case 'prompt':
        return view.submitted(effect.tileId, effect.local);
      case 'seen':
        return view.seen(effect.tileId);
      case 'quit':
        return this.options.onQuit();
      case 'detach':
        if (this.options.onDetach) return this.options.onDetach();
        return this.say('d detaches from a session server: this grid runs with --no-server, so its tiles end with this terminal');
      case 'add':
        return void this.settle(view.addTile?.(effect.spec, { cwd: effect.cwd, ...(effect.name ? { name: effect.name } : {}), ...(effect.worktree ? { worktree: effect.worktree } : {}) }), (info) => {
          const index = view.tileInfos().findIndex((t) => t.id === info.id);
          const before = this.ui;
          if (index >= 0) this.ui = { ...this.ui, selected: index };
          this.kept(before);
          return `tile ${info.id} ${info.name} added${info.worktree ? ` in a worktree on branch ${info.worktree.branch}` : ''}`;
        }, (reason) => ({
          type: 'add',
          fields: [effect.spec, effect.cwd, effect.name ?? '', effect.worktreeField ?? ''],
          // The reason goes under the field it is about (a worktree's refusals name git or a branch).
          field: effect.worktree && /worktree|branch|git|commit|lock/.test(reason) ? 3 : /folder|directory/.test(reason) ? 1 : /tile name|another tile/.test(reason) ? 2 : 0,
          error: reason,
        }));
      case 'close': {
        const info = view.tileInfos().find((t) => t.id === effect.tileId);
        if (!info) return;
        const remove = effect.remove;
        return void this.settle(
          view.closeTile?.(info).then(async (error) => {
            if (error !== null || !remove) return error ?? info;
            const removed = await removeTileWorktree(remove);
            this.options.logger('info', `tile ${info.id} closed, worktree ${remove.path}: ${removed}`);
            return { ...info, removed };
          }),
          (closed) => `tile ${info.id} ${info.name} closed${'removed' in closed ? `; ${closed.removed}` : ''}`,
        );
      }
      case 'worktree-loss':
        return this.readLoss(effect.tileId, effect.path);
      case 'restart': {
        const info = view.tileInfos().find((t) => t.id === effect.tileId);
        if (!info) return;
        return void this.settle(view.restartTile?.(info), () => `tile ${info.id} ${info.name} restarted`);
      }
      case 'answer':
        return this.answer(effect.tileId, effect.answer, effect.request, effect.message);
      case 'review':
        return this.review(effect.tileId);
      case 'send': {
        const infos = view.tileInfos();
        const sent: string[] = [];
        const refused: string[] = [];
        for (const id of effect.tileIds) {
          const info = infos.find((t) => t.id === id);
          const error = info ? view.send(info, effect.text, true) : `tile ${id} is gone`;
          if (error) refused.push(error);
          else sent.push(`${info!.id} ${info!.name}`);
        }
        const said = sent.length === 1 ? `sent to tile ${sent[0]}` : sent.length > 1 ? `sent to ${sent.length} tiles: ${sent.join(', ')}` : 'nothing sent';
        this.ui = withNote(this.ui, [said, ...refused].join(' · '), this.now());
        return this.markChrome();
      }
      case 'rename': {
        const info = view.tileInfos().find((t) => t.id === effect.tileId);
        if (!info || !view.renameTile) return;
        const renamed = view.renameTile(info, effect.name);
        this.ui = withNote(this.ui, typeof renamed === 'string' ? renamed : `tile ${info.id} is now ${renamed.name}`, this.now());
        return this.markChrome();
      }
      case 'copy': {
        // The text is read now, from the screen itself (its soft-wrapped rows are joined again),
        // and goes to the outer terminal's clipboard (OSC 52; through tmux or screen when inside).
        const screen = view.screenOf(effect.tileId);
        if (!screen) return;
        const copied = selectionText(screen, effect.range);
        if (copied.text !== '') this.options.terminal.write(clipboardSequence(copied.text, this.options.notifyWrap ?? null));
        this.ui = withNote(this.ui, copiedNote(copied), this.now());
        return this.markChrome();
      }
    }
  }

  /** Tell the close question open on tile `id` what removing its worktree would lose. */
  private readLoss(id: number, folder: string): void {
    void readWorktreeLoss(folder).then((read) => {
      const open = this.ui.overlay;
      if (this.stopped || open?.type !== 'close-worktree' || open.tileId !== id || open.step !== 'reading') return;
      const step = lossRead(open, read);
      this.ui = { ...this.ui, overlay: step.overlay };
      for (const effect of step.effects) this.perform(effect);
      this.markChrome();
    });
  }

  /** Fill the review overlay open on tile `id` with what git says of its changes. */
  private review(id: number): void {
    const info = this.options.view.tileInfos().find((t) => t.id === id);
    const fill = (result: { lines: ReviewLine[] } | { error: string }) => {
      const open = this.ui.overlay;
      if (this.stopped || open?.type !== 'review' || open.tileId !== id || open.lines !== null || open.error !== null) return;
      this.ui = { ...this.ui, overlay: 'lines' in result ? { ...open, lines: result.lines } : { ...open, error: result.error } };
      this.markChrome();
    };
    if (!info) return fill({ error: `tile ${id} is gone` });
    void loadReview(info).then(fill, (error: unknown) => {
      this.options.logger('error', `review of tile ${id}: ${(error as Error).stack ?? String(error)}`);
      fill({ error: `its changes could not be read: ${(error as Error).message}` });
    });
  }

  /**
   * Answer a tile's permission request from the grid (tile/answer-request.ts): only the request
   * the user was shown (the one the frame they answered drew), with the option its dialog offers
   * for it now; how it went goes on the status line.
   */
  private answer(id: number, answer: AnswerChoice, shown: string | undefined, message?: string): void {
    const say = (text: string) => {
      if (this.stopped) return;
      this.ui = withNote(this.ui, text, this.now());
      this.markChrome();
    };
    const view = this.options.view;
    const info = view.tileInfos().find((t) => t.id === id);
    if (!info) return say(`tile ${id} is gone: nothing sent`);
    if (!view.answer) return say('this belltower cannot answer requests');
    if (shown === undefined) return say(`tile ${id}'s request is not drawn yet: look again (nothing sent)`);
    say(`tile ${id}: ${answerWords(answer)}…`);
    void view.answer(info, answer, { request: shown, ...(message !== undefined ? { message } : {}) }).then(
      (outcome) => say(outcome.ok ? `tile ${id}: ${answerWords(answer)} — "${outcome.answered}"${answer === 'deny' && message !== undefined ? ', and told it what to do' : ''}` : outcome.error),
      (error: unknown) => say(`tile ${id}: could not answer: ${(error as Error).message}`),
    );
  }

  /** Wait for an action on the tiles, then say how it went on the status line. */
  private async settle<T extends object>(pending: Promise<T | string> | undefined, said: (result: T) => string, refused?: (reason: string) => AddForm): Promise<void> {
    if (!pending) {
      this.ui = withNote(this.ui, 'this belltower cannot do that', this.now());
      return this.markChrome();
    }
    let text: string;
    try {
      const result = await pending;
      text = typeof result === 'string' ? result : said(result);
      if (typeof result === 'string' && refused && this.ui.overlay === null && !this.stopped) {
        // Refused: the form comes back as it was, the reason under the field it is about.
        this.ui = { ...this.ui, overlay: refused(result) };
        return this.markChrome();
      }
    } catch (error) {
      text = (error as Error).message;
    }
    if (this.stopped) return;
    this.ui = withNote(this.ui, text, this.now());
    this.applySizes();
    this.markChrome();
  }

  private ring(id: number, state: RingState): void {
    if (this.stopped) return;
    const infos = this.options.view.tileInfos();
    const index = infos.findIndex((t) => t.id === id);
    const info = infos[index];
    const tile = this.settings(id);
    const notifier = this.options.notify ?? 'off';
    const outcome = ringArrived(this.ui.attention, id, {
      now: this.now(),
      bell: this.options.bell,
      notify: notifier !== 'off',
      quietPeriodMs: this.options.quietPeriodMs ?? 0,
      tileBell: tile.bell,
      tileNotify: tile.notify,
      tileIndex: index,
      lookingAt: this.ui.mode === 'focus' || this.ui.zoomed ? this.ui.selected : null,
      windowFocused: this.ui.windowFocused,
    });
    const before = this.ui;
    this.ui = { ...this.ui, attention: outcome.attention };
    this.kept(before);
    this.options.logger('info', `tile ${id} ${state}: ${outcome.bell ? 'bell' : 'no bell'}, ${outcome.notify ? 'notification' : 'no notification'} (${outcome.why})`);
    let bytes = '';
    if (outcome.bell) {
      this.stats.bells++;
      bytes += BEL;
    }
    if (bytes) this.options.terminal.write(bytes);
    if (outcome.notify && info) this.notifications.ring(info, state);
    this.markChrome();
  }

  /** A notification as it goes out: in the agent's words for what it asks, where they came. */
  private notify(info: TileInfo, state: RingState): void {
    if (this.stopped) return;
    this.stats.notifications++;
    const words = state === 'blocked' ? askedWords(info) : info.says;
    this.options.terminal.write(notificationSequence(this.options.notify ?? 'off', info.name, notificationBody(state, words, info.kind), this.options.notifyWrap ?? null, info.id));
  }

  private settings(id: number): TileSettings {
    return this.options.tileSettings?.(id) ?? { bell: true, notify: true };
  }

  private summary(info: TileInfo): TileSummary {
    const screen = this.options.view.screenOf(info.id);
    const shown = this.shownRequests.get(info.id);
    return {
      id: info.id,
      name: info.name,
      state: info.state,
      sinceMs: info.sinceMs,
      ...(screen && info.state !== 'exited' ? { modes: screen.inputModes } : {}),
      ...(shown !== undefined ? { shownRequest: shown } : {}),
      ...(info.worktree ? { worktree: { path: info.worktree.path, branch: info.worktree.branch } } : {}),
    };
  }

  /** The layout for these tiles now: the user's mode, hidden idle tiles, the large ones. */
  private layoutOf(infos: readonly TileInfo[], withZoom = true): Layout {
    const selected = this.ui.selected;
    const hidden = this.ui.hideIdle ? new Set(infos.flatMap((info, i) => (info.state === 'idle' && i !== selected ? [i] : []))) : undefined;
    const focusedId = this.ui.mode === 'focus' ? (infos[selected]?.id ?? null) : null;
    const big = nextBigSet(this.big, { tiles: infos, unseen: this.ui.attention.unseen, pinned: this.ui.pinned, selectedId: infos[selected]?.id ?? null, focusedId });
    if (big !== this.big) {
      this.big = big;
      this.bigMoved = true;
    }
    const large = bigOrder(big, focusedId).flatMap((id) => {
      const index = infos.findIndex((info) => info.id === id);
      return index >= 0 ? [index] : [];
    });
    const folders = infos.map((info) => folderName(info.cwd));
    const result = layout({
      cols: this.options.terminal.cols,
      rows: this.options.terminal.rows,
      count: infos.length,
      zoomed: withZoom && this.ui.zoomed ? selected : null,
      mode: this.ui.layoutMode,
      ...(hidden ? { hidden } : {}),
      large,
      groups: new Set(folders).size > 1 ? folders : null,
      selected,
      ...(this.rowsFirst !== undefined ? { rowsFirst: this.rowsFirst } : {}),
    });
    if (result.kind === 'grid' && result.rowsFirst !== undefined) this.rowsFirst = result.rowsFirst;
    return result;
  }

  private scheduleResize(): void {
    if (this.resizeTimer) clearTimeout(this.resizeTimer);
    this.resizeTimer = setTimeout(() => {
      this.resizeTimer = undefined;
      this.applySizes();
    }, PTY_RESIZE_DEBOUNCE_MS);
  }

  /** Give the tiles this grid's sizes again: its client is the one the user is at now (several
   * clients share one pty per tile; the latest to type or resize sets its size, as tmux's
   * `window-size latest`). */
  fitTiles(): void {
    if (!this.stopped) this.applySizes();
  }

  /** Give every shown tile's program the size of its body. Tiles hidden by a zoom keep theirs. */
  private applySizes(): void {
    const infos = this.options.view.tileInfos();
    const l = this.layoutOf(infos);
    if (l.kind !== 'grid') return;
    const rowSize = compactSize(l, this.options.terminal.cols, this.options.terminal.rows);
    for (const { index, body, kind } of l.tiles) {
      const info = infos[index];
      if (!info) continue;
      // A compact row shows one line of its program, which runs at the size of a large tile so
      // that becoming one later needs no redraw.
      const size = kind === 'row' ? rowSize : { width: body.width, height: body.height };
      if (size.width > 0 && size.height > 0) this.options.view.resize(info.id, size.width, size.height);
    }
  }

  private markChrome(): void {
    this.chromeDirty = true;
    this.requestPaint();
    // What changed may be which tile has the keyboard (a tile added and selected, a form back).
    this.directKeys();
  }

  private markBodies(): void {
    this.requestPaint();
  }

  private requestPaint(): void {
    if (this.paintTimer || this.stopped) return;
    const wait = Math.max(0, this.lastPaint + FRAME_MS - this.now());
    this.paintTimer = setTimeout(() => {
      this.paintTimer = undefined;
      this.paint();
    }, wait);
  }

  private paint(): void {
    if (this.stopped) return;
    const { view, terminal } = this.options;
    if (terminal.backedUp) {
      this.heldForTerminal = true;
      return;
    }
    const cols = terminal.cols;
    const rows = terminal.rows;
    const infos = view.tileInfos();
    this.ui = clampSelection(this.ui, infos.length);
    const ids = infos.map((i) => i.id).join(',');
    if (ids !== this.shownIds) {
      // Tiles came or went: everyone gets the size the new layout gives them.
      this.shownIds = ids;
      this.applySizes();
    }
    this.followScroll(infos);
    this.startedAgain(infos);
    const l = this.layoutOf(infos);
    if (this.bigMoved) {
      // A tile became large or went back to a row: its program gets its new size.
      this.bigMoved = false;
      this.applySizes();
    }
    const now = this.now();

    let overlay: GridModel['overlay'] = null;
    let peek: Body | null = null;
    if (this.ui.overlay) {
      const why = this.ui.overlay.type === 'why' ? this.whyFacts(this.ui.overlay.tileId, infos) : null;
      const content = overlayContent(this.ui.overlay, { escapeKey: this.options.escapeKey, why, helpOffset: this.ui.helpOffset, tiles: infos, fit: overlayFit(rows), detachable: this.options.onDetach !== undefined }, cols - 4);
      const peeked = this.ui.overlay.type === 'peek' ? view.screenOf(this.ui.overlay.tileId) : undefined;
      if (peeked && this.ui.overlay.type === 'peek') {
        const { outer, body } = peekRect(peeked.cols, peeked.rows, cols, rows);
        overlay = { content, rect: outer };
        peek = { key: PEEK_KEY - this.ui.overlay.tileId, rect: body, screen: peeked, above: true };
      } else {
        overlay = { content, rect: overlayRect(content, cols, rows) };
      }
    }

    let chromeLines: string[] | null = null;
    if (this.chromeDirty) {
      this.chromeDirty = false;
      const note = this.ui.note && this.ui.note.until > now ? this.ui.note.text : null;
      const model: GridModel = {
        cols,
        rows,
        layout: l,
        tiles: infos.map((i) => ({
          id: i.id,
          name: i.name,
          state: i.state,
          ...(i.kind ? { kind: i.kind } : {}),
          source: i.source,
          sinceMs: tickedAge(i.sinceMs, now),
          unseen: this.ui.attention.unseen.includes(i.id),
          muted: this.ui.attention.muted.includes(i.id),
          ...(this.ui.marked.includes(i.id) ? { marked: true } : {}),
          ...(i.restored ? { restored: true } : {}),
          ...(this.ui.scroll?.tileId === i.id ? { scrolled: this.ui.scroll.offset } : {}),
          ...(describeFacts(i.facts) ? { facts: describeFacts(i.facts)! } : {}),
          ...(changesLabel(i) ? { changes: changesLabel(i)! } : {}),
          ...(i.remote ? { remote: i.remote.host, ...(i.remote.lost ? { lost: true } : {}), ...(i.remote.notFound ? { notFound: true } : {}) } : {}),
          ...(i.state === 'blocked' && (i.request?.asks || i.says) ? { asks: i.request?.asks || i.says } : {}),
        })),
        ui: this.ui,
        color: this.options.color,
        escapeKey: this.options.escapeKey,
        overlay,
        note,
        hidden: this.ui.hideIdle ? infos.filter((info, i) => info.state === 'idle' && i !== this.ui.selected).length : 0,
        tokens: infos.reduce((sum, info) => sum + (info.facts?.totalTokens ?? 0), 0),
        scroll: this.ui.scroll
          ? { offset: this.ui.scroll.offset, length: view.screenOf(this.ui.scroll.tileId)?.bufferLength ?? 0, typing: this.ui.scroll.typing, select: selectionSummary(this.ui.scroll) }
          : null,
      };
      this.shownRequests.clear();
      for (const info of infos) if (info.request) this.shownRequests.set(info.id, info.request.id);
      const element = createElement(GridView, { model });
      if (!this.chrome) this.chrome = new ChromeRenderer(cols, rows, element);
      chromeLines = this.chrome.render(element, cols, rows);
      this.scheduleAge(l, infos, now, note ? (this.ui.note?.until ?? now) - now : null);
    }

    const bodies: Body[] = [];
    this.visible = new Set();
    if (l.kind === 'grid') {
      for (const { index, body, kind } of l.tiles) {
        const info = infos[index];
        const screen = info ? view.screenOf(info.id) : undefined;
        if (!info || !screen) continue;
        this.visible.add(info.id);
        const shown = kind === 'row' ? this.lastLine(info.id, screen) : this.ui.scroll?.tileId === info.id ? this.scrollView(screen, this.ui.scroll) : screen;
        // The preview shows a tile that also has its row: each needs its own place in the cache.
        bodies.push({ key: kind === 'preview' ? PREVIEW_KEY - info.id : info.id, rect: body, screen: shown });
      }
    }
    if (peek) {
      bodies.push(peek);
      // Its output repaints the peek, whether or not the tile shows in the layout.
      this.visible.add(PEEK_KEY - peek.key);
    }
    const bytes = this.frames.write({ cols, rows, chrome: chromeLines, bodies, occluded: overlay ? [overlay.rect] : [], cursor: this.cursor(l, infos, overlay?.rect ?? null) });
    this.lastPaint = now;
    if (bytes === '') return;
    this.stats.frames++;
    this.stats.bytes += Buffer.byteLength(bytes);
    terminal.write(bytes);
  }

  /** A tile that rang and then started a new turn is no longer unseen: there is nothing to see. */
  private startedAgain(infos: readonly TileInfo[]): void {
    const started = new Set<number>();
    for (const info of infos) {
      const before = this.lastStates.get(info.id);
      if (before !== undefined && before !== 'working' && info.state === 'working') started.add(info.id);
      this.lastStates.set(info.id, info.state);
    }
    if (this.lastStates.size > infos.length) for (const id of this.lastStates.keys()) if (!infos.some((info) => info.id === id)) this.lastStates.delete(id);
    const unseen = this.ui.attention.unseen;
    const still = unseen.filter((id) => !started.has(id));
    if (still.length === unseen.length) return;
    const before = this.ui;
    this.ui = { ...this.ui, attention: { ...this.ui.attention, unseen: still } };
    this.chromeDirty = true;
    this.kept(before);
  }

  /** New output while scrolled back: the view keeps its lines (the scroll state follows). */
  private followScroll(infos: readonly TileInfo[]): void {
    const scroll = this.ui.scroll;
    if (!scroll) return;
    const screen = infos.some((i) => i.id === scroll.tileId) ? this.options.view.screenOf(scroll.tileId) : undefined;
    if (!screen || infos[this.ui.selected]?.id !== scroll.tileId) {
      this.ui = { ...this.ui, scroll: null };
      return;
    }
    const next = follow(scroll, screen);
    if (next === scroll) return;
    this.ui = { ...this.ui, scroll: next };
    this.chromeDirty = true;
  }

  private scrollView(screen: NonNullable<ReturnType<WorkspaceView['screenOf']>>, state: ScrollState): PaintableScreen {
    if (this.scrolled && this.scrolled.state === state && this.scrolled.screen === screen) return this.scrolled.view;
    const view = scrollbackView(screen, state);
    this.scrolled = { state, screen, view };
    return view;
  }

  private lastLine(id: number, screen: NonNullable<ReturnType<WorkspaceView['screenOf']>>): PaintableScreen {
    const known = this.lastLines.get(id);
    if (known && known.screen === screen) return known.view;
    const view = lastLineOf(screen);
    this.lastLines.set(id, { screen, view });
    return view;
  }

  /** The focused tile's cursor, where its program shows one; hidden otherwise. */
  private cursor(l: Layout, infos: TileInfo[], overlay: Rect | null): { x: number; y: number } | null {
    if (this.ui.mode !== 'focus' || overlay || l.kind !== 'grid' || this.ui.scroll) return null;
    const shown = l.tiles.find((t) => t.index === this.ui.selected && t.kind !== 'row');
    const info = infos[this.ui.selected];
    const screen = info ? this.options.view.screenOf(info.id) : undefined;
    if (!shown || !screen || !screen.cursorVisible || info?.state === 'exited') return null;
    // After the last column of a line the cursor waits to wrap, one column past it: tmux shows it
    // on the last column (tty.c), and so does this.
    const x = Math.min(screen.cursor.x, shown.body.width - 1);
    const y = screen.cursor.y;
    if (y >= shown.body.height) return null;
    return { x: shown.body.x + x, y: shown.body.y + y };
  }

  /** Repaint the chrome when a shown age or the status note next changes, and not before. */
  private scheduleAge(l: Layout, infos: TileInfo[], now: number, noteLeftMs: number | null): void {
    if (this.ageTimer) clearTimeout(this.ageTimer);
    this.ageTimer = undefined;
    const shown = l.kind === 'grid' ? l.tiles.map((t) => infos[t.index]).filter((i): i is TileInfo => i !== undefined) : [];
    // Rows show ages too; a hidden tile shows none.
    const waits = shown.filter((i) => showsAge(i.state)).map((i) => nextTickedAgeChange(i.sinceMs, now));
    if (noteLeftMs !== null) waits.push(Math.max(1, noteLeftMs));
    if (waits.length === 0) return;
    this.ageTimer = setTimeout(() => {
      this.ageTimer = undefined;
      this.markChrome();
    }, Math.min(...waits));
  }

  private whyFacts(tileId: number, infos: TileInfo[]) {
    const info = infos.find((i) => i.id === tileId);
    if (!info) return null;
    return {
      id: info.id,
      name: info.name,
      state: info.state,
      ...(info.kind ? { kind: info.kind } : {}),
      source: info.source,
      reason: info.reason,
      sinceMs: info.sinceMs,
      ...(describeFacts(info.facts) ? { facts: describeFacts(info.facts)! } : {}),
      ...(info.says ? { says: info.says } : {}),
      ...(info.request ? { request: info.request } : {}),
      ...(info.notice ? { notice: info.notice } : {}),
      ...(info.note ? { note: info.note } : {}),
      ...(info.remote ? { remote: remoteWhy(info.remote) } : {}),
      entries: this.options.view.why(info).slice(-12),
    };
  }
}

/** Whether the chrome shows a difference between two UI states: every field but the line being
 * typed, the time focus was left, and the last click, which it never shows. */
export function chromeChanged(a: UiState, b: UiState): boolean {
  return (
    a.mode !== b.mode ||
    a.selected !== b.selected ||
    a.zoomed !== b.zoomed ||
    a.overlay !== b.overlay ||
    a.note !== b.note ||
    a.windowFocused !== b.windowFocused ||
    a.attention !== b.attention ||
    a.layoutMode !== b.layoutMode ||
    a.hideIdle !== b.hideIdle ||
    a.scroll !== b.scroll ||
    a.pinned !== b.pinned ||
    a.helpOffset !== b.helpOffset
  );
}

/** The folder a tile's rows are grouped under: the last part of its path. */
function folderName(cwd: string | undefined): string {
  if (!cwd) return '';
  const parts = cwd.split(/[\\/]/).filter((p) => p !== '');
  return parts.at(-1) ?? cwd;
}
