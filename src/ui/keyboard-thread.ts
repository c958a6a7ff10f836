/**
 * The thread that reads the user's keyboard (keyboard-worker.ts), owned from the main thread.
 *
 * The main thread parses every tile's output, paints, renders the chrome and starts git; a key
 * read there waits behind whichever of those is running (docs/performance.md, goal 2). Read on a
 * thread of its own, a key of plain typing for the focused tile goes to its pty at once; every
 * key still reaches the main thread, in order, for what it means to the UI (the typed line, a
 * prompt's Enter, the key that leaves the tile).
 *
 * `directTo` names the tile that has the keyboard (null: none): the grid says so after each chunk
 * it handled and whenever a tile changes, and only while it is focused on a tile, with no overlay,
 * no scroll view and no escape sequence half read.
 */
import { Worker } from 'node:worker_threads';

import { duplicateCloseOnExec } from '../platform/close-on-exec.js';
import { Listeners } from '../platform/listeners.js';
import type { DirectWritten } from './direct-keys.js';

/** What the worker is started with. */
export interface KeyboardData {
  /** The user's terminal (0). */
  fd: number;
}

export type ToKeyboard =
  /** `fd` is the worker's own duplicate of the tile's pty master, now its to close. */
  | { type: 'target'; id: number; tileId: number; fd: number; escapeKey: string; seen: number }
  | { type: 'release' }
  | { type: 'stop' };

export type FromKeyboard =
  | { type: 'input'; seq: number; data: string; direct?: DirectWritten }
  /** The target `id` came after a chunk the main thread had not seen: name it again. */
  | { type: 'refused'; id: number }
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
  /** The user's terminal. */
  fd: number;
  /** The thread stopped without being asked (it could not read the terminal, or crashed):
   * keys must be read on the main thread from now on. */
  onFailure(reason: string): void;
  /** The built worker; tests run from the sources and name dist's. */
  workerUrl?: URL;
}

export class KeyboardThread {
  private readonly worker: Worker;
  private readonly inputs = new Listeners<[data: string, direct: DirectWritten | undefined]>();
  /** The last chunk handed to the listeners. */
  private seen = 0;
  /** The target the worker holds or is about to, as far as this side knows. */
  private held: (KeyTarget & { id: number }) | null = null;
  private nextId = 1;
  private stopped = false;
  /** Chunks read, and those written to a tile whole by the worker: for the log. */
  readonly stats = { chunks: 0, direct: 0 };

  constructor(private readonly options: KeyboardThreadOptions) {
    const data: KeyboardData = { fd: options.fd };
    this.worker = new Worker(options.workerUrl ?? new URL('../ui/keyboard-worker.js', import.meta.url), {
      workerData: data,
      // Its whole job is a read and a write: the smallest heap V8 allows keeps its memory small.
      resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 8 },
      stdout: true,
      stderr: true,
    });
    this.worker.on('message', (message: FromKeyboard) => this.received(message));
    this.worker.on('error', (error) => this.failed(error.message));
    this.worker.on('exit', (code) => this.failed(`it exited (${code})`));
  }

  onInput(listener: (data: string, direct: DirectWritten | undefined) => void): () => void {
    return this.inputs.add(listener);
  }

  /** Plain typing may go straight to `target` from now on (null: to no tile). */
  directTo(target: KeyTarget | null): void {
    if (this.stopped) return;
    const held = this.held;
    if (target === null) {
      if (held === null) return;
      this.held = null;
      this.post({ type: 'release' });
      return;
    }
    if (held && held.tileId === target.tileId && held.fd === target.fd && held.escapeKey === target.escapeKey) return;
    const copy = duplicateCloseOnExec(target.fd);
    if (copy === null) {
      if (held) this.directTo(null);
      return;
    }
    const id = this.nextId++;
    this.held = { ...target, id };
    this.post({ type: 'target', id, tileId: target.tileId, fd: copy, escapeKey: target.escapeKey, seen: this.seen });
  }

  /** Synchronous, for every exit path: the worker stops reading and closes what it holds. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.held = null;
    this.post({ type: 'stop' });
    void this.worker.terminate();
  }

  private received(message: FromKeyboard): void {
    if (this.stopped) return;
    switch (message.type) {
      case 'input': {
        this.seen = message.seq;
        this.stats.chunks++;
        if (message.direct?.chars === message.data.length) this.stats.direct++;
        // The worker lets go of its target on any chunk it did not write whole.
        if (!message.direct || message.direct.chars < message.data.length) this.held = null;
        this.inputs.emit(message.data, message.direct);
        return;
      }
      case 'refused':
        if (this.held?.id === message.id) this.held = null;
        return;
      case 'error':
        this.failed(message.message);
        return;
    }
  }

  private failed(reason: string): void {
    if (this.stopped) return;
    this.stop();
    this.options.onFailure(reason);
  }

  private post(message: ToKeyboard): void {
    this.worker.postMessage(message);
  }
}
