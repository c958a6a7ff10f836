/**
 * The server's keys socket (`<session>.sock.keys`, read by its keyboard thread), over real sockets
 * with the built worker: private as the attach socket is and gone with the server; a connection
 * that names its client with the token of that client's welcome carries its keys, and plain typing
 * for the tile the client's grid names goes to that tile's pty (a real one) from the thread; a
 * token nobody was given, or given once and used, carries nothing; a keys connection that breaks
 * the protocol costs its client the session, and no one else anything.
 */
import { chmodSync, existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pty from 'node-pty';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AttachServer, attachSocketPath } from '../../src/server/attach-server.js';
import type { ClientLink } from '../../src/server/client-link.js';
import { keysSocketPath } from '../../src/wire/attach-socket-path.js';
import { encode, WIRE_VERSION, WireDecoder } from '../../src/wire/wire-protocol.js';
import type { ServerMessage } from '../../src/wire/wire-protocol.js';
import { isRoot, NOT_ROOT_REASON, runAsOtherUser } from '../support/other-user.js';

let root: string;
let server: AttachServer | null = null;
const logged: string[] = [];
const attached: ClientLink[] = [];
const cleanups: (() => void)[] = [];

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'belltower-keys-'));
  logged.length = 0;
  attached.length = 0;
  server = await AttachServer.listen(attachSocketPath(join(root, 'run'), 'proj'), {
    session: 'proj',
    version: '9.9.9',
    logger: (_level, message) => logged.push(message),
    attached: (link) => attached.push(link),
    detached: () => undefined,
  });
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) cleanup();
  await server?.close('killed', 143);
  server = null;
  rmSync(root, { recursive: true, force: true });
});

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function connect(path: string): Promise<{ socket: Socket; closed: Promise<void>; messages: ServerMessage[] }> {
  const socket = createConnection(path);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('error', reject);
  });
  socket.on('error', () => undefined);
  const decoder = new WireDecoder('server');
  const messages: ServerMessage[] = [];
  socket.on('data', (chunk: Buffer) => messages.push(...(decoder.push(chunk) as ServerMessage[])));
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  cleanups.push(() => socket.destroy());
  return { socket, closed, messages };
}

/** A client attached on the attach socket: its link, and the token its welcome gave. */
async function attach(): Promise<{ link: ClientLink; token: string; door: Awaited<ReturnType<typeof connect>> }> {
  const door = await connect(server!.path);
  const before = attached.length;
  door.socket.write(encode({ type: 'hello', wire: WIRE_VERSION, version: 'client', cols: 80, rows: 24, env: {}, options: {} }));
  await until(() => attached.length > before && door.messages.length > 0, 'the welcome');
  const welcome = door.messages[0]!;
  if (welcome.type !== 'welcome' || !welcome.keys) throw new Error(`no keys token in ${JSON.stringify(welcome)}`);
  return { link: attached.at(-1)!, token: welcome.keys, door };
}

function typedInto(link: ClientLink): { data: string; direct: unknown }[] {
  const typed: { data: string; direct: unknown }[] = [];
  link.onInput((data, direct) => typed.push({ data, direct: direct ?? null }));
  return typed;
}

