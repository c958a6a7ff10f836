/**
 * What the fake model APIs for Claude Code (fake-anthropic.ts), Codex (fake-openai.ts) and Gemini
 * CLI (fake-gemini.ts) share: a real HTTP server on 127.0.0.1 that records every request, a
 * per-test script (a queue of replies or a function), retries answered with the previous reply,
 * and waiting on a request. The wire formats live in the fakes.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest<Kind extends string = string> {
  /** Milliseconds since the server started. */
  t: number;
  /** Order of arrival, from 0. */
  seq: number;
  method: string;
  /** Path without the query string. */
  path: string;
  /** Path with the query string, as received. */
  url: string;
  headers: http.IncomingHttpHeaders;
  /** Parsed JSON body, or the raw text if it is not JSON (empty string when there is none). */
  body: unknown;
  kind: Kind;
  /** The reply sent, in a few words; filled when answered. */
  reply?: string;
}

/** A function consulted for every scripted request, or a queue consumed one reply per request. */
export type Script<Ctx, Reply> = ((ctx: Ctx) => Reply | Promise<Reply>) | Array<Reply | ((ctx: Ctx) => Reply | Promise<Reply>)>;

/** A script and its position in the queue. */
export class ScriptRunner<Ctx, Reply> {
  private index = 0;
  /** How many requests found the queue empty (and got the fallback). */
  exhausted = 0;

  constructor(
    private script: Script<Ctx, Reply>,
    private readonly fallback: Reply | ((ctx: Ctx) => Reply | Promise<Reply>),
  ) {}

  /** Replace the script; the queue restarts. */
  set(next: Script<Ctx, Reply>): void {
    this.script = next;
    this.index = 0;
  }

  async next(ctx: Ctx): Promise<Reply> {
    if (typeof this.script === 'function') return this.script(ctx);
    const step = this.script[this.index];
    if (step !== undefined) {
      this.index += 1;
      return resolveReply(step, ctx);
    }
    this.exhausted += 1;
    return resolveReply(this.fallback, ctx);
  }
}

/** `source` itself, or what it returns for `ctx` when it is a function. */
export function resolveReply<Ctx, Reply>(source: Reply | ((ctx: Ctx) => Reply | Promise<Reply>), ctx: Ctx): Reply | Promise<Reply> {
  return typeof source === 'function' ? (source as (ctx: Ctx) => Reply | Promise<Reply>)(ctx) : source;
}

/**
 * The script for main requests, for a fake whose main requests carry the whole conversation: a
 * request that repeats the previous one (same `key`) is a retry and gets the same reply again
 * without consuming the script.
 */
export class MainScript<Ctx, Reply> extends ScriptRunner<Ctx, Reply> {
  private previous: { key: string; reply: Reply; seq: number } | undefined;
  private turns = 0;

  constructor(
    script: Script<Ctx, Reply>,
    fallback: Reply | ((ctx: Ctx) => Reply | Promise<Reply>),
    /** The reply when the script throws. */
    private readonly onThrow: (err: unknown) => Reply,
  ) {
    super(script, fallback);
  }

  /**
   * Marks `entry` a retry (`retryOf`) when `key` repeats the previous request's, records it, and
   * returns its reply: the previous one for a retry, else the script's next for `ctx(turn)`.
   */
  async answer<Kind extends string>(
    entry: RecordedRequest<Kind> & { retryOf?: number },
    key: string,
    core: FakeServerCore<Kind>,
    ctx: (turn: number) => Ctx,
  ): Promise<Reply> {
    const previous = this.previous;
    if (previous?.key === key) entry.retryOf = previous.seq;
    core.record(entry);
    let reply: Reply;
    try {
      reply = previous !== undefined && entry.retryOf !== undefined ? previous.reply : await this.next(ctx(this.turns++));
    } catch (err) {
      reply = this.onThrow(err);
    }
    this.previous = { key, reply, seq: entry.retryOf ?? entry.seq };
    return reply;
  }
}

export type Handler<Kind extends string> = (
  entry: RecordedRequest<Kind>,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  core: FakeServerCore<Kind>,
  /** The body as received. */
  raw: string,
) => Promise<void>;

