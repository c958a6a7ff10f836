import net from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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
    server = await HookServer.start({ requestTimeoutMs: 400 });
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

  it('refuses a 1 MB body with 413 without delivering it', async () => {
    const big = JSON.stringify({ hook_event_name: 'Stop', pad: 'x'.repeat(1024 * 1024) });
    expect((await post(tile.url, big, bearer(tile.token))).status).toBe(413);
    // Chunked (no Content-Length): refused as the cap is crossed.
    expect((await post(tile.url, big, { ...bearer(tile.token), 'Transfer-Encoding': 'chunked' })).status).toBe(413);
    expect(delivered).toHaveLength(0);
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

  it('closes a client that stalls mid-body after the timeout, while serving others meanwhile', async () => {
    const socket = net.connect({ host: '127.0.0.1', port: server.port });
    await new Promise((resolve) => socket.once('connect', resolve));
    const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now())));
    socket.on('error', () => {});
    const started = Date.now();
    socket.write(
      `POST /hook/tile-1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${tile.token}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"hook_event_name":`,
    );
    // While it stalls, another request is served at once.
    const reply = await post(tile.url, JSON.stringify(stop), bearer(tile.token));
    expect(reply.status).toBe(200);
    const closedAt = await closed;
    expect(closedAt - started).toBeGreaterThanOrEqual(350);
    expect(closedAt - started).toBeLessThan(3_000);
    await waitFor(() => delivered.length === 1);
    expect(delivered.map((d) => d.event)).toEqual(['Stop']);
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
