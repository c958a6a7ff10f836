/**
 * What the fake model APIs for Codex (fake-openai.ts) and Gemini CLI (fake-gemini.ts) share: a
 * real HTTP server on 127.0.0.1 that records every request, a per-test script (a queue of replies
 * or a function), and waiting on a request. The wire formats live in the two fakes.
 *
 * (fake-anthropic.ts predates this file and keeps its own copy of the same plumbing.)
 */
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
      return resolve(step, ctx);
    }
    this.exhausted += 1;
    return resolve(this.fallback, ctx);
  }
}

function resolve<Ctx, Reply>(source: Reply | ((ctx: Ctx) => Reply | Promise<Reply>), ctx: Ctx): Reply | Promise<Reply> {
  return typeof source === 'function' ? (source as (ctx: Ctx) => Reply | Promise<Reply>)(ctx) : source;
}

export type Handler<Kind extends string> = (
  entry: RecordedRequest<Kind>,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  core: FakeServerCore<Kind>,
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
  port?: number;
  /** Debug log sink; also enabled by BELLTOWER_FAKE_API_DEBUG=1. */
  log?: (line: string) => void;
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
      handle(entry, req, res, core).catch((err: unknown) => {
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

export const sleep = (ms: number): Promise<void> => new Promise((ok) => setTimeout(ok, ms));

/** `s` cut into pieces of `size` characters (one piece when size is unset or s is short). */
export function chunks(s: string, size: number | undefined): string[] {
  if (!size || size <= 0 || s.length <= size) return [s];
  const out: string[] = [];
  for (let i = 0; i < s.length; i += size) out.push(s.slice(i, i + size));
  return out;
}

/** Waits until the response closes (a reply that never comes). */
export function hangUntilClosed(res: http.ServerResponse, core: FakeServerCore<string>): Promise<void> {
  core.track(res);
  return new Promise((ok) => res.on('close', () => ok()));
}
