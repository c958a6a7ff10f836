/**
 * `belltower attach`: the thin client. It relays — raw keys up the socket, the server's frames to
 * the terminal, the window's size as a resize — and draws nothing itself, so it loads neither
 * React nor xterm. Keys go up the server's keys socket instead when the welcome names it (read
 * there by a thread that does nothing else: wire-protocol.ts), and up the attach socket again if
 * that connection cannot be made or goes. The terminal is put back (main screen, cursor, modes, cooked input) on every
 * way out: an exit from the server, a detach, the server going away, a signal.
 */
import { writeSync } from 'node:fs';
import { createConnection } from 'node:net';
import type { Socket } from 'node:net';
import type { ReadStream, WriteStream } from 'node:tty';
import { ENTER_SEQUENCE, RESTORE_SEQUENCE } from '../platform/terminal-sequences.js';
import { keysSocketPath } from '../wire/attach-socket-path.js';
import { CLIENT_ENV_NAMES, encode, inputFrames, WIRE_VERSION, WireDecoder, WireError } from '../wire/wire-protocol.js';
import type { ClientOptions, ServerMessage } from '../wire/wire-protocol.js';

export interface AttachOptions {
  path: string;
  session: string;
  version: string;
  stdin: ReadStream;
  stdout: WriteStream;
  env: NodeJS.ProcessEnv;
  /** This client's own grid choices (checked by the caller). */
  clientOptions?: ClientOptions;
  /** Lines for the user, after the terminal is back: news (stdout) and trouble (stderr). */
  tell: (line: string) => void;
  say: (line: string) => void;
}

export type AttachOutcome =
  /** The server let the client go: the status to end with. */
  | { kind: 'ended'; status: number }
  /** Nothing listens there: no server for that session. */
  | { kind: 'absent' };

/** Connect to a session server's socket, or find there is none. */
export function connectTo(path: string): Promise<Socket | null> {
  return new Promise((resolve) => {
    const socket = createConnection(path);
    socket.once('connect', () => {
      socket.removeAllListeners('error');
      resolve(socket);
    });
    socket.once('error', () => resolve(null));
  });
}

export async function attach(options: AttachOptions): Promise<AttachOutcome> {
  const socket = await connectTo(options.path);
  if (!socket) return { kind: 'absent' };
  return relay(socket, options);
}

