/**
 * The thread that reads keys (keyboard-worker.ts), owned from the main thread.
 *
 * The main thread parses every tile's output, paints, renders the chrome and starts git; a key
 * read there waits behind whichever of those is running (docs/performance.md, goal 2). Read on a
 * thread of its own, a key of plain typing for the focused tile goes to its pty at once; every
 * key still reaches the main thread, in order, for what it means to the UI (the typed line, a
 * prompt's Enter, the key that leaves the tile).
 *
 * Keys come from sources: the user's terminal (`terminal`: source 0), or a session server's
 * clients over its keys socket (`sockets`: each client a source, named to the thread with the token
 * its welcome carries). `directTo` names the tile that has a source's keyboard (null: none): a
 * grid says so after each chunk it handled and whenever a tile changes, and only while it is
 * focused on a tile, with no overlay, no scroll view and no escape sequence half read.
 */
import { Worker } from 'node:worker_threads';

import { duplicateCloseOnExec } from '../platform/close-on-exec.js';
import type { DirectWritten } from './direct-keys.js';

/** What the worker is started with: the terminal to read, or the keys socket to listen on. */
export type KeyboardData = { kind: 'terminal'; fd: number } | { kind: 'sockets'; path: string };

export type ToKeyboard =
  /** `fd` is the worker's own duplicate of the tile's pty master, now its to close. */
  | { type: 'target'; source: number; id: number; tileId: number; fd: number; escapeKey: string; seen: number }
  | { type: 'release'; source: number }
  /** The main thread handled the source's chunks up to `seq` (sent every HANDLED_EVERY chunks):
   * the worker pauses a source's reading while too many are not. */
  | { type: 'handled'; source: number; seq: number }
  /** A client of the server's, and the token its keys connection names it by. */
  | { type: 'client'; source: number; token: string }
  /** That client is gone: its connection is closed and its target let go. */
  | { type: 'gone'; source: number }
  | { type: 'stop' };

export type FromKeyboard =
  | { type: 'input'; source: number; seq: number; data: string; direct?: DirectWritten }
  /** The target `id` came after a chunk the main thread had not seen: name it again. */
  | { type: 'refused'; source: number; id: number }
  /** The keys socket takes connections. */
  | { type: 'listening' }
  /** A client's keys connection named its client: its keys come from there now. */
  | { type: 'connected'; source: number }
  /** A client's keys connection broke the protocol and was closed. */
  | { type: 'dropped'; source: number; why: string }
  | { type: 'error'; message: string };

/** The tile that may take plain typing straight away. */
export interface KeyTarget {
  tileId: number;
  /** Its pty master, as the main thread holds it (the worker is given a duplicate). */
  fd: number;
  /** The key that leaves it (a keymap name): never written early. */
  escapeKey: string;
}

export interface KeyboardThreadOptions {
  input: KeyboardData;
  /** Every chunk of keys, in order per source; `direct`: the part the worker wrote to a tile. */
  onInput(source: number, data: string, direct: DirectWritten | undefined): void;
  /** A client's keys connection named it (`sockets`). */
  onConnected?(source: number): void;
  /** A client's keys connection broke the protocol and was closed: the server lets it go. */
  onDropped?(source: number, why: string): void;
  /** The thread stopped without being asked (it could not read the terminal or listen, or
   * crashed): keys must be read on the main thread from now on. */
  onFailure(reason: string): void;
}

/** The worker's file, built: dist/ui/keyboard-worker.js from dist/ui and from the bundle
 * (dist/bundle) alike, and from the sources too (vitest runs src/, and `npm test` builds first):
 * a worker runs plain JavaScript. */
function workerFile(): URL {
  const here = import.meta.url;
  return here.endsWith('.ts') ? new URL('../../dist/ui/keyboard-worker.js', here) : new URL('../ui/keyboard-worker.js', here);
}

/** How often the main thread tells the worker how far it has handled a source's chunks. */
const HANDLED_EVERY = 32;
/** How long a stopped worker has to close what it holds and leave before it is ended. */
const STOP_GRACE_MS = 1000;

interface SourceState {
  /** The last chunk handed to the listener. */
  seen: number;
  /** The target the worker holds or is about to, as far as this side knows. */
  held: (KeyTarget & { id: number }) | null;
}

