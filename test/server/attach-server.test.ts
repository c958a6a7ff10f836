/**
 * The server's door for clients, over a real socket: a client of another protocol version gets
 * one line that says so; a peer that sends garbage, or too much, is dropped while the attached
 * client goes on; a client that stops reading has frames dropped and is redrawn whole when it
 * drains; the socket is the user's own.
 */
import { chmodSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createConnection } from 'node:net';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AttachServer, attachSocketPath } from '../../src/server/attach-server.js';
import type { ClientLink } from '../../src/server/client-link.js';
import { MAX_UNREAD_BYTES } from '../../src/server/client-link.js';
import { isRoot, NOT_ROOT_REASON, runAsOtherUser } from '../support/other-user.js';
import { encode, WIRE_VERSION, WireDecoder } from '../../src/wire/wire-protocol.js';
import type { ServerMessage } from '../../src/wire/wire-protocol.js';

let root: string;
let server: AttachServer | null = null;
const logged: string[] = [];
const attached: ClientLink[] = [];
const detached: ClientLink[] = [];

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'belltower-attach-'));
  logged.length = 0;
  attached.length = 0;
  detached.length = 0;
  server = await AttachServer.listen(attachSocketPath(join(root, 'run'), 'proj'), {
    session: 'proj',
    version: '9.9.9',
    logger: (_level, message) => logged.push(message),
    attached: (link) => attached.push(link),
    detached: (link) => detached.push(link),
  });
});

afterEach(async () => {
  await server?.close('killed', 143);
  server = null;
  rmSync(root, { recursive: true, force: true });
});

/** A raw peer on the socket, collecting what the server says. */
async function peer(): Promise<{ socket: Socket; messages: ServerMessage[]; closed: Promise<void> }> {
  const socket = createConnection(server!.path);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('error', reject);
  });
  const decoder = new WireDecoder('server');
  const messages: ServerMessage[] = [];
  socket.on('data', (chunk: Buffer) => messages.push(...(decoder.push(chunk) as ServerMessage[])));
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.on('error', () => undefined);
  return { socket, messages, closed };
}

