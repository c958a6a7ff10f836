/**
 * The hook server: one HTTP server inside the belltower process, on 127.0.0.1 only, shared by
 * every tile. Each tile registers under its key and gets its own bearer token; the agent's HTTP
 * hooks (and the command relay) POST their JSON payloads to `/hook/<tileKey>`.
 *
 * Every accepted call is answered at once with `{}` so the agent never waits on us (Claude blocks
 * its loop on a hook until it answers), and only then handed to the tile's listener.
 *
 * Status codes: 401 unknown session or no bearer token, 403 wrong token, 404 other paths,
 * 405 not POST, 400 a malformed request target / malformed JSON / not an object / nested too deep /
 * no event name, 413 a body over the cap whose start names no event. Nothing that fails
 * authentication is read past its headers, or delivered; refusals are logged at most once a
 * minute (RefusalLog).
 *
 * A body over the cap (1 MB: a Stop carries the whole last answer) is not lost when its start
 * names the event: the event is delivered with its session id and `belltower_truncated: true`, so
 * a turn end is never dropped for being long. Requests on one connection are handled in order,
 * and none after a refusal is delivered: the refusal closes the connection, so it could never be
 * answered.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { silentLogger, type Logger } from '../../platform/logger.js';
import { readLimitedBody } from './read-body.js';
import { RefusalLog } from './refusal-log.js';
import { bearerOf, newToken, tokenMatches } from './token.js';

/** Receives every authenticated call: the tile, the event name, the JSON body as received. */
export type HookListener = (tileKey: string, event: string, payload: Record<string, unknown>) => void;

export interface HookRegistration {
  tileKey: string;
  token: string;
  /** `http://127.0.0.1:<port>/hook/<tileKey>` */
  url: string;
}

export interface HookServerOptions {
  logger?: Logger;
  /** Bodies larger than this are not read whole (see above). Default 1 MB. */
  maxBodyBytes?: number;
  /** A request (headers and body) must arrive within this long. Default 3 s. */
  requestTimeoutMs?: number;
  /** The clock of the refusal log. */
  now?: () => number;
}

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/** How much of a body over the cap is kept to find its event name. */
const HEAD_BYTES = 64 * 1024;
/** JSON nested deeper than this is refused: no hook payload is, and the recorder's
 * JSON.stringify overflowed its stack at ~5,000 levels, losing the call after answering 200. */
export const MAX_JSON_DEPTH = 64;
export const DEFAULT_REQUEST_TIMEOUT_MS = 3_000;

/** Tile keys travel in URL paths and shell scripts: keep them to a boring alphabet. */
const TILE_KEY = /^[A-Za-z0-9._-]{1,128}$/;
const HOOK_PATH = /^\/hook\/([^/]+)$/;

export class HookServerError extends Error {
  override name = 'HookServerError';
}

interface Session {
  token: string;
  listener: HookListener;
}

export class HookServer {
  private readonly sessions = new Map<string, Session>();
  private readonly logger: Logger;
  private readonly maxBodyBytes: number;
  private readonly timeoutMs: number;
  private readonly refusals: RefusalLog;
  /** Per connection: the handling of its latest request, resolving to whether it stays open. */
  private readonly inOrder = new WeakMap<object, Promise<boolean>>();

  private constructor(
    private readonly server: http.Server,
    readonly port: number,
    options: HookServerOptions,
  ) {
    this.logger = options.logger ?? silentLogger;
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.timeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.refusals = new RefusalLog(this.logger, options.now ?? Date.now);
    server.on('request', (req, res) => this.enqueue(req, res));
  }

  /** Handles the requests of one connection one after another; after a refusal, none. */
  private enqueue(req: http.IncomingMessage, res: http.ServerResponse): void {
    const previous = this.inOrder.get(req.socket) ?? Promise.resolve(true);
    const handled = previous.then(async (open) => {
      if (!open) return false; // the connection closes with the refusal before it: not delivered
      try {
        return await this.handle(req, res);
      } catch (error) {
        this.logger('error', 'hook server: request handling failed', { error: String(error) });
        if (!res.headersSent) reply(res, 500, { error: 'internal error' });
        return false;
      }
    });
    this.inOrder.set(req.socket, handled);
  }

