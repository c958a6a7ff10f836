/**
 * One attached client, seen by the server: the terminal its grid draws on (TerminalPort), whose
 * bytes go down the client's socket as output frames. A client that stops reading (a stalled ssh)
 * never holds the server up: once this much is unread, frames are dropped, and when the socket
 * drains the grid is told to redraw whole — as tmux does.
 */
import type { Socket } from 'node:net';
import { Listeners } from '../platform/listeners.js';
import type { DirectWritten } from '../ui/direct-keys.js';
import type { TerminalPort } from '../ui/grid-app.js';
import type { KeyTarget } from '../ui/keyboard-thread.js';
import { encode } from '../wire/wire-protocol.js';
import type { ExitReason, Hello } from '../wire/wire-protocol.js';

/** Unread output beyond this and frames are dropped until the client catches up. */
export const MAX_UNREAD_BYTES = 1024 * 1024;
/** Unsent output beyond this (the kernel's buffer is full) and the grid holds its next frame until
 * the socket drains: a client gets frames as fast as it takes them, each one current. */
export const HOLD_FRAMES_BYTES = 64 * 1024;

export class ClientLink implements TerminalPort {
  private size: { cols: number; rows: number };
  private behind = false;
  private closed = false;
  private readonly inputs = new Listeners<[data: string, direct: DirectWritten | undefined]>();
  /** Where the client's keys connection is read (the server's keyboard thread), once it has one:
   * plain typing for the focused tile may go to its pty from there. */
  private keys: { directTo(target: KeyTarget | null): void } | null = null;
  private readonly resizes = new Listeners<[]>();
  private readonly catchUps = new Listeners<[]>();
  /** Frames dropped because the client was not reading, for the log. */
  dropped = 0;
  readonly attachedAt = Date.now();
  /** When the client last typed or resized: the client the user is at is the latest one. */
  lastActive = Date.now();

  constructor(
    private readonly socket: Socket,
    readonly hello: Hello,
    readonly id: number,
  ) {
    this.size = { cols: hello.cols, rows: hello.rows };
    socket.on('drain', () => {
      if (this.closed) return;
      if (this.behind) {
        this.behind = false;
        this.redraw();
      }
      this.catchUps.emit();
    });
  }

  get cols(): number {
    return this.size.cols;
  }

  get rows(): number {
    return this.size.rows;
  }

  get backedUp(): boolean {
    // Held only while a 'drain' is owed, so the held frame is always painted in the end.
    return this.socket.writableNeedDrain && this.socket.writableLength > HOLD_FRAMES_BYTES;
  }

  onCaughtUp(listener: () => void): () => void {
    return this.catchUps.add(listener);
  }

  get isClosed(): boolean {
    return this.closed || this.socket.destroyed;
  }

  write(data: string): void {
    if (data === '' || this.isClosed) return;
    if (this.behind) {
      this.dropped++;
      return;
    }
    this.socket.write(encode({ type: 'output', data: Buffer.from(data, 'utf8') }));
    if (this.socket.writableLength > MAX_UNREAD_BYTES) this.behind = true;
  }

  onInput(listener: (data: string, direct?: DirectWritten) => void): () => void {
    return this.inputs.add(listener);
  }

  /** The client's keys come over its keys connection now, read by the server's keyboard thread
   * (null: not any more — that thread stopped, and the client sends them on this socket). */
  keysConnected(keys: { directTo(target: KeyTarget | null): void } | null): void {
    this.keys = keys;
  }

  /** Whether the client's keys come over its keys connection (the keyboard thread reads them). */
  get keysThreaded(): boolean {
    return this.keys !== null;
  }

  directKeys(target: KeyTarget | null): void {
    this.keys?.directTo(target);
  }

  onResized(listener: () => void): () => void {
    return this.resizes.add(listener);
  }

  /** The client typed (`direct`: the part the keyboard thread already wrote to a tile). */
  input(data: string, direct?: DirectWritten): void {
    this.lastActive = Date.now();
    this.inputs.emit(data, direct);
  }

  /** The client's terminal changed size. */
  resized(cols: number, rows: number): void {
    this.lastActive = Date.now();
    if (cols === this.size.cols && rows === this.size.rows) return;
    this.size = { cols, rows };
    this.redraw();
  }

  /** Let the client go, telling it why and with which status it ends. */
  close(reason: ExitReason, status: number, message?: string): void {
    if (this.closed) return;
    this.closed = true;
    if (!this.socket.destroyed) {
      this.socket.end(encode({ type: 'exit', reason, status, ...(message !== undefined ? { message } : {}) }));
      // A client that does not read even its exit is not waited for.
      setTimeout(() => this.socket.destroy(), 2000).unref();
    }
  }

  /** Everything on the client's screen is unknown: the grid paints it whole (as after a resize). */
  private redraw(): void {
    this.resizes.emit();
  }
}
