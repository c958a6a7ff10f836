/**
 * The keyboard's own thread (started by keyboard-thread.ts): it reads keys and does nothing else.
 * Its keys come from the user's terminal (the one-process grid: one source, 0) or from a session
 * server's attached clients, each over a connection of its own to the server's keys socket (one
 * source a client, named by the token its welcome gave it). While the main thread has named a
 * tile that has a source's keyboard, that source's plain typing (direct-keys.ts) goes from here
 * straight to the tile's pty — a key never waits behind parsing, painting or git on the main
 * thread. Every chunk goes to the main thread too, in order, with how much of it was written.
 *
 * The pty is written through a duplicate of its master that this thread owns and closes: the main
 * thread's own descriptor may close, and its number be handed out again, at any moment.
 *
 * A target is taken only from a main thread that has seen every chunk the source sent so far
 * (`seen`): one in flight may change what the keys mean (the key that leaves the tile), so a target
 * named before it is refused, and the main thread names it again once it has caught up. Any chunk
 * not written whole ends the target for the same reason.
 */
import { chmodSync, closeSync, writeSync } from 'node:fs';
import { createServer } from 'node:net';
import type { Socket } from 'node:net';
import { ReadStream } from 'node:tty';
import { parentPort, workerData } from 'node:worker_threads';

import { ClientFrames } from '../wire/client-frames.js';
import { isDirectTyping } from './direct-keys.js';
import type { FromKeyboard, KeyboardData, ToKeyboard } from './keyboard-thread.js';

interface Target {
  id: number;
  tileId: number;
  fd: number;
  escapeKey: string;
}

interface Source {
  read: number;
  /** The last chunk the main thread said it handled. */
  handled: number;
  target: Target | null;
  /** Where its keys are read from: paused while the main thread is far behind. */
  input: { pause(): void; resume(): void } | null;
  paused: boolean;
}

/** A connection that has not named its client by then is dropped. */
const TOKEN_TIMEOUT_MS = 5000;
/** Connections not yet named, at most: the rest are closed at once. */
const MAX_UNNAMED = 16;
/** Chunks handed to the main thread and not yet handled, at most, before a source's reading
 * pauses (it resumes at half): the main thread's queue is bounded as its own reading was. */
const MAX_UNHANDLED = 256;

const port = parentPort;
if (!port) throw new Error('keyboard-worker runs as a worker thread');
const data = workerData as KeyboardData;

const sources = new Map<number, Source>();
/** Tokens the main thread gave and no connection has used yet: each names its client once. */
const tokens = new Map<string, number>();
/** Each named client's keys connection. */
const connections = new Map<number, Socket>();
let unnamed = 0;

const post = (message: FromKeyboard): void => port.postMessage(message);

function sourceOf(id: number): Source {
  let source = sources.get(id);
  if (!source) sources.set(id, (source = { read: 0, handled: 0, target: null, input: null, paused: false }));
  return source;
}

function release(source: Source): void {
  if (source.target === null) return;
  closeQuietly(source.target.fd);
  source.target = null;
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Already closed: nothing of ours is left open.
  }
}

/** Characters of `text` the pty took (ASCII: a byte each); 0 when it took none (EAGAIN: the
 * program is not reading its input; EIO: it is gone). */
function written(fd: number, text: string): number {
  try {
    return writeSync(fd, text, null, 'latin1');
  } catch {
    return 0;
  }
}

/** A chunk of keys from `id`: written to its target when it may be, and told to the main thread. */
function keys(id: number, text: string): void {
  const source = sourceOf(id);
  source.read++;
  const to = source.target;
  const chars = to && isDirectTyping(text, to.escapeKey) ? written(to.fd, text) : 0;
  if (to && chars < text.length) release(source);
  post({ type: 'input', source: id, seq: source.read, data: text, ...(to && chars > 0 ? { direct: { tileId: to.tileId, chars } } : {}) });
  if (!source.paused && source.read - source.handled >= MAX_UNHANDLED) {
    source.paused = true;
    source.input?.pause();
  }
}

