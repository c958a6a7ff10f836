/**
 * The keyboard's own thread (started by keyboard-thread.ts): it reads the user's terminal and
 * does nothing else. While the main thread has named a tile that has the keyboard, plain typing
 * (direct-keys.ts) goes from here straight to that tile's pty — a key never waits behind parsing,
 * painting or git on the main thread. Every chunk it reads goes to the main thread too, in order,
 * with how much of it was written already.
 *
 * The pty is written through a duplicate of its master that this thread owns and closes: the main
 * thread's own descriptor may close, and its number be handed out again, at any moment.
 *
 * A target is taken only from a main thread that has seen every chunk read so far (`seen`): one
 * in flight may change what the keys mean (the key that leaves the tile), so a target named
 * before it is refused, and the main thread names it again once it has caught up. Any chunk not
 * written whole ends the target for the same reason.
 */
import { closeSync, writeSync } from 'node:fs';
import { ReadStream } from 'node:tty';
import { parentPort, workerData } from 'node:worker_threads';

import { isDirectTyping } from './direct-keys.js';
import type { FromKeyboard, KeyboardData, ToKeyboard } from './keyboard-thread.js';

interface Target {
  id: number;
  tileId: number;
  fd: number;
  escapeKey: string;
}

const port = parentPort;
if (!port) throw new Error('keyboard-worker runs as a worker thread');
const { fd: inputFd } = workerData as KeyboardData;

let read = 0;
let target: Target | null = null;

const post = (message: FromKeyboard): void => port.postMessage(message);

function release(): void {
  if (target === null) return;
  closeQuietly(target.fd);
  target = null;
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Already closed: nothing of ours is left open.
  }
}

/** Characters of `data` the pty took (ASCII: a byte each); 0 when it took none (EAGAIN: the
 * program is not reading its input; EIO: it is gone). */
function written(fd: number, data: string): number {
  try {
    return writeSync(fd, data, null, 'latin1');
  } catch {
    return 0;
  }
}

const input = new ReadStream(inputFd);
input.setEncoding('utf8');
input.on('data', (chunk: string | Buffer) => {
  const data = typeof chunk === 'string' ? chunk : chunk.toString('utf8');
  read++;
  const to = target;
  const chars = to && isDirectTyping(data, to.escapeKey) ? written(to.fd, data) : 0;
  if (to && chars < data.length) release();
  post({ type: 'input', seq: read, data, ...(to && chars > 0 ? { direct: { tileId: to.tileId, chars } } : {}) });
});
input.on('error', (error: Error) => post({ type: 'error', message: error.message }));

port.on('message', (message: ToKeyboard) => {
  switch (message.type) {
    case 'target':
      release();
      if (message.seen !== read) {
        closeQuietly(message.fd);
        post({ type: 'refused', id: message.id });
        return;
      }
      target = { id: message.id, tileId: message.tileId, fd: message.fd, escapeKey: message.escapeKey };
      return;
    case 'release':
      release();
      return;
    case 'stop':
      release();
      input.destroy();
      port.close();
      return;
  }
});
