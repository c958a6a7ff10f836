/**
 * The end of a tile's process, reported once, when belltower knows how it ended: when the child
 * exits by itself, with the processes of its session still running; when belltower ends it
 * (close, quit, a signal), only after every process of its session is gone (SIGHUP, SIGTERM,
 * SIGKILL, each after a grace). Owns that sequence; the tile hears `reported` (to take in the
 * exit as evidence) and then `exited`.
 */
import type { Logger } from '../platform/logger.js';
import { listProcesses, sessionMembers } from '../platform/processes.js';
import { DEFAULT_END_TIMING, endSession, waitUntil } from '../session/end-session.js';
import type { EndTiming } from '../session/end-session.js';
import type { ExitInfo } from '../session/pty-session.js';
import type { Session } from '../session/session.js';
import { leftovers } from './tile-end.js';
import type { TileEnd } from './tile-end.js';

export interface TileExitOptions {
  session: Session;
  /** The marker in the child's environment (BELLTOWER_TILE=…): processes that leave the tile's
   * session still carry it. */
  marker: string;
  endTiming: EndTiming | undefined;
  logger: Logger;
  /** `tile 3`: what the log lines start with. */
  label: string;
  /** The end is known, not yet reported as exited: take it in. */
  reported(end: TileEnd): void;
  /** The exit is reported: nothing more runs. */
  exited(): void;
  /** Free the tile: it has been ended. */
  dispose(): void;
}

export class TileExit {
  private end: TileEnd | undefined;
  private done = false;
  private closing = false;
  private stopping: Promise<void> | undefined;
  /** The report of an exit the child made by itself, while it is being made. */
  private leaderEnded: Promise<void> | undefined;
  private readonly waiters: (() => void)[] = [];

  constructor(private readonly options: TileExitOptions) {
    options.session.onExit((info) => {
      // When belltower is ending the tile, stop() reports the exit once the session is empty.
      if (!this.closing) this.leaderEnded = this.exitedByItself(info);
    });
  }

  /** The exit has been reported (the process ended, or never started). */
  get hasExited(): boolean {
    return this.done;
  }

  /** How the process ended, once known. */
  get ended(): TileEnd | undefined {
    return this.end;
  }

  /** A restored tile whose process had ended: nothing runs, and nothing is reported again. */
  endedBefore(end: TileEnd): void {
    this.end = end;
    this.done = true;
    this.options.exited();
  }

  /** Resolves once the exit has been reported. */
  whenExited(): Promise<void> {
    if (this.done) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** End every process of the session, report the exit (as closed, when the child had not ended
   * by itself), and free the tile. Idempotent. */
  stop(): Promise<void> {
    this.stopping ??= this.endAll();
    return this.stopping;
  }

  private async endAll(): Promise<void> {
    const { session, logger: log, label } = this.options;
    // An exit the child made by itself is reported as such, then what it left behind is ended.
    if (this.leaderEnded) await this.leaderEnded;
    if (!this.done) this.closing = true;
    const pid = session.pid;
    let survivors: number[] = [];
    // Nothing queued for it can matter now, and node-pty would print EBADF retrying it later.
    session.dropUnreadInput();
    if (pid !== undefined) {
      const report = await endSession(pid, {
        ...(this.options.endTiming ? { timing: this.options.endTiming } : {}),
        leaderGone: session.exit !== undefined,
        log: (message) => log('info', `${label}: ${message}`),
      });
      survivors = report.survivors;
      if (survivors.length > 0) log('warn', `${label}: ${survivors.length} process(es) did not end even after SIGKILL: pid ${survivors.join(', ')}`);
    }
    if (!this.done) {
      // The child is gone (or cannot die): node-pty reports its exit within moments.
      const info = await new Promise<ExitInfo | undefined>((resolve) => {
        const timer = setTimeout(() => resolve(undefined), 2_000);
        session.onExit((exit) => {
          clearTimeout(timer);
          resolve(exit);
        });
      });
      this.report(info ?? { code: null, signal: null }, true, survivors.length);
    }
    this.options.dispose();
  }

  private async exitedByItself(info: ExitInfo): Promise<void> {
    const pid = this.options.session.pid;
    if (pid !== undefined) {
      const settleMs = (this.options.endTiming ?? DEFAULT_END_TIMING).exitSettleMs;
      await waitUntil(() => sessionMembers(listProcesses() ?? [], pid).length === 0, settleMs);
    }
    this.report(info, false);
  }

  /** Report the exit once: with the processes of its session still running, and those that left it. */
  private report(info: ExitInfo, closed: boolean, survivors?: number): void {
    if (this.done) return;
    const { session, logger: log, label } = this.options;
    const pid = session.pid;
    const left = pid === undefined ? { remaining: [], detached: [] } : leftovers(pid, this.options.marker);
    const remaining = survivors ?? left.remaining.length;
    if (remaining > 0 && !closed) log('info', `${label}: the child exited; ${remaining} process(es) of its session still run`);
    if (left.detached.length > 0) {
      log('warn', `${label}: ${left.detached.length} process(es) left the tile's session and run on (not ended by belltower): ${left.detached.map((p) => `${p.pid} ${p.name}`).join(', ')}`);
    }
    this.end = { code: info.code ?? null, signal: info.signal ?? null, ...(info.error ? { error: info.error } : {}), closed, remaining, detached: left.detached.length };
    this.options.reported(this.end);
    this.done = true;
    this.options.exited();
    for (const waiter of this.waiters.splice(0)) waiter();
  }
}
