/**
 * Keeps a session's workspace state file current while belltower runs: a change that matters (a
 * verdict, a tile added, moved or renamed, what the user looked at) is written within a quarter
 * second; screens that only drew something, within 5 s — written and flushed off the event loop,
 * one at a time. The last write happens synchronously as belltower ends, saying how it ended (a
 * background write still running then is dropped, never landing over it). Owns the one timer; a write that fails
 * (a full disk) is logged and tried again at the next change, never thrown at the UI.
 */
import path from 'node:path';
import { sweepStaleTemps } from '../platform/atomic-file.js';
import type { Logger } from '../platform/logger.js';
import { writeStateFile, writeStateFileAsync } from './state-file.js';
import type { Ending, WorkspaceState } from './workspace-state.js';

export interface StateSaverOptions {
  file: string;
  /** The state as it is now (`ended`: how belltower ended, null while it runs). */
  capture: (ended: Ending | null) => WorkspaceState;
  logger: Logger;
  /** After a change that matters (default 250 ms). */
  changeMs?: number;
  /** After screens drew (default 5 s: a save of busy screens costs milliseconds each). */
  screenMs?: number;
  /** Once when saving starts to fail (and again only after a save worked): words for the user. */
  onTrouble?: (message: string) => void;
}

export class StateSaver {
  private timer: NodeJS.Timeout | undefined;
  private dueAt = Infinity;
  private stopped = false;
  private failing = false;
  /** A write running off the event loop, and whether another is due once it is done. */
  private writing: Promise<void> | null = null;
  private again = false;
  /** Counts synchronous writes: one that happened after an asynchronous one began wins over it. */
  private syncWrites = 0;
  /** Writes so far, the last one's size and how long it took (capture included). */
  readonly stats = { writes: 0, bytes: 0, lastMs: 0, maxMs: 0 };

  constructor(private readonly options: StateSaverOptions) {
    // What a belltower killed mid-write (or an older one on a full disk) left behind.
    const swept = sweepStaleTemps(path.dirname(options.file));
    if (swept > 0) options.logger('info', 'removed stale temporary state files', { count: swept });
  }

  /** Something the restore needs changed. */
  changed(): void {
    this.schedule(this.options.changeMs ?? 250);
  }

  /** A screen drew: its snapshot goes with the next write, at the latest after `screenMs`. */
  activity(): void {
    this.schedule(this.options.screenMs ?? 5_000);
  }

  /** Write now (synchronously), e.g. as belltower ends; a write still running off the event loop
   * is dropped rather than landing over this one. */
  flush(ended: Ending | null): void {
    if (this.stopped) return;
    this.clear();
    this.write(ended);
  }

  /** Resolves once no write runs off the event loop. */
  async settled(): Promise<void> {
    while (this.writing) await this.writing;
  }

  /** No more writes (what is on disk stays). */
  stop(): void {
    this.stopped = true;
    this.clear();
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    const at = Date.now() + ms;
    if (at >= this.dueAt) return; // an earlier write is coming
    this.clear();
    this.dueAt = at;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.dueAt = Infinity;
      this.writeInBackground();
    }, ms);
    this.timer.unref();
  }

  private clear(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.dueAt = Infinity;
  }

  /** A write while belltower runs: the state is captured now, and written and flushed to disk off
   * the event loop (an fsync blocked it for milliseconds, keys and frames waiting behind it). */
  private writeInBackground(): void {
    if (this.stopped) return;
    if (this.writing) {
      this.again = true;
      return;
    }
    const started = performance.now();
    const syncWrites = this.syncWrites;
    let text: string;
    try {
      text = JSON.stringify(this.options.capture(null));
    } catch (error) {
      return this.failed(error);
    }
    this.writing = writeStateFileAsync(this.options.file, text, () => !this.stopped && this.syncWrites === syncWrites)
      .then((written) => {
        if (written) this.saved(text, started);
      }, (error: unknown) => this.failed(error))
      .finally(() => {
        this.writing = null;
        if (this.again) {
          this.again = false;
          this.writeInBackground();
        }
      });
  }

  private write(ended: Ending | null): void {
    const started = performance.now();
    this.syncWrites++;
    try {
      const text = JSON.stringify(this.options.capture(ended));
      writeStateFile(this.options.file, text);
      this.saved(text, started);
    } catch (error) {
      this.failed(error);
    }
  }

  private saved(text: string, started: number): void {
    const ms = performance.now() - started;
    this.stats.writes++;
    this.stats.bytes = text.length;
    this.stats.lastMs = ms;
    this.stats.maxMs = Math.max(this.stats.maxMs, ms);
    if (this.failing) this.options.logger('info', 'workspace state saved again', { file: this.options.file });
    this.failing = false;
  }

  private failed(error: unknown): void {
    if (!this.failing) {
      this.options.logger('warn', 'cannot save the workspace state (a restore would bring back an older one)', { file: this.options.file, error: String(error) });
      const code = (error as NodeJS.ErrnoException).code;
      const why = code === 'ENOSPC' ? 'the disk is full' : code === 'EDQUOT' ? 'over the disk quota' : code === 'EROFS' ? 'read-only file system' : (error as Error).message;
      this.options.onTrouble?.(`cannot save for a restore: ${why}`);
    }
    this.failing = true;
  }
}
