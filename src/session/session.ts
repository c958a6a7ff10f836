/**
 * Session: one child in a pty wired to its own Screen — output into the screen under flow
 * control, the screen's replies back to the child, one size for both.
 */
import {
  DEFAULT_FLOW_LIMITS,
  IDLE_FLOW,
  checkFlowLimits,
  parsed,
  received,
  type FlowAction,
  type FlowLimits,
  type FlowState,
} from './flow-control.js';
import { silentLogger, type Logger } from '../platform/logger.js';
import { subscribe, subscribeOnce } from './listeners.js';
import { PtySession, type ExitInfo } from './pty-session.js';
import { Screen, type OscListener } from './screen.js';
import { SequenceLimiter } from './sequence-limit.js';
import { sizeProblem } from './terminal-size.js';

export interface SessionOptions {
  file: string;
  args?: readonly string[];
  cwd?: string;
  env?: Readonly<Record<string, string | undefined>>;
  cols: number;
  rows: number;
  /** Screen scrollback in lines (default 1000). */
  scrollback?: number;
  /** Answer the OSC 7501 feature query (default true). */
  answerPspQuery?: boolean;
  /** Pause/resume thresholds for output waiting to be parsed. */
  flow?: FlowLimits;
  /** Where dropped terminal replies are counted. */
  logger?: Logger;
  /** A screen snapshot (Screen.snapshot) to draw before the child's first byte. */
  restore?: string;
}

/**
 * The most writes the child may leave unread before the screen's replies to it (DA1, cursor
 * reports, DECRQSS, the OSC 7501 echo) are dropped instead of queued. A program that reads its
 * input takes each answer at once; one that floods questions and never reads would otherwise grow
 * belltower without limit (2M queries held 415 MB). Replies are a few bytes each, so this holds a
 * flood's backlog to tens of KB. Counted in writes, not bytes: node-pty can say how many cheaply,
 * and this check runs once per reply. Keystrokes are never dropped.
 */
export const MAX_PENDING_REPLIES = 1024;

export class Session {
  readonly screen: Screen;
  /** Null for a session restored as finished: its screen only, no process. */
  private readonly pty: PtySession | null;
  private readonly limits: FlowLimits;
  private flowState: FlowState = IDLE_FLOW;
  private pauses = 0;
  private maxPending = 0;
  private readonly outputListeners = new Set<(data: string) => void>();
  private readonly parsedListeners = new Set<(data: string) => void>();
  private readonly exitListeners = new Set<(info: ExitInfo) => void>();
  private exitInfo: ExitInfo | undefined;
  private disposed = false;
  /** The child is being ended: nothing more is written to it. */
  private ending = false;
  private readonly logger: Logger;
  private readonly replies = { sent: 0, dropped: 0 };
  /** The drop count that is logged next: the first, then each tenfold. */
  private nextDropLogged = 1;
  /** Escape-sequence strings are bounded before anything holds them (sequence-limit.ts). */
  private readonly limiter = new SequenceLimiter();
  private nextCutLogged = 1;

  /** Resolves once the restored snapshot is parsed (at once when there is none). */
  readonly restored: Promise<void>;

  private constructor(options: SessionOptions, finished?: ExitInfo) {
    const badSize = sizeProblem(options.cols, options.rows);
    if (badSize) throw new RangeError(badSize);
    this.limits = checkFlowLimits(options.flow ?? DEFAULT_FLOW_LIMITS);
    this.logger = options.logger ?? silentLogger;
    // The screen exists before the child so that not one byte of its output, nor one query it
    // sends at start-up (Claude's OSC 7501 probe), finds nobody listening.
    this.screen = new Screen({
      cols: options.cols,
      rows: options.rows,
      scrollback: options.scrollback,
      answerPspQuery: options.answerPspQuery,
      onReply: (data) => this.reply(data),
    });
    // Queued before the child can print: its output lands after the old screen, never inside it.
    this.restored = options.restore ? this.screen.restore(options.restore) : Promise.resolve();
    if (finished) {
      this.pty = null;
      this.exitInfo = finished;
      return;
    }
    this.pty = PtySession.spawn(options.file, options.args ?? [], {
      cols: options.cols,
      rows: options.rows,
      cwd: options.cwd,
      env: options.env,
    });
    this.pty.onData((data) => this.receive(data));
    this.pty.onExit((info) => void this.ended(info));
  }

  /** Start a session. A command that cannot start still yields a session, whose exit says why. */
  static start(options: SessionOptions): Session {
    return new Session(options);
  }

  /**
   * A session whose process had already ended before belltower restarted: its last screen (from
   * `restore`) and how it ended, and no process. Its exit is known from the start.
   */
  static finished(options: SessionOptions, exit: ExitInfo): Session {
    return new Session(options, exit);
  }

  get pid(): number | undefined {
    return this.pty?.pid;
  }

  /** Bytes written for the child (keystrokes, terminal replies) that it has not read yet. */
  get inputBacklog(): number | undefined {
    return this.pty?.inputBacklog ?? 0;
  }

