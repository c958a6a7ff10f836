/**
 * The server's door for clients: `<runtime>/attach/<session>.sock`, private as the control socket
 * is. A connection must say hello (this protocol, this version) within a few seconds, and then
 * becomes an attached client with a grid of its own; a peer that sends anything else, or too
 * much, is dropped without touching the session.
 *
 * Beside it, `<session>.sock.keys`: the keys socket, read by the server's keyboard thread
 * (ui/keyboard-thread.ts). Each welcome carries a fresh token; a client that connects there with it
 * sends its keys that way, and plain typing for the tile it is focused on reaches the tile's pty
 * without waiting for this thread. Where the thread cannot start, welcomes carry no token and keys
 * come on the attach socket, as from a client that does not use it.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import type { Server, Socket } from 'node:net';
import { listenPrivate, removeSocket, SocketBusyError } from '../platform/private-socket.js';
import type { Logger } from '../platform/logger.js';
import { KeyboardThread } from '../ui/keyboard-thread.js';
import { keysSocketPath } from '../wire/attach-socket-path.js';
import { ClientFrames } from '../wire/client-frames.js';
import { encode, WIRE_VERSION } from '../wire/wire-protocol.js';
import type { Hello } from '../wire/wire-protocol.js';
import { ClientLink } from './client-link.js';

export { attachDir, attachSocketPath } from '../wire/attach-socket-path.js';

/** A connection that has not said hello by then is dropped. */
export const HELLO_TIMEOUT_MS = 5000;
/** Clients attached at once, at most (each has a grid of its own to draw). */
export const MAX_CLIENTS = 16;

export interface AttachServerOptions {
  session: string;
  version: string;
  logger: Logger;
  /** Read clients' keys on a thread of their own (default: true). */
  keyboardThread?: boolean;
  /** A client said a good hello: start its grid. */
  attached(link: ClientLink): void;
  /** A client went (detached, dropped, or its connection closed). */
  detached(link: ClientLink): void;
}

export class AttachServerError extends Error {
  override name = 'AttachServerError';
}

/** How long the keyboard thread may take to listen before clients are welcomed without it. */
const KEYS_READY_MS = 5000;

export class AttachServer {
  private readonly links = new Set<ClientLink>();
  private readonly sockets = new Set<Socket>();
  private nextId = 1;
  private keyboard: KeyboardThread | null = null;
  private keyboardSettled: Promise<void> = Promise.resolve();

  private constructor(
    private readonly server: Server,
    readonly path: string,
    private readonly options: AttachServerOptions,
  ) {}

  static async listen(path: string, options: AttachServerOptions): Promise<AttachServer> {
    const server = createServer();
    const attach = new AttachServer(server, path, options);
    server.on('connection', (socket) => attach.accept(socket));
    try {
      await listenPrivate(server, path, (busy) => `a belltower server already runs as ${busy}`);
    } catch (error) {
      if (error instanceof SocketBusyError) throw new AttachServerError(error.message);
      throw error;
    }
    // A client that connects meanwhile (the launcher, at once) is read once this is settled, so
    // that its welcome can name the keys socket.
    if (options.keyboardThread !== false) {
      attach.keyboardSettled = attach.startKeyboard();
      await attach.keyboardSettled;
    }
    return attach;
  }

