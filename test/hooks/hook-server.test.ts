import net from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claudeHookSignals } from '../../src/sources/hooks/claude-hooks.js';
import { HookServer, HookServerError, type HookRegistration } from '../../src/sources/hooks/hook-server.js';
import { waitFor } from '../transcript/wait-for.js';
import { bearer, post } from './http-client.js';

interface Delivered {
  tileKey: string;
  event: string;
  payload: Record<string, unknown>;
}

describe('HookServer on loopback', () => {
  let server: HookServer;
  let delivered: Delivered[];
  let tile: HookRegistration;
  const stop = { hook_event_name: 'Stop', session_id: 's1', background_tasks: [] };

  beforeEach(async () => {
    // A generous request timeout: on a loaded machine a stall between accepting a request and
    // reading it must not turn into a 408. The stalled-client test makes its own, shorter one.
    server = await HookServer.start({ requestTimeoutMs: 30_000 });
    delivered = [];
    tile = server.register('tile-1', (tileKey, event, payload) => delivered.push({ tileKey, event, payload }));
  });
  afterEach(async () => {
    await server.close();
  });

  it('binds 127.0.0.1 only and hands out a 32-byte token and the tile URL', () => {
    expect(tile.url).toBe(`http://127.0.0.1:${server.port}/hook/tile-1`);
    expect(tile.token).toMatch(/^[0-9a-f]{64}$/);
    const other = server.register('tile-2', () => {});
    expect(other.token).not.toBe(tile.token);
  });

  it('is not reachable on any other interface address', async () => {
    const ok = await new Promise<boolean>((resolve) => {
      // 127.0.0.2 is loopback too, but not the address we bound.
      const socket = net.connect({ host: '127.0.0.2', port: server.port });
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    expect(ok).toBe(false);
  });

  it('answers {} at once and then delivers the event with its payload', async () => {
    const reply = await post(tile.url, JSON.stringify(stop), bearer(tile.token));
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('application/json');
    expect(reply.body).toBe('{}');
    await waitFor(() => delivered.length === 1, { what: 'delivery' });
    expect(delivered[0]).toEqual({ tileKey: 'tile-1', event: 'Stop', payload: stop });
  });

  it('takes the event from ?event= when the payload has no hook_event_name', async () => {
    const reply = await post(`${tile.url}?event=notify`, JSON.stringify({ type: 'agent-turn-complete' }), bearer(tile.token));
    expect(reply.status).toBe(200);
    await waitFor(() => delivered.length === 1);
    expect(delivered[0]?.event).toBe('notify');
  });

  it('refuses a missing token (401), an unknown session (401) and a wrong token (403), recording nothing', async () => {
    expect((await post(tile.url, JSON.stringify(stop))).status).toBe(401);
    expect((await post(tile.url, JSON.stringify(stop), { Authorization: 'Basic abc' })).status).toBe(401);
    const unknown = tile.url.replace('tile-1', 'tile-9');
    expect((await post(unknown, JSON.stringify(stop), bearer(tile.token))).status).toBe(401);
    expect((await post(tile.url, JSON.stringify(stop), bearer('0'.repeat(64)))).status).toBe(403);
    expect((await post(tile.url, JSON.stringify(stop), bearer('short'))).status).toBe(403);
    // A later good call is the only thing delivered.
    expect((await post(tile.url, JSON.stringify(stop), bearer(tile.token))).status).toBe(200);
    await waitFor(() => delivered.length === 1);
    expect(delivered).toHaveLength(1);
  });

  it('stops accepting a tile once unregistered', async () => {
    server.unregister('tile-1');
    expect((await post(tile.url, JSON.stringify(stop), bearer(tile.token))).status).toBe(401);
  });

  it('refuses a body over the cap with 413 when its start names no event, without delivering it', async () => {
    const big = JSON.stringify({ pad: 'x'.repeat(2 * 1024 * 1024), hook_event_name: 'Stop' });
    expect((await post(tile.url, big, bearer(tile.token))).status).toBe(413);
    // Chunked (no Content-Length): refused as the cap is crossed.
    expect((await post(tile.url, big, { ...bearer(tile.token), 'Transfer-Encoding': 'chunked' })).status).toBe(413);
    expect(delivered).toHaveLength(0);
  });

  it('takes a Stop whose last message is above 64 KB whole (a long final answer kept its turn end from belltower)', async () => {
    const long = { ...stop, last_assistant_message: 'word '.repeat(40_000) };
    const reply = await post(tile.url, JSON.stringify(long), bearer(tile.token));
    expect(reply.status).toBe(200);
    await waitFor(() => delivered.length === 1);
    expect(delivered[0]?.payload.last_assistant_message).toBe(long.last_assistant_message);
  });

  it('never loses a Stop, however long: over the cap, the event is read from the start of the body', async () => {
    const huge = JSON.stringify({ session_id: 's1', hook_event_name: 'Stop', last_assistant_message: 'x'.repeat(3 * 1024 * 1024), background_tasks: [] });
    for (const headers of [bearer(tile.token), { ...bearer(tile.token), 'Transfer-Encoding': 'chunked' }]) {
      const reply = await post(tile.url, huge, headers);
      expect(reply.status).toBe(200);
    }
    await waitFor(() => delivered.length === 2);
    expect(delivered[0]).toEqual({ tileKey: 'tile-1', event: 'Stop', payload: { session_id: 's1', hook_event_name: 'Stop', belltower_truncated: true } });
    expect(claudeHookSignals('Stop', delivered[0]?.payload)).toMatchObject([{ type: 'turn-end', source: 'hook' }]);
  });

  it('refuses a body nested deeper than it reads with 400, instead of accepting it and losing it', async () => {
    const deep = `{"hook_event_name":"Stop","session_id":"s","x":${'['.repeat(5_000)}${']'.repeat(5_000)}}`;
    const reply = await post(tile.url, deep, bearer(tile.token));
    expect(reply.status).toBe(400);
    expect(reply.body).toMatch(/nested deeper than 64/);
    const fine = `{"hook_event_name":"Stop","session_id":"s","x":${'['.repeat(60)}${']'.repeat(60)}}`;
    expect((await post(tile.url, fine, bearer(tile.token))).status).toBe(200);
    await waitFor(() => delivered.length === 1);
    expect(delivered).toHaveLength(1);
  });

  it('answers a malformed request target with 400, not 500, and logs refusals at most once a minute', async () => {
    const logs: string[] = [];
    let now = 0;
    const logged = await HookServer.start({ logger: (level, message) => logs.push(`${level} ${message}`), now: () => now });
    try {
      const statuses = new Set<number>();
      for (let i = 0; i < 300; i++) statuses.add(await rawStatus(logged.port, `POST //[ HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n`));
      expect([...statuses]).toEqual([400]);
      expect(logs.filter((line) => line.startsWith('error'))).toEqual([]);
      expect(logs.length).toBeLessThanOrEqual(1);
      now += 61_000;
      await rawStatus(logged.port, `POST //[ HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n`);
      expect(logs.at(-1)).toMatch(/refused 300 requests without a valid token/);
    } finally {
      await logged.close();
    }
  });

  it('does not deliver a request pipelined after a refused one on the same connection (it could not be answered)', async () => {
    const valid = JSON.stringify(stop);
    const request = (token: string, body: string) =>
      `POST /hook/tile-1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    const answer = await rawExchange(server.port, request('0'.repeat(64), valid) + request(tile.token, valid));
    expect(answer.match(/^HTTP\/1\.1 \d+/gm)).toEqual(['HTTP/1.1 403']);
    // A later, separate request is delivered: it is the only one.
    expect((await post(tile.url, JSON.stringify({ ...stop, session_id: 'later' }), bearer(tile.token))).status).toBe(200);
    await waitFor(() => delivered.length >= 1);
    expect(delivered.map((d) => d.payload.session_id)).toEqual(['later']);
  });

  it('answers 400 for garbage, non-objects and a missing event name', async () => {
    for (const body of ['not json', '[1,2]', 'null', '"Stop"', '{"session_id":"s"}']) {
      expect((await post(tile.url, body, bearer(tile.token))).status, body).toBe(400);
    }
    expect(delivered).toHaveLength(0);
  });

  it('answers 404 off the hook path and 405 for other methods', async () => {
    expect((await post(`http://127.0.0.1:${server.port}/other`, '{}', bearer(tile.token))).status).toBe(404);
    expect((await post(tile.url, '', bearer(tile.token), 'GET')).status).toBe(405);
  });

  it('closes a client that stalls mid-body after the timeout, while serving others meanwhile', { timeout: 60_000 }, async () => {
    const timeoutMs = 2_000;
    const short = await HookServer.start({ requestTimeoutMs: timeoutMs });
    const reg = short.register('tile-1', (tileKey, event, payload) => delivered.push({ tileKey, event, payload }));
    // Taken before connecting: every timer of the server's starts after this, however loaded the
    // machine, so the close cannot look early.
    const started = Date.now();
    const socket = net.connect({ host: '127.0.0.1', port: short.port });
    try {
      await new Promise((resolve) => socket.once('connect', resolve));
      // A server that never closed a stalled client fails here; how soon after its timeout it closes
      // is not a claim a loaded machine could keep.
      let giveUp: NodeJS.Timeout | undefined;
      const closed = Promise.race([
        new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now()))),
        new Promise<never>((_, reject) => (giveUp = setTimeout(() => reject(new Error('the stalled client was never closed')), 30_000))),
      ]).finally(() => clearTimeout(giveUp));
      socket.on('error', () => {});
      // Read what the server says (Node's own 408, when its timer beats ours): unread, it would hold
      // back the end of the stream, and with it the 'close'.
      socket.resume();
      socket.write(
        `POST /hook/tile-1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${reg.token}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"hook_event_name":`,
      );
      // While it stalls, another request is served.
      const reply = await post(reg.url, JSON.stringify(stop), bearer(reg.token));
      expect(reply.status).toBe(200);
      const closedAt = await closed;
      expect(closedAt - started).toBeGreaterThanOrEqual(timeoutMs - 100); // not at once: after the timeout
      await waitFor(() => delivered.length === 1);
      expect(delivered.map((d) => d.event)).toEqual(['Stop']);
    } finally {
      socket.destroy();
      await short.close();
    }
  });

  it('keeps delivering when a listener throws, and logs it', async () => {
    const logs: string[] = [];
    const quiet = await HookServer.start({ logger: (_level, message) => logs.push(message) });
    try {
      const reg = quiet.register('t', () => {
        throw new Error('boom');
      });
      expect((await post(reg.url, JSON.stringify(stop), bearer(reg.token))).status).toBe(200);
      await waitFor(() => logs.includes('hook listener threw'));
    } finally {
      await quiet.close();
    }
  });

  it('refuses tile keys that are not URL- and shell-safe, and double registration', () => {
    expect(() => server.register('a/b', () => {})).toThrow(HookServerError);
    expect(() => server.register("it's", () => {})).toThrow(HookServerError);
    expect(() => server.register('tile-1', () => {})).toThrow(/already registered/);
  });
});

/** Sends raw bytes, returns the status code of the first answer (0 if none). */
async function rawStatus(port: number, bytes: string): Promise<number> {
  const text = await rawExchange(port, bytes);
  return Number(/^HTTP\/1\.1 (\d+)/.exec(text)?.[1] ?? 0);
}

/** Sends raw bytes on one connection; resolves with everything received once the server closes it. */
function rawExchange(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    let received = '';
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(bytes));
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('close', () => resolve(received));
    socket.on('error', reject);
  });
}
