/**
 * The hook server: one HTTP server inside the belltower process, on 127.0.0.1 only, shared by
 * every tile. Each tile registers under its key and gets its own bearer token; the agent's HTTP
 * hooks (and the command relay) POST their JSON payloads to `/hook/<tileKey>`.
 *
 * Every accepted call is answered at once with `{}` so the agent never waits on us (Claude blocks
 * its loop on a hook until it answers), and only then handed to the tile's listener.
 *
 * Status codes: 401 unknown session or no bearer token, 403 wrong token, 404 other paths,
 * 405 not POST, 413 body over the cap, 400 malformed JSON / not an object / no event name.
 * Nothing that fails authentication is read past its headers, or delivered.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { silentLogger, type Logger } from '../../platform/logger.js';
import { readLimitedBody } from './read-body.js';
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
  /** Bodies larger than this are refused with 413. Default 64 KB. */
  maxBodyBytes?: number;
  /** A request (headers and body) must arrive within this long. Default 3 s. */
  requestTimeoutMs?: number;
}

export const DEFAULT_MAX_BODY_BYTES = 64 * 1024;
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

  private constructor(
    private readonly server: http.Server,
    readonly port: number,
    options: HookServerOptions,
  ) {
    this.logger = options.logger ?? silentLogger;
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.timeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    server.on('request', (req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        this.logger('error', 'hook server: request handling failed', { error: String(error) });
        if (!res.headersSent) reply(res, 500, { error: 'internal error' });
      });
    });
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

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const match = HOOK_PATH.exec(url.pathname);
    if (!match?.[1]) return reply(res, 404, { error: 'not found: hooks post to /hook/<tileKey>' });
    if (req.method !== 'POST') return reply(res, 405, { error: 'hooks must POST' }, { Allow: 'POST' });

    const tileKey = match[1];
    const session = this.sessions.get(tileKey);
    const presented = bearerOf(req.headers.authorization);
    if (!session || presented === undefined) return reply(res, 401, { error: 'unauthorized' });
    if (!tokenMatches(session.token, presented)) return reply(res, 403, { error: 'forbidden' });

    const result = await readLimitedBody(req, this.maxBodyBytes, this.timeoutMs);
    if (!result.ok) {
      if (result.reason === 'too-large') {
        return reply(res, 413, { error: `hook body over ${this.maxBodyBytes} bytes` });
      }
      this.logger('debug', `hook server: request ${result.reason}`, { tileKey });
      return; // the socket is gone: nobody to answer
    }

    const payload = parseObject(result.body);
    if (!payload) return reply(res, 400, { error: 'body must be a JSON object' });
    const event = eventOf(payload, url);
    if (!event) return reply(res, 400, { error: 'no hook_event_name in the body and no ?event= in the URL' });

    reply(res, 200, {});
    // Deliver after the answer is on its way, and only if the tile is still the one registered.
    setImmediate(() => {
      if (this.sessions.get(tileKey) !== session) return;
      try {
        session.listener(tileKey, event, payload);
      } catch (error) {
        this.logger('error', 'hook listener threw', { tileKey, event, error: String(error) });
      }
    });
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

function parseObject(body: Buffer): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(body.toString('utf8'));
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      return value as Record<string, unknown>;
    }
  } catch {
    // fall through: malformed
  }
  return undefined;
}

function reply(
  res: http.ServerResponse,
  status: number,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
    // A refused request may still have an unread body on the wire: do not reuse that connection.
    ...(status === 200 ? {} : { Connection: 'close' }),
    ...headers,
  });
  res.end(text);
}
