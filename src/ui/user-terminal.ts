/**
 * The user's terminal, owned whole while the UI runs: the only writer to it and the only reader of
 * its keyboard. Entering switches to the alternate screen with raw input, bracketed paste, focus
 * reporting and the application keypad; restoring undoes exactly that, once, synchronously — it is safe to call from any exit
 * path, a crash handler included.
 *
 * The keyboard is read on a thread of its own where one can start (keyboard-thread.ts), which
 * writes plain typing straight to the tile `directKeys` names; on the main thread otherwise, and
 * from the moment that thread fails.
 */
import type { ReadStream, WriteStream } from 'node:tty';

import { Listeners } from '../platform/listeners.js';
import type { Logger } from '../platform/logger.js';
import { ENTER_SEQUENCE, MOUSE_ON, RESTORE_SEQUENCE } from '../platform/terminal-sequences.js';
import type { DirectWritten } from './direct-keys.js';
import { KeyboardThread, type KeyTarget } from './keyboard-thread.js';

/** The terminal is the keyboard thread's one source. */
const TERMINAL_SOURCE = 0;

export interface UserTerminalOptions {
  /** Read the keyboard on a thread of its own (default: true). */
  keyboardThread?: boolean;
  /** Why the keyboard thread is not used or stopped (warn), what it did (info): for the log. */
  log?: Logger;
}

export class NotATerminal extends Error {
  override name = 'NotATerminal';
}

export class UserTerminal {
  private entered = false;
  private restored = false;
  private readonly inputs = new Listeners<[data: string, direct: DirectWritten | undefined]>();
  private readonly resizes = new Listeners<[]>();
  private readonly onData = (data: string | Buffer) => this.inputs.emit(typeof data === 'string' ? data : data.toString('utf8'), undefined);
  private readonly onResize = () => this.resizes.emit();
  private keyboard: KeyboardThread | null = null;
  private readingOnMain = false;

  constructor(
    private readonly stdin: ReadStream,
    private readonly stdout: WriteStream,
    private readonly options: UserTerminalOptions = {},
  ) {
    if (!stdin.isTTY || !stdout.isTTY) throw new NotATerminal('the full-screen UI needs a terminal on stdin and stdout');
  }

  get cols(): number {
    return this.stdout.columns || 80;
  }

  get rows(): number {
    return this.stdout.rows || 24;
  }

  enter(options: { mouse?: boolean } = {}): void {
    if (this.entered) return;
    this.entered = true;
    this.stdin.setRawMode(true);
    if (this.options.keyboardThread !== false) this.keyboard = this.startKeyboard();
    if (!this.keyboard) this.readOnMain();
    this.stdout.on('resize', this.onResize);
    this.write(ENTER_SEQUENCE + (options.mouse ? MOUSE_ON : ''));
  }

  /** Undo `enter`: main screen, cursor, modes, cooked input. Idempotent and synchronous. */
  restore(): void {
    if (!this.entered || this.restored) return;
    this.restored = true;
    this.stdout.off('resize', this.onResize);
    if (this.keyboard) {
      this.keyboard.stop();
      this.options.log?.('info', 'the keyboard thread stopped', { ...this.keyboard.stats });
    }
    this.keyboard = null;
    this.stdin.off('data', this.onData);
    this.write(RESTORE_SEQUENCE, true);
    try {
      this.stdin.setRawMode(false);
    } catch {
      // The terminal is gone (SIGHUP): nothing left to restore.
    }
    this.stdin.pause();
  }

  get isRestored(): boolean {
    return this.restored;
  }

  write(data: string, evenIfRestored = false): void {
    if (data === '' || (this.restored && !evenIfRestored)) return;
    try {
      // On Linux a TTY stdout writes synchronously: the bytes are out when this returns.
      this.stdout.write(data);
    } catch {
      // EIO after the terminal closed: there is no one left to show it to.
    }
  }

  /** Each chunk of keys, in order; `direct`: the part the keyboard thread already wrote to a tile. */
  onInput(listener: (data: string, direct?: DirectWritten) => void): () => void {
    return this.inputs.add(listener);
  }

  /** Plain typing may go straight to `target`'s pty (null: to no tile), where the keyboard has a
   * thread of its own. */
  directKeys(target: KeyTarget | null): void {
    this.keyboard?.directTo(TERMINAL_SOURCE, target);
  }

  /** Whether keys are read on a thread of their own (for the log and the tests). */
  get keyboardThreaded(): boolean {
    return this.keyboard !== null;
  }

  private startKeyboard(): KeyboardThread | null {
    const fd = (this.stdin as ReadStream & { fd?: unknown }).fd;
    try {
      const keyboard = new KeyboardThread({
        input: { kind: 'terminal', fd: typeof fd === 'number' ? fd : 0 },
        onInput: (_source, data, direct) => this.inputs.emit(data, direct),
        onFailure: (reason) => {
          this.keyboard = null;
          this.options.log?.('warn', `the keyboard thread stopped (${reason}): keys are read on the main thread`);
          if (!this.restored) this.readOnMain();
        },
      });
      return keyboard;
    } catch (error) {
      this.options.log?.('warn', `the keyboard thread did not start (${(error as Error).message}): keys are read on the main thread`);
      return null;
    }
  }

  private readOnMain(): void {
    if (this.readingOnMain) return;
    this.readingOnMain = true;
    this.stdin.setEncoding('utf8');
    this.stdin.on('data', this.onData);
    this.stdin.resume();
  }

  onResized(listener: () => void): () => void {
    return this.resizes.add(listener);
  }
}
