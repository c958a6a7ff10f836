/**
 * The control server: owns one local socket (0600 in a 0700 folder) through which `ls`, `send`
 * and `wait` reach a running belltower. A malformed request gets an error reply and never takes
 * the server down; a socket left by a dead process is removed before listening.
 */
import { createServer } from 'node:net';
import type { Server, Socket } from 'node:net';
import { dirname } from 'node:path';
import { acquirePidLock, LockError } from '../platform/pid-lock.js';
import { ensurePrivateDir } from '../platform/private-dir.js';
import { listenPrivate, removeSocket, SocketBusyError } from '../platform/private-socket.js';
import { formatDuration } from '../verdict/duration.js';
import { findTile } from './control-target.js';
import { sessionLockPath } from './socket-path.js';
import type { ControlTarget } from './control-target.js';
import { parseRequest, PROTOCOL_VERSION, reaches } from './protocol.js';
import type { ControlReply, ControlRequest, TileInfo } from './protocol.js';

/** A request line longer than this is refused: nothing legitimate is that long. */
const MAX_LINE = 1024 * 1024;

export interface ControlServerOptions {
  /** A connection with nothing in flight is closed after this long without a request. Default 60 s. */
  idleMs?: number;
  /** A client whose unread replies exceed this is dropped: it is not reading. Default 1 MB. */
  maxBufferedBytes?: number;
}

export const DEFAULT_IDLE_MS = 60_000;
export const DEFAULT_MAX_BUFFERED_BYTES = 1024 * 1024;
/** Waits one connection may have open at once (each holds a listener until it ends). */
export const MAX_WAITS_PER_CONNECTION = 16;

/** What a session server adds to the control socket. */
export interface SessionOps {
  /** Let the client that typed or resized last go (or every client); how many went. */
  detach(all: boolean): number;
}

export class ControlServerError extends Error {
  override name = 'ControlServerError';
}

export class ControlServer {
  private readonly sockets = new Set<Socket>();
  private readonly waits = new Set<() => void>();

  private constructor(
    private readonly server: Server,
    readonly path: string,
    private readonly limits: Required<ControlServerOptions>,
  ) {}

  static async listen(path: string, target: ControlTarget, options: ControlServerOptions = {}): Promise<ControlServer> {
    const server = createServer();
    const control = new ControlServer(server, path, {
      idleMs: options.idleMs ?? DEFAULT_IDLE_MS,
      maxBufferedBytes: options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES,
    });
    server.on('connection', (socket) => control.accept(socket, target));
    const busy = (socket: string) => `another belltower is already running as ${socket}; pick another --session name`;
    // The session's lock first: of two belltowers started at the same moment, one takes it and
    // binds the socket; the other is told so, and never mistakes a socket being bound for a stale one.
    if (process.platform !== 'win32') {
      ensurePrivateDir(dirname(path));
      let lock;
      try {
        lock = acquirePidLock(sessionLockPath(path));
      } catch (error) {
        if (error instanceof LockError) throw new ControlServerError(error.message);
        throw error;
      }
      if (!lock.ok) throw new ControlServerError(`${busy(path)} (pid ${lock.pid})`);
      control.releaseLock = lock.release;
    }
    try {
      await listenPrivate(server, path, busy);
    } catch (error) {
      control.releaseLock();
      if (error instanceof SocketBusyError) throw new ControlServerError(error.message);
      throw error;
    }
    return control;
  }

  /** Let go of the session's lock (closing does). */
  private releaseLock: () => void = () => undefined;

  async close(): Promise<void> {
    for (const cancel of this.waits) cancel();
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    removeSocket(this.path);
    this.releaseLock();
  }