  /** The pty master, for keys written from another thread (the keyboard's: ui/keyboard-thread.ts):
   * while the child runs and is not being ended, and only when nothing written from this thread
   * is still queued for it — a key written from there must not pass a key from here. */
  get keyboardFd(): number | undefined {
    if (!this.pty || this.ending || this.disposed || this.exitInfo) return undefined;
    return this.pty.pendingWrites === 0 ? this.pty.master : undefined;
  }

  /** Terminal replies sent to the child, and dropped because it left too much input unread. */
  get replyStats(): { sent: number; dropped: number } {
    return { ...this.replies };
  }

  /** Output waiting to be parsed, and whether reading the pty is paused because of it. */
  get flow(): FlowState {
    return this.flowState;
  }

  /** How often reading was paused, and the largest backlog seen: for diagnostics and benchmarks. */
  get flowStats(): { pauses: number; maxPending: number } {
    return { pauses: this.pauses, maxPending: this.maxPending };
  }

  get exit(): ExitInfo | undefined {
    return this.exitInfo;
  }

  /** Raw output as it arrives, before parsing (the recorder's `pty` lines). */
  onOutput(listener: (data: string) => void): () => void {
    return subscribe(this.outputListeners, listener);
  }

  /** Each output chunk once the screen has parsed it, in arrival order — after the OSC listeners
   * ran for what it carried, while the rows show it: the moment to read banners for that chunk. */
  onChunkParsed(listener: (data: string) => void): () => void {
    return subscribe(this.parsedListeners, listener);
  }

  /** OSC 0, 2, 7501, 133, 7, 9, 777, 99 as the screen parses them (see Screen.onOsc). */
  onOsc(listener: OscListener): () => void {
    return this.screen.onOsc(listener);
  }

  /** Once, after the child ended and the screen parsed all output that arrived before that —
   * never waiting for output that did not arrive. Also for a listener added afterwards. */
  onExit(listener: (info: ExitInfo) => void): () => void {
    return subscribeOnce(this.exitInfo, this.exitListeners, listener);
  }

  /** Input for the child (keystrokes, pastes). */
  write(data: string): void {
    this.pty?.write(data);
  }

  /** Resize the screen, then the pty: the child's redraw after SIGWINCH lands on the new size. */
  resize(cols: number, rows: number): void {
    const badSize = sizeProblem(cols, rows);
    if (badSize) throw new RangeError(badSize);
    this.screen.resize(cols, rows);
    this.pty?.resize(cols, rows);
  }

  /** Forget input (keystrokes, terminal replies) the child has not read: it is being ended, so
   * replies to what it still prints are not sent either. */
  dropUnreadInput(): void {
    this.ending = true;
    this.pty?.dropUnreadInput();
  }

  kill(signal?: NodeJS.Signals): void {
    this.pty?.kill(signal);
  }

  /** Kill the child (if it runs) and free the screen. No exit is reported after this. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.exitListeners.clear();
    this.outputListeners.clear();
    this.parsedListeners.clear();
    this.pty?.kill();
    this.screen.dispose();
  }

  private reply(data: string): void {
    if (this.ending) return;
    // Called from the screen's constructor onwards: the pty may not exist yet.
    const pty = this.pty as PtySession | null | undefined;
    if (!pty) return;
    const backlog = pty.pendingWrites ?? 0;
    if (backlog < MAX_PENDING_REPLIES) {
      this.replies.sent++;
      pty.write(data);
      return;
    }
    this.replies.dropped++;
    // The first drop, then each tenfold: the count reaches the log without a line per reply.
    const n = this.replies.dropped;
    if (n === this.nextDropLogged) {
      this.nextDropLogged *= 10;
      this.logger('warn', 'terminal replies dropped: the program asks more than it reads', { dropped: n, pendingWrites: backlog, limit: MAX_PENDING_REPLIES });
    }
  }

  private receive(raw: string): void {
    if (this.disposed) return;
    const data = this.limiter.filter(raw);
    if (this.limiter.cut >= this.nextCutLogged) {
      this.nextCutLogged *= 10;
      this.logger('warn', 'an escape sequence longer than the bound was cut off (the program sent a broken or huge one)', { cut: this.limiter.cut });
    }
    if (data === '') return;
    for (const listener of this.outputListeners) listener(data);
    this.apply(received(this.flowState, data.length, this.limits));
    this.screen.write(data, () => {
      this.apply(parsed(this.flowState, data.length, this.limits));
      for (const listener of this.parsedListeners) listener(data);
    });
  }

  private apply([state, action]: [FlowState, FlowAction]): void {
    this.flowState = state;
    if (state.pending > this.maxPending) this.maxPending = state.pending;
    if (action === 'pause') {
      this.pauses++;
      this.pty?.pause();
    } else if (action === 'resume') this.pty?.resume();
  }

  private async ended(info: ExitInfo): Promise<void> {
    if (this.replies.dropped > 0) this.logger('warn', 'terminal replies dropped in all', { ...this.replies });
    await this.screen.flush();
    if (this.disposed) return;
    this.exitInfo = info;
    for (const listener of this.exitListeners) listener(info);
    this.exitListeners.clear();
  }
}