describe('the keys socket', () => {
  it('is a 0600 socket beside the attach socket, and goes with the server', async () => {
    const keys = keysSocketPath(server!.path);
    expect(statSync(keys).isSocket()).toBe(true);
    expect(statSync(keys).mode & 0o777).toBe(0o600);
    expect(keys.startsWith(join(root, 'run', 'attach'))).toBe(true);
    await server!.close('killed', 143);
    server = null;
    expect(existsSync(keys)).toBe(false);
  });

  it.skipIf(!isRoot)(`refuses another local user before a byte is read (${isRoot ? 'run as a second user' : NOT_ROOT_REASON})`, async () => {
    chmodSync(root, 0o755);
    chmodSync(join(root, 'run'), 0o755);
    const other = runAsOtherUser(
      `const s = require('node:net').createConnection(process.argv[1]);
       s.on('connect', () => { console.log('connected'); s.destroy(); });
       s.on('error', (e) => console.log(e.code));`,
      [keysSocketPath(server!.path)],
    );
    let said = '';
    other.stdout?.on('data', (chunk: Buffer) => (said += chunk.toString()));
    await new Promise((resolve) => other.on('exit', resolve));
    expect(said.trim()).toBe('EACCES');
  });

  it("carries a client's keys once it names the client with its welcome's token", async () => {
    const { link, token } = await attach();
    const typed = typedInto(link);
    const keys = await connect(keysSocketPath(server!.path));
    keys.socket.write(Buffer.concat([encode({ type: 'keys', token }), encode({ type: 'input', data: 'é1' }), encode({ type: 'input', data: '\x1b[A' })]));
    await until(() => typed.length === 2, 'the keys');
    expect(typed).toEqual([
      { data: 'é1', direct: null },
      { data: '\x1b[A', direct: null },
    ]);
  });

  it('carries nothing for a token nobody was given, or one already in use', async () => {
    const { link, token } = await attach();
    const typed = typedInto(link);
    const stranger = await connect(keysSocketPath(server!.path));
    stranger.socket.write(Buffer.concat([encode({ type: 'keys', token: 'f'.repeat(32) }), encode({ type: 'input', data: 'rm -rf ~\r' })]));
    await stranger.closed;
    const first = await connect(keysSocketPath(server!.path));
    first.socket.write(encode({ type: 'keys', token }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const second = await connect(keysSocketPath(server!.path));
    second.socket.write(Buffer.concat([encode({ type: 'keys', token }), encode({ type: 'input', data: 'stolen' })]));
    await second.closed;
    first.socket.write(encode({ type: 'input', data: 'mine' }));
    await until(() => typed.length === 1, 'the first connection to be heard');
    expect(typed).toEqual([{ data: 'mine', direct: null }]);
  });

  it('lets a client go whose keys connection breaks the protocol; the other client goes on', async () => {
    const good = await attach();
    const typed = typedInto(good.link);
    const bad = await attach();
    const keys = await connect(keysSocketPath(server!.path));
    keys.socket.write(Buffer.concat([encode({ type: 'keys', token: bad.token }), encode({ type: 'resize', cols: 10, rows: 10 })]));
    await keys.closed;
    await bad.door.closed;
    expect(bad.door.messages.at(-1)).toMatchObject({ type: 'exit', reason: 'ended', status: 1 });
    expect(logged.some((line) => line.startsWith('attach: a client dropped: its keys connection'))).toBe(true);
    const goodKeys = await connect(keysSocketPath(server!.path));
    goodKeys.socket.write(Buffer.concat([encode({ type: 'keys', token: good.token }), encode({ type: 'input', data: 'still here' })]));
    await until(() => typed.length === 1, 'the good client');
    expect(typed[0]!.data).toBe('still here');
  });

  it("writes plain typing to the tile the client's grid names, from the keyboard thread", async () => {
    const program = join(root, 'tile.mjs');
    writeFileSync(program, `process.stdin.setRawMode(true); process.stdout.write('ready\\n'); process.stdin.on('data', (d) => process.stdout.write('read ' + JSON.stringify(d.toString()) + '\\n'));`);
    const tile = pty.spawn(process.execPath, [program], { cols: 80, rows: 24 });
    cleanups.push(() => tile.kill('SIGKILL'));
    let shown = '';
    tile.onData((text) => (shown += text));
    await until(() => shown.includes('ready'), 'the tile');

    const { link, token } = await attach();
    const typed = typedInto(link);
    const keys = await connect(keysSocketPath(server!.path));
    keys.socket.write(encode({ type: 'keys', token }));
    // A tile named before the client's keys come this way is named to nobody.
    expect(link.keysThreaded).toBe(false);
    await until(() => link.keysThreaded, 'the keys connection');
    link.directKeys({ tileId: 3, fd: (tile as unknown as { fd: number }).fd, escapeKey: 'ctrl-\\' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    keys.socket.write(encode({ type: 'input', data: 'abc' }));
    await until(() => shown.includes('read "abc"'), 'the tile to read the keys');
    await until(() => typed.length === 1, 'the main thread to hear them');
    expect(typed).toEqual([{ data: 'abc', direct: { tileId: 3, chars: 3 } }]);
  });
});
