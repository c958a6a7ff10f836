/**
 * Watches what runs in the foreground of a shell tile while a command runs: a program asleep
 * reading the terminal (waiting for the user), or one showing a full screen of its own. It reports
 * a change, never a steady state: a running command costs a few small reads of `/proc` a second
 * and records nothing new, and a shell at its prompt wakes nothing at all.
 */
import { readForeground } from '../platform/foreground.js';
import type { ForegroundFacts } from '../platform/foreground.js';

export const FOREGROUND_POLL_MS = 1_000;

export interface ForegroundWatchOptions {
  readonly shellPid: number;
  /** A command runs (the tile works, or waits on input): only then is there a foreground to read. */
  readonly busy: () => boolean;
  readonly fullScreen: () => boolean;
  readonly onChange: (reading: boolean, fullScreen: boolean) => void;
  readonly read?: (pid: number) => ForegroundFacts | null;
  readonly intervalMs?: number;
}

export class ForegroundWatch {
  private timer: NodeJS.Timeout | undefined;
  private last: { reading: boolean; fullScreen: boolean } | null = null;

  constructor(private readonly options: ForegroundWatchOptions) {}

  /** Watch while a command runs, and not otherwise (call it when the tile's verdict changes). */
  sync(): void {
    if (!this.options.busy()) {
      this.stop();
      this.last = null;
      return;
    }
    if (this.timer) return;
    this.timer = setInterval(() => this.check(), this.options.intervalMs ?? FOREGROUND_POLL_MS);
    this.timer.unref();
  }

  /** One look; reports when what it sees differs from the last report. */
  check(): void {
    if (!this.options.busy()) {
      // The next command starts from nothing known.
      this.last = null;
      return;
    }
    const facts = (this.options.read ?? readForeground)(this.options.shellPid);
    const now = { reading: facts?.reading ?? false, fullScreen: this.options.fullScreen() };
    const before = this.last ?? { reading: false, fullScreen: false };
    this.last = now;
    if (now.reading !== before.reading || now.fullScreen !== before.fullScreen) this.options.onChange(now.reading, now.fullScreen);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