function hello(wire = WIRE_VERSION) {
  return encode({ type: 'hello', wire, version: 'client-1.0', cols: 100, rows: 30, env: { TERM: 'xterm-256color' }, options: {} });
}

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('the attach server', () => {
  it('is a 0600 socket in a 0700 folder', () => {
    expect(statSync(server!.path).mode & 0o777).toBe(0o600);
    expect(statSync(join(root, 'run', 'attach')).mode & 0o777).toBe(0o700);
  });

  it.skipIf(!isRoot)(`refuses another local user before a byte is read (${isRoot ? 'run as a second user' : NOT_ROOT_REASON})`, async () => {
    // Only belltower's own folder stands in the way: everything above it is open to all.
    chmodSync(root, 0o755);
    chmodSync(join(root, 'run'), 0o755);
    const other = runAsOtherUser(
      `const s = require('node:net').createConnection(process.argv[1]);
       s.on('connect', () => { console.log('connected'); s.destroy(); });
       s.on('error', (e) => console.log(e.code));`,
      [server!.path],
    );
    let said = '';
    other.stdout?.on('data', (chunk: Buffer) => (said += chunk.toString()));
    await new Promise((resolve) => other.on('exit', resolve));
    expect(said.trim()).toBe('EACCES');
    expect(attached).toEqual([]);
  });

  it('welcomes a client of its protocol, passes its keys and size, and lets it detach', async () => {
    const client = await peer();
    client.socket.write(hello());
    await until(() => attached.length === 1, 'the client to attach');
    const link = attached[0]!;
    expect([link.cols, link.rows]).toEqual([100, 30]);
    expect(link.hello.env).toEqual({ TERM: 'xterm-256color' });
    // With a token for the keys socket (keys-socket.test.ts); this client keeps its keys here.
    expect(client.messages[0]).toEqual({ type: 'welcome', wire: WIRE_VERSION, version: '9.9.9', session: 'proj', keys: expect.stringMatching(/^[0-9a-f]{32}$/) });

    const typed: string[] = [];
    let redraws = 0;
    link.onInput((data) => typed.push(data));
    link.onResized(() => redraws++);
    client.socket.write(Buffer.concat([encode({ type: 'input', data: 'é1' }), encode({ type: 'resize', cols: 60, rows: 20 })]));
    await until(() => redraws === 1, 'the resize');
    expect(typed).toEqual(['é1']);
    expect([link.cols, link.rows]).toEqual([60, 20]);

    link.write('frame');
    client.socket.write(encode({ type: 'detach' }));
    await client.closed;
    expect(client.messages.slice(1)).toEqual([
      { type: 'output', data: Buffer.from('frame') },
      { type: 'exit', reason: 'detached', status: 0 },
    ]);
    await until(() => detached.length === 1, 'the server to see the client go');
  });

  it('refuses a client of another protocol version with one line naming both versions and what to do', async () => {
    const client = await peer();
    client.socket.write(hello(WIRE_VERSION + 1));
    await client.closed;
    expect(client.messages).toHaveLength(1);
    const [refused] = client.messages;
    expect(refused?.type).toBe('refused');
    const line = refused?.type === 'refused' ? refused.message : '';
    expect(line).not.toContain('\n');
    expect(line).toContain('client-1.0');
    expect(line).toContain('9.9.9');
    expect(line).toContain('belltower kill-session proj');
    expect(attached).toEqual([]);
  });

  it('drops a peer that sends garbage, or input before hello, or a flood, while an attached client goes on', async () => {
    const good = await peer();
    good.socket.write(hello());
    await until(() => attached.length === 1, 'the good client');
    const typed: string[] = [];
    attached[0]!.onInput((data) => typed.push(data));

    const garbage = await peer();
    garbage.socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    await garbage.closed;

    const early = await peer();
    early.socket.write(encode({ type: 'input', data: 'rm -rf ~\r' }));
    await early.closed;

    const huge = await peer();
    const head = Buffer.alloc(4);
    head.writeUInt32BE(100 * 1024 * 1024); // a frame of 100 MB announced
    huge.socket.write(head);
    await huge.closed;

    const flood = await peer();
    flood.socket.write(hello());
    await until(() => attached.length === 2, 'the flooding client to attach');
    flood.socket.write(Buffer.concat(Array.from({ length: 3000 }, () => encode({ type: 'input', data: 'x' }))));
    await flood.closed;

    expect(logged.filter((line) => line.startsWith('attach: a client dropped'))).toHaveLength(4);
    expect(good.socket.destroyed).toBe(false);
    good.socket.write(encode({ type: 'input', data: 'still here' }));
    await until(() => typed.includes('still here'), 'the good client to be heard');
  });

  it('drops frames to a client that stops reading, and redraws it whole once it drains', async () => {
    const slow = await peer();
    slow.socket.write(hello());
    await until(() => attached.length === 1, 'the client');
    const link = attached[0]!;
    let redraws = 0;
    link.onResized(() => redraws++);
    slow.socket.pause(); // a stalled ssh: the kernel buffers fill, then the server's
    const chunk = 'x'.repeat(64 * 1024);
    for (let i = 0; i < 200 && link.dropped === 0; i++) {
      link.write(chunk);
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(link.dropped).toBeGreaterThan(0);
    // The server never queued more than its bound (plus the frame that crossed it) for this client.
    for (let i = 0; i < 50; i++) link.write(chunk);
    expect(link.dropped).toBeGreaterThan(50);
    expect(redraws).toBe(0);
    slow.socket.resume();
    await until(() => redraws === 1, 'the redraw after the drain');
    const before = slow.messages.length;
    link.write('after');
    await until(() => slow.messages.length > before, 'a frame after the drain');
    expect(slow.messages.at(-1)).toEqual({ type: 'output', data: Buffer.from('after') });
    expect(MAX_UNREAD_BYTES).toBeGreaterThan(chunk.length);
  });

  it('a second server on the same socket is refused while the first runs', async () => {
    await expect(
      AttachServer.listen(server!.path, { session: 'proj', version: '9.9.9', logger: () => undefined, attached: () => undefined, detached: () => undefined }),
    ).rejects.toThrow(/already runs/);
  });
});