/** Relay a connected socket until the server lets go. */
export function relay(socket: Socket, options: AttachOptions): Promise<AttachOutcome> {
  const { stdin, stdout } = options;
  const env: Record<string, string> = {};
  for (const name of CLIENT_ENV_NAMES) {
    const value = options.env[name];
    if (value !== undefined) env[name] = value;
  }
  const size = () => ({ cols: stdout.columns || 80, rows: stdout.rows || 24 });
  // Node writes to a terminal synchronously on POSIX; a relay that blocks on a large frame reads no
  // keys meanwhile. Queued writes keep the keys flowing, and pausing the socket while the terminal
  // is behind holds the server's frames back (it draws the next one when this catches up).
  // A tty.WriteStream has its fd (the typings give it only to process.stdout's).
  const terminalFd = (stdout as unknown as { fd?: number }).fd ?? 1;
  const blocking = (on: boolean) => (stdout as unknown as { _handle?: { setBlocking?(on: boolean): void } })._handle?.setBlocking?.(on);
  return new Promise((resolve) => {
    const decoder = new WireDecoder('server');
    let entered = false;
    let finished = false;
    let held = false;
    const caughtUp = () => {
      held = false;
      if (!finished) socket.resume();
    };
    const write = (data: string | Buffer) => {
      try {
        if (stdout.write(data) || held) return;
        held = true;
        socket.pause();
        stdout.once('drain', caughtUp);
      } catch {
        // the terminal is gone
      }
    };
    /** The terminal back now, past whatever is still queued for it (the process is exiting, or the
     * terminal took nothing more for too long): a blocking write straight to it. */
    const restoreNow = () => {
      if (!entered) return;
      entered = false;
      blocking(true);
      try {
        writeSync(terminalFd, RESTORE_SEQUENCE);
      } catch {
        // the terminal is gone (SIGHUP)
      }
      try {
        stdin.setRawMode(false);
      } catch {
        // the terminal is gone
      }
    };
    const finish = (status: number, line?: string, news = false) => {
      if (finished) return;
      finished = true;
      stdin.off('data', onKeys);
      stdin.pause();
      stdout.off('resize', onResize);
      socket.destroy();
      keysSocket?.destroy();
      connecting?.destroy();
      // The signal handlers and the exit hook stay until the terminal is back: a Ctrl-C or a kill
      // while the last frames go out must not leave it on the grid's screen.
      const done = () => {
        for (const [signal, handler] of signalHandlers) process.off(signal, handler);
        process.off('exit', restoreNow);
        stdout.off('drain', caughtUp);
        stdout.off('error', onTerminalGone);
        if (entered) {
          entered = false;
          try {
            stdin.setRawMode(false);
          } catch {
            // the terminal is gone (SIGHUP)
          }
        }
        blocking(true);
        if (line) (news ? options.tell : options.say)(line);
        resolve({ kind: 'ended', status });
      };
      if (!entered) return done();
      // The terminal is put back after every frame before it, in order; one that takes nothing
      // more (gone, or stalled) is not waited for long, and is put back past the queue.
      let over = false;
      const giveUp = setTimeout(() => {
        over = true;
        restoreNow();
        done();
      }, 2000);
      const flushed = () => {
        clearTimeout(giveUp);
        if (!over) done();
      };
      try {
        stdout.write(RESTORE_SEQUENCE, flushed);
      } catch {
        flushed();
      }
    };
    const onTerminalGone = () => finish(129);
    stdout.on('error', onTerminalGone);
    const send = (frame: Buffer) => {
      if (!socket.destroyed) socket.write(frame);
    };
    /** The keys connection, while it is up; `connecting`, while it is being made. */
    let keysSocket: Socket | null = null;
    let connecting: Socket | null = null;
    const onKeys = (data: Buffer | string) => {
      const keys = keysSocket && !keysSocket.destroyed ? keysSocket : null;
      for (const frame of inputFrames(typeof data === 'string' ? data : data.toString('utf8'))) {
        if (keys) keys.write(frame);
        else send(frame);
      }
    };
    /** Keys are read once they have a way up: the keys connection, or the attach socket without it. */
    const readKeys = () => {
      if (finished) return;
      stdin.on('data', onKeys);
      stdin.resume();
    };
    const connectKeys = (token: string) => {
      const keys = (connecting = createConnection(keysSocketPath(options.path)));
      let settled = false;
      keys.once('connect', () => {
        settled = true;
        connecting = null;
        keys.write(encode({ type: 'keys', token }));
        keysSocket = keys;
        readKeys();
      });
      keys.on('error', () => undefined); // 'close' follows
      keys.once('close', () => {
        if (keysSocket === keys) keysSocket = null;
        if (connecting === keys) connecting = null;
        if (!settled) readKeys();
      });
      keys.on('data', () => undefined); // the server sends nothing on it
    };
    const onResize = () => send(encode({ type: 'resize', ...size() }));
    // A closed terminal or a kill: this client goes, the session stays.
    const signalHandlers: [NodeJS.Signals, () => void][] = [
      ['SIGHUP', () => finish(129)],
      ['SIGTERM', () => finish(143)],
      ['SIGINT', () => finish(130)],
    ];
    for (const [signal, handler] of signalHandlers) process.on(signal, handler);
    process.on('exit', restoreNow);

    const onMessage = (message: ServerMessage) => {
      switch (message.type) {
        case 'welcome':
          if (message.wire !== WIRE_VERSION) {
            return finish(2, `belltower: session "${options.session}" runs belltower ${message.version}, which speaks another attach protocol; run that belltower, or end the session (belltower kill-session ${options.session})`);
          }
          entered = true;
          blocking(false);
          stdin.setRawMode(true);
          if (message.keys !== undefined) connectKeys(message.keys);
          else readKeys();
          stdout.on('resize', onResize);
          write(ENTER_SEQUENCE);
          return;
        case 'refused':
          return finish(2, `belltower: ${message.message}`);
        case 'output':
          return write(message.data);
        case 'exit':
          if (message.reason === 'detached') return finish(message.status, `[detached from session ${options.session}; belltower attach ${options.session} comes back]`, true);
          if (message.reason === 'killed') return finish(message.status, `[session ${options.session} was ended]`, true);
          return finish(message.status, message.message);
      }
    };
    socket.on('data', (chunk: Buffer) => {
      let messages;
      try {
        messages = decoder.push(chunk);
      } catch (error) {
        if (error instanceof WireError) return finish(1, `belltower: the server of session "${options.session}" sent what this belltower cannot read (${error.message}); is it another version?`);
        throw error;
      }
      for (const message of messages) {
        onMessage(message as ServerMessage);
        if (finished) return;
      }
    });
    socket.on('error', () => undefined); // 'close' follows
    socket.on('close', () => finish(1, `belltower: the server of session "${options.session}" went away; \`belltower\` here offers to restore its tiles`));
    socket.write(encode({ type: 'hello', wire: WIRE_VERSION, version: options.version, ...size(), env, options: options.clientOptions ?? {} }));
  });
}
