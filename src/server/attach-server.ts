/**
 * The server's door for clients: `<runtime>/attach/<session>.sock`, private as the control socket
 * is. A connection must say hello (this protocol, this version) within a few seconds, and then
 * becomes an attached client with a grid of its own; a peer that sends anything else, or too
 * much, is dropped without touching the session.
 */
import { createServer } from 'node:net';
import type { Server, Socket } from 'node:net';
import { listenPrivate, removeSocket, SocketBusyError } from '../platform/private-socket.js';
import type { Logger } from '../platform/logger.js';
import { encode, WIRE_VERSION, WireDecoder, WireError } from '../wire/wire-protocol.js';
import type { Hello } from '../wire/wire-protocol.js';
import { ClientLink } from './client-link.js';

export { attachDir, attachSocketPath } from '../wire/attach-socket-path.js';

/** A connection that has not said hello by then is dropped. */
export const HELLO_TIMEOUT_MS = 5000;
/** Clients attached at once, at most (each has a grid of its own to draw). */
export const MAX_CLIENTS = 16;
/** Messages a client may send a second; a client far over it is not a person typing. */
export const MAX_MESSAGES_PER_SECOND = 2000;

export interface AttachServerOptions {
  session: string;
  version: string;
  logger: Logger;
  /** A client said a good hello: start its grid. */
  attached(link: ClientLink): void;
  /** A client went (detached, dropped, or its connection closed). */
  detached(link: ClientLink): void;
}

export class AttachServerError extends Error {
  override name = 'AttachServerError';
}

export class AttachServer {
  private readonly links = new Set<ClientLink>();
  private readonly sockets = new Set<Socket>();
  private nextId = 1;

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
    return attach;
  }

  get clients(): readonly ClientLink[] {
    return [...this.links].filter((link) => !link.isClosed);
  }

  /** Let every client go (the session ends) and stop listening. */
  async close(reason: 'quit' | 'ended' | 'killed', status: number, message?: string): Promise<void> {
    for (const link of this.links) link.close(reason, status, message);
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    removeSocket(this.path);
    // Give the exit frames a moment to leave, then drop whatever is left.
    await new Promise((resolve) => setTimeout(resolve, 50));
    for (const socket of this.sockets) socket.destroy();
  }

  private accept(socket: Socket): void {
    this.sockets.add(socket);
    const decoder = new WireDecoder('client');
    let link: ClientLink | null = null;
    let window = { start: Date.now(), count: 0 };
    const helloTimer = setTimeout(() => drop('no hello'), HELLO_TIMEOUT_MS);
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
        this.options.detached(link);
      }
    });
    socket.on('data', (chunk: Buffer) => {
      const now = Date.now();
      if (now - window.start >= 1000) window = { start: now, count: 0 };
      let messages;
      try {
        messages = decoder.push(chunk);
      } catch (error) {
        if (error instanceof WireError) return drop(error.message);
        throw error;
      }
      window.count += messages.length;
      if (window.count > MAX_MESSAGES_PER_SECOND) return drop(`over ${MAX_MESSAGES_PER_SECOND} messages a second`);
      for (const message of messages) {
        if (socket.destroyed) return;
        if (!link) {
          if (message.type !== 'hello') return drop(`a ${message.type} before hello`);
          const refusal = this.refusal(message);
          if (refusal) return refuse(refusal);
          clearTimeout(helloTimer);
          link = new ClientLink(socket, message, this.nextId++);
          this.links.add(link);
          socket.write(encode({ type: 'welcome', wire: WIRE_VERSION, version: this.options.version, session: this.options.session }));
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