export interface FakeServerCore<Kind extends string> {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  readonly port: number;
  /** `Date.now()` when the server started: `RecordedRequest.t` counts from here. */
  readonly startedAt: number;
  /** Every request, in arrival order. */
  readonly requests: RecordedRequest<Kind>[];
  /** True once close() was called: streams should stop. */
  readonly closed: boolean;
  /** Adds a classified request to `requests` and wakes the waiters it satisfies. */
  record(entry: RecordedRequest<Kind>): void;
  /** A streaming response to destroy on close(); it is forgotten when it closes. */
  track(res: http.ServerResponse): void;
  /** Resolves with the first recorded request (past or future) matching `pred`. */
  waitForRequest(pred: (r: RecordedRequest<Kind>) => boolean, timeoutMs?: number): Promise<RecordedRequest<Kind>>;
  log?: ((line: string) => void) | undefined;
  close(): Promise<void>;
}

export interface FakeServerOptions {
  port?: number | undefined;
  /** Debug log sink; also enabled by BELLTOWER_FAKE_API_DEBUG=1. */
  log?: ((line: string) => void) | undefined;
  /** Name in error messages and log lines, e.g. "fake-openai". */
  name: string;
}

/**
 * Starts the server. `handle` gets every request with its body read and parsed, as an entry of
 * kind `initialKind` that it reclassifies and then records with `core.record`.
 */
