/**
 * The control server's own bounds: a client that stops reading, or never says anything, cannot
 * hold belltower's memory (60k unread replies held 110 MB; idle clients were never dropped).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ControlServer } from '../../src/control/control-server.js';
import type { ControlTarget } from '../../src/control/control-target.js';
import type { TileInfo } from '../../src/control/protocol.js';

const tile: TileInfo = { id: 1, name: 'agent', agent: 'shell', state: 'working', source: 'psp', confidence: 'first-party', reason: 'r'.repeat(200), sinceMs: 0 };
const target: ControlTarget = {
  tileInfos: () => [tile],
  send: () => null,
  why: () => [],
  onChange: () => () => {},
};

describe.skipIf(process.platform === 'win32')('control server bounds', () => {
  let dir = '';
  let server: ControlServer;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bt-control-'));
  });
  afterEach(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function connect(): Promise<Socket> {
    return new Promise((resolve, reject) => {
      const socket = createConnection(join(dir, 'control', 's.sock'));
      socket.once('connect', () => resolve(socket));
      socket.once('error', reject);
    });
  }
  const closed = (socket: Socket) => new Promise<void>((resolve) => (socket.destroyed ? resolve() : socket.once('close', () => resolve())));

  it('drops a client that sends requests but never reads the replies', async () => {
    server = await ControlServer.listen(join(dir, 'control', 's.sock'), target, { maxBufferedBytes: 256 * 1024 });
    const socket = await connect();
    socket.pause(); // never read
    socket.on('error', () => {});
    const line = `${JSON.stringify({ v: 1, id: 1, op: 'ls' })}\n`;
    // 60,000 requests: each reply is ~330 bytes, ~20 MB if all were kept.
    for (let i = 0; i < 60; i++) socket.write(line.repeat(1_000));
    await closed(socket);
    expect(socket.destroyed).toBe(true);
  });

  it('drops a client that stays idle, but not one waiting for a tile', async () => {
    server = await ControlServer.listen(join(dir, 'control', 's.sock'), target, { idleMs: 200 });
    const idle = await connect();
    const waiting = await connect();
    let waitReply = '';
    waiting.setEncoding('utf8').on('data', (chunk: string) => (waitReply += chunk));
    waiting.write(`${JSON.stringify({ v: 1, id: 7, op: 'wait', tile: '1', for: 'done', timeoutMs: 1_500 })}\n`);
    await closed(idle);
    expect(waiting.destroyed).toBe(false);
    // The wait runs to its own timeout, is answered, and only then does the idle rule apply.
    await closed(waiting);
    expect(waitReply).toMatch(/"id":7,"ok":false,"timeout":true/);
  });

  it('refuses more waits on one connection than it keeps', async () => {
    server = await ControlServer.listen(join(dir, 'control', 's.sock'), target);
    const socket = await connect();
    let replies = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (replies += chunk));
    const wait = (id: number) => `${JSON.stringify({ v: 1, id, op: 'wait', tile: '1', for: 'done', timeoutMs: 60_000 })}\n`;
    socket.write(Array.from({ length: 40 }, (_, i) => wait(i + 1)).join(''));
    const deadline = Date.now() + 5_000;
    while (!replies.includes('"id":40') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(replies).toMatch(/"id":40,"ok":false,"error":"too many waits on one connection \(at most 16\)"/);
    expect(replies).not.toMatch(/"id":16,/);
    socket.destroy();
  });
});