  /** The keys socket and its thread. The attach folder is private (listenPrivate checked it), and
   * this server holds the session's lock and its attach socket: a keys socket there is a dead
   * server's, removed (a link there is removed, never followed). */
  private async startKeyboard(): Promise<void> {
    const keysPath = keysSocketPath(this.path);
    removeSocket(keysPath);
    const { logger } = this.options;
    let keyboard: KeyboardThread;
    try {
      keyboard = new KeyboardThread({
        input: { kind: 'sockets', path: keysPath },
        onInput: (source, data, direct) => this.linkOf(source)?.input(data, direct),
        onConnected: (source) => {
          const link = this.linkOf(source);
          if (link && this.keyboard) link.keysConnected({ directTo: (target) => this.keyboard?.directTo(source, target) });
        },
        onDropped: (source, why) => {
          logger('warn', `attach: a client dropped: its keys connection: ${why}`, { client: source });
          this.linkOf(source)?.close('ended', 1, `belltower: the keys connection broke the attach protocol (${why})`);
        },
        onFailure: (reason) => {
          this.keyboard = null;
          for (const link of this.links) link.keysConnected(null);
          logger('warn', `attach: the keyboard thread stopped (${reason}): clients' keys are read on the main thread`);
        },
      });
    } catch (error) {
      logger('warn', `attach: the keyboard thread did not start (${(error as Error).message}): clients' keys are read on the main thread`);
      return;
    }
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`not listening after ${KEYS_READY_MS} ms`)), KEYS_READY_MS)));
    try {
      await Promise.race([keyboard.ready, late]);
      this.keyboard = keyboard;
    } catch (error) {
      keyboard.stop();
      removeSocket(keysPath);
      logger('warn', `attach: the keys socket is not used (${(error as Error).message}): clients' keys are read on the main thread`);
    } finally {
      clearTimeout(timer);
    }
  }

  private linkOf(id: number): ClientLink | undefined {
    for (const link of this.links) if (link.id === id && !link.isClosed) return link;
    return undefined;
  }

  get clients(): readonly ClientLink[] {
    return [...this.links].filter((link) => !link.isClosed);
  }

  /** Let every client go (the session ends) and stop listening. */
  async close(reason: 'quit' | 'ended' | 'killed', status: number, message?: string): Promise<void> {
    for (const link of this.links) link.close(reason, status, message);
    if (this.keyboard) {
      this.keyboard.stop();
      this.options.logger('info', 'attach: the keyboard thread stopped', { ...this.keyboard.stats });
      this.keyboard = null;
      removeSocket(keysSocketPath(this.path));
    }
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    removeSocket(this.path);
    // Give the exit frames a moment to leave, then drop whatever is left.
    await new Promise((resolve) => setTimeout(resolve, 50));
    for (const socket of this.sockets) socket.destroy();
  }

  private accept(socket: Socket): void {
    this.sockets.add(socket);
    const frames = new ClientFrames();
    let link: ClientLink | null = null;
    let helloTimer: NodeJS.Timeout | undefined;
    // Read once the keyboard thread is settled (its welcome may name the keys socket); the hello's
    // time starts then.
    socket.pause();
    void this.keyboardSettled.then(() => {
      if (socket.destroyed) return;
      helloTimer = setTimeout(() => drop('no hello'), HELLO_TIMEOUT_MS);
      socket.resume();
    });
    const drop = (why: string) => {
      this.options.logger('warn', `attach: a client dropped: ${why}`);
      socket.destroy();
    };
    const refuse = (message: string) => {
      clearTimeout(helloTimer);
      socket.end(encode({ type: 'refused', message }));
      setTimeout(() => socket.destroy(), 1000).unref();
    };
    socket.on('error', () => undefined); // a client that vanished: 'close' follows
    socket.on('close', () => {
      clearTimeout(helloTimer);
      this.sockets.delete(socket);
      if (link) {
        this.links.delete(link);
        this.keyboard?.removeClient(link.id);
        this.options.detached(link);
      }
    });
    socket.on('data', (chunk: Buffer) => {
      const messages = frames.push(chunk);
      if (typeof messages === 'string') return drop(messages);
      for (const message of messages) {
        if (socket.destroyed) return;
        if (!link) {
          if (message.type !== 'hello') return drop(`a ${message.type} before hello`);
          const refusal = this.refusal(message);
          if (refusal) return refuse(refusal);
          clearTimeout(helloTimer);
          link = new ClientLink(socket, message, this.nextId++);
          this.links.add(link);
          const token = this.keyboard ? randomBytes(16).toString('hex') : undefined;
          if (token) this.keyboard?.addClient(link.id, token);
          socket.write(encode({ type: 'welcome', wire: WIRE_VERSION, version: this.options.version, session: this.options.session, ...(token ? { keys: token } : {}) }));
          this.options.logger('info', 'attach: a client attached', { client: link.id, cols: message.cols, rows: message.rows, version: message.version });
          this.options.attached(link);
          continue;
        }
        switch (message.type) {
          case 'input':
            link.input(message.data);
            break;
          case 'resize':
            link.resized(message.cols, message.rows);
            break;
          case 'detach':
            link.close('detached', 0);
            break;
          case 'hello':
            return drop('a second hello');
          default:
            return drop(`a ${message.type} from a client`);
        }
      }
    });
  }

  private refusal(hello: Hello): string | null {
    if (hello.wire !== WIRE_VERSION) {
      return `this belltower (${hello.version}) cannot attach to the server of session "${this.options.session}", which runs belltower ${this.options.version} (attach protocol ${WIRE_VERSION}, the client speaks ${hello.wire}): run the same belltower as the server, or end the session with \`belltower kill-session ${this.options.session}\` and start it again`;
    }
    if (this.clients.length >= MAX_CLIENTS) return `session "${this.options.session}" already has ${MAX_CLIENTS} clients attached`;
    return null;
  }
}