export async function startFakeServer<Kind extends string>(
  options: FakeServerOptions,
  initialKind: Kind,
  handle: Handler<Kind>,
): Promise<FakeServerCore<Kind>> {
  const startedAt = Date.now();
  const log = options.log ?? (process.env.BELLTOWER_FAKE_API_DEBUG === '1' ? (line: string): void => console.error(line) : undefined);
  const requests: RecordedRequest<Kind>[] = [];
  const waiters: Array<{ pred: (r: RecordedRequest<Kind>) => boolean; resolve: (r: RecordedRequest<Kind>) => void }> = [];
  const open = new Set<http.ServerResponse>();
  let closed = false;

  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(parts).toString('utf8');
      let body: unknown = raw;
      try {
        body = raw.length > 0 ? JSON.parse(raw) : '';
      } catch {
        body = raw;
      }
      const url = req.url ?? '/';
      const entry: RecordedRequest<Kind> = {
        t: Date.now() - startedAt,
        seq: requests.length,
        method: req.method ?? 'GET',
        path: url.split('?')[0] ?? '/',
        url,
        headers: req.headers,
        body,
        kind: initialKind,
      };
      handle(entry, req, res, core, raw).catch((err: unknown) => {
        log?.(`[${options.name}] handler failed: ${String(err)}`);
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end();
      });
    });
  });
  server.keepAliveTimeout = 60_000;

  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', fail);
      ok();
    });
  });
  const port = (server.address() as AddressInfo).port;

  const core: FakeServerCore<Kind> = {
    origin: `http://127.0.0.1:${port}`,
    port,
    startedAt,
    requests,
    get closed() {
      return closed;
    },
    log,
    record(entry) {
      requests.push(entry);
      for (let i = waiters.length - 1; i >= 0; i--) {
        const w = waiters[i];
        if (w && w.pred(entry)) {
          waiters.splice(i, 1);
          w.resolve(entry);
        }
      }
    },
    track(res) {
      open.add(res);
      res.on('close', () => open.delete(res));
    },
    waitForRequest(pred, timeoutMs = 10_000) {
      const found = requests.find(pred);
      if (found) return Promise.resolve(found);
      return new Promise((ok, fail) => {
        const waiter = {
          pred,
          resolve: (r: RecordedRequest<Kind>) => {
            clearTimeout(timer);
            ok(r);
          },
        };
        const timer = setTimeout(() => {
          const i = waiters.indexOf(waiter);
          if (i >= 0) waiters.splice(i, 1);
          fail(new Error(`${options.name}: no matching request within ${timeoutMs} ms (${requests.length} received)`));
        }, timeoutMs);
        waiters.push(waiter);
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const res of open) res.destroy();
      open.clear();
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  };
  return core;
}

/** The part of the fake APIs' interface that does not depend on the wire format. */
export interface FakeApi<Entry, Ctx, Reply> {
  readonly port: number;
  /** `Date.now()` when the server started: `RecordedRequest.t` counts from here. */
  readonly startedAt: number;
  /** Every request, in arrival order. */
  readonly requests: Entry[];
  /** Requests to paths the fake does not know. */
  readonly unknownRequests: Entry[];
  /** How many main requests found the script empty. */
  readonly exhausted: number;
  /** Replace the main script (the queue restarts). */
  setScript(script: Script<Ctx, Reply>): void;
  /** Main requests only (retries included; they carry `retryOf`). */
  mainRequests(): Entry[];
  /** Resolves with the first recorded request (past or future) matching `pred`. */
  waitForRequest(pred: (r: Entry) => boolean, timeoutMs?: number): Promise<Entry>;
  close(): Promise<void>;
}

/**
 * The FakeApi over a started server, its main script and its list of unknown requests, with the
 * fake's own members (`own`, getters kept as getters).
 */
export function fakeApi<Kind extends string, Entry extends RecordedRequest<Kind>, Ctx, Reply, Own extends object>(
  core: FakeServerCore<Kind>,
  script: ScriptRunner<Ctx, Reply>,
  unknownRequests: Entry[],
  own: Own,
): FakeApi<Entry, Ctx, Reply> & Own {
  // Every entry the server records is an Entry: the fake's handler fills the extra fields.
  const requests = core.requests as Entry[];
  const api: FakeApi<Entry, Ctx, Reply> = {
    port: core.port,
    startedAt: core.startedAt,
    requests,
    unknownRequests,
    get exhausted() {
      return script.exhausted;
    },
    setScript: (next) => script.set(next),
    mainRequests: () => requests.filter((r) => r.kind === 'main'),
    waitForRequest: (pred, timeoutMs) => core.waitForRequest(pred as (r: RecordedRequest<Kind>) => boolean, timeoutMs) as Promise<Entry>,
    close: () => core.close(),
  };
  return Object.defineProperties(api, Object.getOwnPropertyDescriptors(own)) as FakeApi<Entry, Ctx, Reply> & Own;
}

/** Never answers; the connection is dropped when the client goes away or the server closes. */
export interface HangReply {
  type: 'hang';
}

/** A reply that never comes (for interrupt tests). */
export function hang(): HangReply {
  return { type: 'hang' };
}

/** `length` random characters of `alphabet` (ids shaped like the real API's). */
export function randomId(alphabet: string, length: number): string {
  let out = '';
  for (const byte of randomBytes(length)) out += alphabet[byte % alphabet.length];
  return out;
}

export const sleep = (ms: number): Promise<void> => new Promise((ok) => setTimeout(ok, ms));

/** `s` cut into pieces of `size` characters (one piece when size is unset or s is short). */
export function chunks(s: string, size: number | undefined): string[] {
  if (!size || size <= 0 || s.length <= size) return [s];
  const out: string[] = [];
  for (let i = 0; i < s.length; i += size) out.push(s.slice(i, i + size));
  return out;
}

/**
 * How a streamed reply is paced: `size` characters a piece (8 when it is delayed, else whole
 * unless `chunkSize` says), and `pause`, awaited before each piece: it waits `delayMs` and says
 * whether to go on (false once the client left or the server closed).
 */
export function pacing(
  reply: { delayMs?: number; chunkSize?: number },
  res: http.ServerResponse,
  core: FakeServerCore<string>,
): { delay: number; size: number | undefined; pause: () => Promise<boolean> } {
  const delay = reply.delayMs ?? 0;
  const size = reply.chunkSize ?? (delay > 0 ? 8 : undefined);
  const pause = async (): Promise<boolean> => {
    if (delay > 0) await sleep(delay);
    return !(res.destroyed || core.closed);
  };
  return { delay, size, pause };
}

/** Waits until the response closes (a reply that never comes). */
export function hangUntilClosed(res: http.ServerResponse, core: FakeServerCore<string>): Promise<void> {
  core.track(res);
  return new Promise((ok) => res.on('close', () => ok()));
}