export class KeyboardThread {
  private readonly worker: Worker;
  private readonly sources = new Map<number, SourceState>();
  private nextId = 1;
  private stopped = false;
  /** Stopped by `stop()`: what the worker still sends is not wanted. (After a failure it is:
   * the chunks it read before it failed are the user's keys.) */
  private stoppedOnPurpose = false;
  /** Resolves once the keys socket listens (at once for a terminal); rejects if it cannot. */
  readonly ready: Promise<void>;
  private settle: { resolve(): void; reject(error: Error): void } | null = null;
  /** Chunks read, and those written to a tile whole by the worker: for the log. */
  readonly stats = { chunks: 0, direct: 0 };

  constructor(private readonly options: KeyboardThreadOptions) {
    this.ready =
      options.input.kind === 'terminal'
        ? Promise.resolve()
        : new Promise<void>((resolve, reject) => {
            this.settle = { resolve, reject };
          });
    this.ready.catch(() => undefined); // a failure is also onFailure's
    // The terminal is source 0 from the start; a server's clients come with addClient.
    if (options.input.kind === 'terminal') this.sources.set(0, { seen: 0, held: null });
    this.worker = new Worker(workerFile(), {
      workerData: options.input,
      // Its whole job is a read and a write: the smallest heap V8 allows keeps its memory small.
      resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 8 },
      stdout: true,
      stderr: true,
    });
    this.worker.on('message', (message: FromKeyboard) => this.received(message));
    this.worker.on('error', (error) => this.failed(error.message));
    this.worker.on('exit', (code) => this.failed(`it exited (${code})`));
    // The process ends when its own work does: the thread never holds it up.
    this.worker.unref();
  }

  /** A server's client, whose keys connection names it by `token`. */
  addClient(source: number, token: string): void {
    if (this.stopped) return;
    this.sources.set(source, { seen: 0, held: null });
    this.post({ type: 'client', source, token });
  }

  /** That client is gone: its keys connection is closed. */
  removeClient(source: number): void {
    this.sources.delete(source);
    if (!this.stopped) this.post({ type: 'gone', source });
  }

  /** Plain typing from `source` may go straight to `target` from now on (null: to no tile). */
  directTo(source: number, target: KeyTarget | null): void {
    if (this.stopped) return;
    if (target === null) {
      const state = this.sources.get(source);
      if (!state?.held) return;
      state.held = null;
      this.post({ type: 'release', source });
      return;
    }
    const state = this.sources.get(source);
    if (!state) return; // a client that is gone
    const held = state.held;
    if (held && held.tileId === target.tileId && held.fd === target.fd && held.escapeKey === target.escapeKey) return;
    const copy = duplicateCloseOnExec(target.fd);
    if (copy === null) {
      if (held) this.directTo(source, null);
      return;
    }
    const id = this.nextId++;
    state.held = { ...target, id };
    this.post({ type: 'target', source, id, tileId: target.tileId, fd: copy, escapeKey: target.escapeKey, seen: state.seen });
  }

  /** Synchronous, for every exit path: the worker stops reading, closes what it holds and leaves
   * (ended after a moment if it does not). */
  stop(): void {
    this.stoppedOnPurpose = true;
    this.halt();
  }

  private halt(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.post({ type: 'stop' });
    setTimeout(() => void this.worker.terminate(), STOP_GRACE_MS).unref();
  }

  private received(message: FromKeyboard): void {
    if (this.stoppedOnPurpose) return;
    if (message.type === 'input') {
      const state = this.sources.get(message.source);
      if (!state) return; // keys of a client that is gone
      state.seen = message.seq;
      this.stats.chunks++;
      if (message.direct?.chars === message.data.length) this.stats.direct++;
      // The worker lets go of its target on any chunk it did not write whole.
      else state.held = null;
      this.options.onInput(message.source, message.data, message.direct);
      if (message.seq % HANDLED_EVERY === 0 && !this.stopped) this.post({ type: 'handled', source: message.source, seq: message.seq });
      return;
    }
    if (this.stopped) return;
    switch (message.type) {
      case 'refused': {
        const state = this.sources.get(message.source);
        if (state?.held?.id === message.id) state.held = null;
        return;
      }
      case 'listening':
        this.settle?.resolve();
        return;
      case 'connected':
        this.options.onConnected?.(message.source);
        return;
      case 'dropped':
        this.options.onDropped?.(message.source, message.why);
        return;
      case 'error':
        this.failed(message.message);
        return;
    }
  }

  private failed(reason: string): void {
    if (this.stopped) return;
    this.halt();
    this.settle?.reject(new Error(reason));
    this.options.onFailure(reason);
  }

  private post(message: ToKeyboard): void {
    this.worker.postMessage(message);
  }
}