function handled(id: number, seq: number): void {
  const source = sources.get(id);
  if (!source) return;
  source.handled = Math.max(source.handled, seq);
  if (source.paused && source.read - source.handled <= MAX_UNHANDLED / 2) {
    source.paused = false;
    source.input?.resume();
  }
}

function readTerminal(fd: number): void {
  const input = new ReadStream(fd);
  input.setEncoding('utf8');
  sourceOf(0).input = input;
  input.on('data', (chunk: string | Buffer) => keys(0, typeof chunk === 'string' ? chunk : chunk.toString('utf8')));
  input.on('error', (error: Error) => post({ type: 'error', message: error.message }));
  stops.push(() => input.destroy());
}

/** A client's keys connection: a `keys` frame naming its client first, then input frames. */
function acceptClient(socket: Socket): void {
  if (unnamed >= MAX_UNNAMED) return void socket.destroy();
  unnamed++;
  const frames = new ClientFrames();
  let client: number | null = null;
  const timer = setTimeout(() => socket.destroy(), TOKEN_TIMEOUT_MS);
  const drop = (why: string) => {
    if (client !== null) post({ type: 'dropped', source: client, why });
    socket.destroy();
  };
  socket.on('error', () => undefined); // 'close' follows
  socket.on('close', () => {
    clearTimeout(timer);
    if (client === null) unnamed--;
    else if (connections.get(client) === socket) connections.delete(client);
  });
  socket.on('data', (chunk: Buffer) => {
    const messages = frames.push(chunk);
    if (typeof messages === 'string') return drop(messages);
    for (const message of messages) {
      if (socket.destroyed) return;
      if (client === null) {
        const token = message.type === 'keys' ? message.token : '';
        const named = tokens.get(token);
        // A token the main thread did not give, or one used already: not a client's.
        if (named === undefined) return void socket.destroy();
        tokens.delete(token);
        clearTimeout(timer);
        unnamed--;
        client = named;
        connections.set(client, socket);
        sourceOf(client).input = socket;
        post({ type: 'connected', source: client });
        continue;
      }
      if (message.type !== 'input') return drop(`a ${message.type} on the keys connection`);
      keys(client, message.data);
    }
  });
}

function listenForClients(path: string): void {
  const server = createServer(acceptClient);
  let listening = false;
  // Before it listens, a failure means no keys socket (the main thread then reads keys itself);
  // after, an error accepting one connection (no descriptor left) costs that connection alone.
  server.on('error', (error) => {
    if (!listening) post({ type: 'error', message: `the keys socket: ${error.message}` });
  });
  // The attach folder is private (0700, checked by the main thread, which also removed a stale
  // socket here); the socket is made 0600 as soon as it exists all the same.
  server.listen(path, () => {
    try {
      chmodSync(path, 0o600);
    } catch (error) {
      post({ type: 'error', message: `the keys socket: ${(error as Error).message}` });
      return;
    }
    listening = true;
    post({ type: 'listening' });
  });
  stops.push(() => server.close());
}

const stops: (() => void)[] = [];
if (data.kind === 'terminal') readTerminal(data.fd);
else listenForClients(data.path);

port.on('message', (message: ToKeyboard) => {
  switch (message.type) {
    case 'target': {
      const source = sourceOf(message.source);
      release(source);
      if (message.seen !== source.read) {
        closeQuietly(message.fd);
        post({ type: 'refused', source: message.source, id: message.id });
        return;
      }
      source.target = { id: message.id, tileId: message.tileId, fd: message.fd, escapeKey: message.escapeKey };
      return;
    }
    case 'release': {
      const source = sources.get(message.source);
      if (source) release(source);
      return;
    }
    case 'handled':
      handled(message.source, message.seq);
      return;
    case 'client':
      tokens.set(message.token, message.source);
      return;
    case 'gone': {
      const source = sources.get(message.source);
      if (source) release(source);
      sources.delete(message.source);
      for (const [token, id] of tokens) if (id === message.source) tokens.delete(token);
      connections.get(message.source)?.destroy();
      connections.delete(message.source);
      return;
    }
    case 'stop':
      for (const source of sources.values()) release(source);
      for (const stop of stops.splice(0)) stop();
      for (const socket of connections.values()) socket.destroy();
      port.close();
      return;
  }
});
