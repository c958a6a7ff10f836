/**
 * The user's terminal, owned whole while the UI runs: the only writer to it and the only reader of
 * its keyboard. Entering switches to the alternate screen with raw input, bracketed paste, focus
 * reporting and the application keypad; restoring undoes exactly that, once, synchronously — it is safe to call from any exit
 * path, a crash handler included.
 */
import type { ReadStream, WriteStream } from 'node:tty';

import { Listeners } from '../platform/listeners.js';
import { ENTER_SEQUENCE, MOUSE_ON, RESTORE_SEQUENCE } from '../platform/terminal-sequences.js';

export class NotATerminal extends Error {
  override name = 'NotATerminal';
}

export class UserTerminal {
  private entered = false;
  private restored = false;
  private readonly inputs = new Listeners<[data: string]>();
  private readonly resizes = new Listeners<[]>();
  private readonly onData = (data: string | Buffer) => this.inputs.emit(typeof data === 'string' ? data : data.toString('utf8'));
  private readonly onResize = () => this.resizes.emit();

  constructor(
    private readonly stdin: ReadStream,
    private readonly stdout: WriteStream,
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
    this.stdin.setEncoding('utf8');
    this.stdin.on('data', this.onData);
    this.stdin.resume();
    this.stdout.on('resize', this.onResize);
    this.write(ENTER_SEQUENCE + (options.mouse ? MOUSE_ON : ''));
  }

  /** Undo `enter`: main screen, cursor, modes, cooked input. Idempotent and synchronous. */
  restore(): void {
    if (!this.entered || this.restored) return;
    this.restored = true;
    this.stdout.off('resize', this.onResize);
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

  onInput(listener: (data: string) => void): () => void {
    return this.inputs.add(listener);
  }

  onResized(listener: () => void): () => void {
    return this.resizes.add(listener);
  }
}