  /** Binds 127.0.0.1 on a free port. Never any other interface: the tokens are the only lock. */
  static start(options: HookServerOptions = {}): Promise<HookServer> {
    const timeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    const server = http.createServer({
      // Node's own guards against a stalled client (headers phase included); our body reader has
      // the same deadline, so whichever notices first closes the socket.
      requestTimeout: timeoutMs,
      headersTimeout: timeoutMs,
      connectionsCheckingInterval: Math.max(50, Math.floor(timeoutMs / 4)),
    });
    server.maxHeadersCount = 64;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen({ host: '127.0.0.1', port: 0 }, () => {
        server.off('error', reject);
        const { port } = server.address() as AddressInfo;
        resolve(new HookServer(server, port, options));
      });
    });
  }

  /** Opens a session for a tile: a fresh token and the URL its hooks post to. */
  register(tileKey: string, listener: HookListener): HookRegistration {
    if (!TILE_KEY.test(tileKey)) {
      throw new HookServerError(`tile key ${JSON.stringify(tileKey)} must be 1-128 characters of A-Z a-z 0-9 . _ -`);
    }
    if (this.sessions.has(tileKey)) {
      throw new HookServerError(`tile key "${tileKey}" is already registered; unregister it first`);
    }
    const token = newToken();
    this.sessions.set(tileKey, { token, listener });
    return { tileKey, token, url: `http://127.0.0.1:${this.port}/hook/${tileKey}` };
  }

  /** Closes a session: its token stops working at once (401, as for a session never opened). */
  unregister(tileKey: string): void {
    this.sessions.delete(tileKey);
  }

  close(): Promise<void> {
    this.sessions.clear();
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  /** Answers one request; resolves to whether the connection stays open for the next. */
  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<boolean> {
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://127.0.0.1');
    } catch {
      this.refusals.refused('malformed request target');
      return reply(res, 400, { error: 'malformed request target' });
    }
    const match = HOOK_PATH.exec(url.pathname);
    if (!match?.[1]) {
      this.refusals.refused('not a hook path');
      return reply(res, 404, { error: 'not found: hooks post to /hook/<tileKey>' });
    }
    if (req.method !== 'POST') {
      this.refusals.refused('not POST');
      return reply(res, 405, { error: 'hooks must POST' }, { Allow: 'POST' });
    }

    const tileKey = match[1];
    const session = this.sessions.get(tileKey);
    const presented = bearerOf(req.headers.authorization);
    if (!session || presented === undefined) {
      this.refusals.refused('no token, or no such tile');
      return reply(res, 401, { error: 'unauthorized' });
    }
    if (!tokenMatches(session.token, presented)) {
      this.refusals.refused('wrong token');
      return reply(res, 403, { error: 'forbidden' });
    }

    const result = await readLimitedBody(req, this.maxBodyBytes, this.timeoutMs, HEAD_BYTES);
    if (!result.ok && result.reason !== 'too-large') {
      this.logger('debug', `hook server: request ${result.reason}`, { tileKey });
      return false; // the socket is gone: nobody to answer
    }
    let event: string | undefined;
    let payload: Record<string, unknown>;
    if (!result.ok) {
      const salvaged = salvage(result.head, url);
      if (!salvaged) return reply(res, 413, { error: `hook body over ${this.maxBodyBytes} bytes` });
      this.logger('info', `hook server: ${salvaged.event} body over ${this.maxBodyBytes} bytes: delivered without its body`, { tileKey });
      ({ event, payload } = salvaged);
    } else {
      const parsed = parseObject(result.body);
      if ('error' in parsed) return reply(res, 400, { error: parsed.error });
      payload = parsed.payload;
      event = eventOf(payload, url);
      if (!event) return reply(res, 400, { error: 'no hook_event_name in the body and no ?event= in the URL' });
    }

    // A salvaged body was not read to its end: the connection cannot carry another request.
    reply(res, 200, {}, result.ok ? {} : { Connection: 'close' });
    const name = event;
    // Deliver after the answer is on its way, and only if the tile is still the one registered.
    setImmediate(() => {
      if (this.sessions.get(tileKey) !== session) return;
      try {
        session.listener(tileKey, name, payload);
      } catch (error) {
        this.logger('error', 'hook listener threw', { tileKey, event: name, error: String(error) });
      }
    });
    return result.ok;
  }
}

/**
 * The event name: the agent's own `hook_event_name` when it sends one, else `?event=` — set by our
 * relay for callers that cannot add it (Codex notify passes a JSON without it).
 */
function eventOf(payload: Record<string, unknown>, url: URL): string | undefined {
  const named = payload.hook_event_name;
  if (typeof named === 'string' && named.length > 0) return named;
  return url.searchParams.get('event') || undefined;
}

function parseObject(body: Buffer): { payload: Record<string, unknown> } | { error: string } {
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch {
    return { error: 'body must be a JSON object' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { error: 'body must be a JSON object' };
  if (deeperThan(value, MAX_JSON_DEPTH)) return { error: `body is nested deeper than ${MAX_JSON_DEPTH} levels` };
  return { payload: value as Record<string, unknown> };
}

/** Whether `value` nests objects or arrays more than `limit` deep (iterative: no stack to overflow). */
function deeperThan(value: unknown, limit: number): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 1 }];
  for (let item = stack.pop(); item; item = stack.pop()) {
    if (typeof item.value !== 'object' || item.value === null) continue;
    if (item.depth > limit) return true;
    for (const child of Object.values(item.value)) stack.push({ value: child, depth: item.depth + 1 });
  }
  return false;
}

/** The event (and session id) named at the start of a body too long to read whole. Claude puts
 * both before the long fields; the relay's `?event=` names it otherwise. */
function salvage(head: Buffer, url: URL): { event: string; payload: Record<string, unknown> } | undefined {
  const text = head.toString('utf8');
  const event = /"hook_event_name"\s*:\s*"([A-Za-z0-9_-]{1,64})"/.exec(text)?.[1] ?? (url.searchParams.get('event') || undefined);
  if (!event) return undefined;
  const sessionId = /"session_id"\s*:\s*"([A-Za-z0-9_.:-]{1,256})"/.exec(text)?.[1] ?? '';
  return { event, payload: { session_id: sessionId, hook_event_name: event, belltower_truncated: true } };
}

/** Answers; returns whether the connection stays open (only a 200 keeps it). */
function reply(
  res: http.ServerResponse,
  status: number,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): boolean {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
    // A refused request may still have an unread body on the wire: do not reuse that connection.
    ...(status === 200 ? {} : { Connection: 'close' }),
    ...headers,
  });
  res.end(text);
  return status === 200 && headers.Connection !== 'close';
}