  private accept(socket: Socket, target: ControlTarget): void {
    this.sockets.add(socket);
    socket.setEncoding('utf8');
    let buffer = '';
    const waits = { open: 0 };
    const reply = (message: ControlReply) => {
      if (socket.destroyed) return;
      socket.write(`${JSON.stringify(message)}\n`);
      // A client that does not read its replies would have them held here without end.
      if (socket.writableLength > this.limits.maxBufferedBytes) socket.destroy();
    };
    // Idle: nothing asked for a while and no wait in flight (a wait may rightly last long).
    socket.setTimeout(this.limits.idleMs);
    socket.on('timeout', () => {
      if (waits.open === 0) socket.destroy();
      else socket.setTimeout(this.limits.idleMs); // look again later (a fired timeout does not re-arm)
    });
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      if (buffer.length > MAX_LINE && !buffer.includes('\n')) {
        reply({ v: PROTOCOL_VERSION, id: 0, ok: false, error: `request line longer than ${MAX_LINE} bytes` });
        socket.end();
        buffer = '';
        return;
      }
      let newline: number;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, newline).trim();
        buffer = buffer.slice(newline + 1);
        if (line === '') continue;
        const parsed = parseRequest(line);
        if (!parsed.ok) reply({ v: PROTOCOL_VERSION, id: parsed.id, ok: false, error: parsed.error });
        else this.handle(parsed.request, target, reply, socket, waits);
        if (socket.destroyed) return;
      }
    });
    socket.on('error', () => socket.destroy());
    socket.on('close', () => this.sockets.delete(socket));
  }

  /** A session server's own operations (its clients), once it has them. */
  private session: SessionOps | null = null;

  serveSession(ops: SessionOps): void {
    this.session = ops;
  }

  private handle(request: ControlRequest, target: ControlTarget, reply: (m: ControlReply) => void, socket: Socket, waits: { open: number }): void {
    const v = PROTOCOL_VERSION;
    const id = request.id;
    const tiles = target.tileInfos();
    if (request.op === 'ls') return reply({ v, id, ok: true, tiles });
    if (request.op === 'detach') {
      if (!this.session) return reply({ v, id, ok: false, error: 'this belltower is not a session server, so nothing can detach from it (it runs with --no-server)' });
      return reply({ v, id, ok: true, detached: this.session.detach(request.all) });
    }
    if (request.op === 'add') {
      if (!target.addTile) return reply({ v, id, ok: false, error: 'this belltower cannot add tiles' });
      void target.addTile(request.spec, { ...(request.name ? { name: request.name } : {}), ...(request.cwd ? { cwd: request.cwd } : {}), ...(request.worktree ? { worktree: request.worktree } : {}) }).then(
        (added) => reply(typeof added === 'string' ? { v, id, ok: false, error: added } : { v, id, ok: true, done: 'added', tile: added }),
        (error: unknown) => reply({ v, id, ok: false, error: `could not add the tile: ${(error as Error).message}` }),
      );
      return;
    }

    const tile = findTile(tiles, request.tile);
    if (!tile) return reply({ v, id, ok: false, error: `no tile "${request.tile}" (tiles: ${tiles.map((t) => `${t.id} ${t.name}`).join(', ') || 'none'})` });

    if (request.op === 'why') return reply({ v, id, ok: true, tile, why: target.why(tile) });
    if (request.op === 'close') {
      if (!target.closeTile) return reply({ v, id, ok: false, error: 'this belltower cannot close tiles' });
      void target.closeTile(tile).then((error) => reply(error ? { v, id, ok: false, error } : { v, id, ok: true, done: 'closed', tile }));
      return;
    }
    if (request.op === 'restart') {
      if (!target.restartTile) return reply({ v, id, ok: false, error: 'this belltower cannot restart tiles' });
      void target.restartTile(tile).then((next) => reply(typeof next === 'string' ? { v, id, ok: false, error: next } : { v, id, ok: true, done: 'restarted', tile: next }));
      return;
    }
    if (request.op === 'rename') {
      if (!target.renameTile) return reply({ v, id, ok: false, error: 'this belltower cannot rename tiles' });
      const renamed = target.renameTile(tile, request.name);
      return reply(typeof renamed === 'string' ? { v, id, ok: false, error: renamed } : { v, id, ok: true, done: 'renamed', tile: renamed });
    }

    if (request.op === 'answer') {
      if (!target.answer) return reply({ v, id, ok: false, error: 'this belltower cannot answer requests' });
      const options = { ...(request.request !== undefined ? { request: request.request } : {}), ...(request.message !== undefined ? { message: request.message } : {}) };
      void target.answer(tile, request.answer, options).then(
        (outcome) => reply(outcome.ok ? { v, id, ok: true, answered: outcome.answered, tile: outcome.tile } : { v, id, ok: false, error: outcome.error, refused: outcome.refused }),
        (error: unknown) => reply({ v, id, ok: false, error: `could not answer: ${(error as Error).message}` }),
      );
      return;
    }
    if (request.op === 'send') {
      const error = target.send(tile, request.text, request.enter);
      return reply(error ? { v, id, ok: false, error } : { v, id, ok: true, sent: true });
    }

    // wait: already there counts as reached; otherwise the next change that gets there.
    if (reaches(tile, request.for)) return reply({ v, id, ok: true, reached: tile });
    const goal = request.for;
    const becoming = goal === 'finished' ? 'its command or turn finished' : `becoming ${goal}`;
    // An exited tile will never get there: say so now rather than at the timeout.
    const gone = (info: TileInfo): ControlReply => ({ v, id, ok: false, error: `tile ${info.id} (${info.name}) exited (${info.reason}) before ${becoming}` });
    const ended = (info: TileInfo) => info.state === 'exited' || info.exit !== undefined;
    if (ended(tile) && goal !== 'any') return reply(gone(tile));
    if (waits.open >= MAX_WAITS_PER_CONNECTION) {
      return reply({ v, id, ok: false, error: `too many waits on one connection (at most ${MAX_WAITS_PER_CONNECTION})` });
    }
    waits.open++;
    let settled = false;
    const finish = (message: ControlReply) => {
      if (settled) return;
      settled = true;
      waits.open--;
      clearTimeout(timer);
      unsubscribe();
      socket.off('close', cancel);
      this.waits.delete(cancel);
      reply(message);
    };
    const cancel = () => finish({ v, id, ok: false, error: 'belltower is shutting down' });
    const unsubscribe = target.onChange((changed: TileInfo) => {
      if (changed.id !== tile.id) return;
      if (goal === 'any' || reaches(changed, goal)) finish({ v, id, ok: true, reached: changed });
      else if (ended(changed)) finish(gone(changed));
    });
    // The timeout in the user's own words (`20s`, not 20000 ms).
    const after = request.timeoutText ?? formatDuration(request.timeoutMs);
    const missed = goal === 'finished' ? 'did not finish its command or turn' : `did not become ${goal}`;
    const timer = setTimeout(() => finish({ v, id, ok: false, timeout: true, error: `tile ${tile.id} (${tile.name}) ${missed}: timed out after ${after}` }), request.timeoutMs);
    socket.once('close', cancel);
    this.waits.add(cancel);
  }
}

export { isAlive } from '../platform/private-socket.js';
