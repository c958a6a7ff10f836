/**
 * The attach client (`belltower attach`, the real command in a real pty) against a real session
 * door (AttachServer): a terminal that takes no output never stops the keys — the client keeps
 * reading them and holds the server's frames back instead — and the terminal is put back after
 * the last frame, in order, before the line that says how to come back.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import type { Server, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pty from 'node-pty';
import type { IPty } from 'node-pty';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { packageVersion } from '../../src/cli/version.js';
import { RESTORE_SEQUENCE } from '../../src/platform/terminal-sequences.js';
import { AttachServer, attachSocketPath } from '../../src/server/attach-server.js';
import type { ClientLink } from '../../src/server/client-link.js';
import { listenPrivate } from '../../src/platform/private-socket.js';
import { keysSocketPath } from '../../src/wire/attach-socket-path.js';
import { encode, WIRE_VERSION, WireDecoder } from '../../src/wire/wire-protocol.js';
import type { ClientMessage } from '../../src/wire/wire-protocol.js';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'belltower.js');

let root: string;
let server: AttachServer | null = null;
let client: IPty | null = null;
const attached: ClientLink[] = [];

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'belltower-client-'));
  attached.length = 0;
  server = await AttachServer.listen(attachSocketPath(join(root, 'run'), 'proj'), {
    session: 'proj',
    version: packageVersion(),
    logger: () => undefined,
    attached: (link) => attached.push(link),
    detached: () => undefined,
  });
});

afterEach(async () => {
  client?.kill('SIGKILL');
  client = null;
  await server?.close('killed', 143);
  server = null;
  rmSync(root, { recursive: true, force: true });
});

async function until(check: () => boolean, what: string, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The line a shell prints after the client, with its exit status. */
const EXITED = /\[client exited (\d+)\]/;

/**
 * `belltower attach proj` in a pty of its own; what it shows, and how it ended. With `keepTerminal`
 * a shell runs the client, then prints its exit status and keeps the terminal open: when the only
 * process on a pty exits, what it wrote last can be lost to its reader (the pty's reads end with
 * EIO while a loaded machine has not read it all yet), so its last line is read before the exit.
 */
function startClient(keepTerminal = false): { shown: () => string; exit: Promise<number> } {
  let shown = '';
  const command = keepTerminal
    ? ['/bin/sh', ['-c', '"$@"; printf \'[client exited %d]\' "$?"; exec sleep 600', 'sh', process.execPath, BIN, 'attach', 'proj']]
    : [process.execPath, [BIN, 'attach', 'proj']];
  const started = pty.spawn(command[0] as string, command[1] as string[], {
    cols: 100,
    rows: 30,
    name: 'xterm-256color',
    env: { ...process.env, BELLTOWER_STATE_DIR: root, TERM: 'xterm-256color' } as Record<string, string>,
  });
  client = started;
  started.onData((data) => (shown += data));
  const exit = keepTerminal
    ? until(() => EXITED.test(shown), 'the client to exit').then(() => Number(EXITED.exec(shown)![1]))
    : new Promise<number>((resolve) => started.onExit(({ exitCode }) => resolve(exitCode)));
  return { shown: () => shown, exit };
}

/** A session door that welcomes with a keys token and records what comes on each connection. */
async function fakeDoor(path: string): Promise<{ server: Server; frames: ClientMessage[]; sockets: Socket[] }> {
  const frames: ClientMessage[] = [];
  const sockets: Socket[] = [];
  const server = createServer((socket) => {
    sockets.push(socket);
    const decoder = new WireDecoder('client');
    socket.on('error', () => undefined);
    socket.on('data', (chunk: Buffer) => {
      for (const message of decoder.push(chunk) as ClientMessage[]) {
        frames.push(message);
        if (message.type === 'hello') socket.write(encode({ type: 'welcome', wire: WIRE_VERSION, version: packageVersion(), session: 'proj', keys: 'a1b2' }));
      }
    });
  });
  await listenPrivate(server, path, () => 'busy');
  return { server, frames, sockets };
}

describe('the attach client', () => {
  it.each([
    ['the keys socket is not there', false],
    ['the keys connection closes after the token', true],
  ])('sends its keys up the attach socket when %s', async (_case, keysSocket) => {
    const path = server!.path;
    await server!.close('killed', 143);
    server = null;
    const door = await fakeDoor(path);
    const keysFrames: ClientMessage[] = [];
    let keys: Server | null = null;
    if (keysSocket) {
      keys = createServer((socket) => {
        const decoder = new WireDecoder('client');
        socket.on('error', () => undefined);
        socket.on('data', (chunk: Buffer) => {
          keysFrames.push(...(decoder.push(chunk) as ClientMessage[]));
          socket.destroy(); // the server's keyboard thread went away
        });
      });
      await listenPrivate(keys, keysSocketPath(path), () => 'busy');
    }
    try {
      startClient();
      await until(() => door.frames.some((m) => m.type === 'hello'), 'the hello');
      if (keysSocket) await until(() => keysFrames.length > 0, 'the token on the keys connection');
      expect(keysFrames).toEqual(keysSocket ? [{ type: 'keys', token: 'a1b2' }] : []);
      await new Promise((resolve) => setTimeout(resolve, 200));
      client!.write('hi');
      await until(() => door.frames.some((m) => m.type === 'input'), 'the keys on the attach socket');
      expect(door.frames.filter((m) => m.type === 'input').map((m) => (m.type === 'input' ? m.data : '')).join('')).toBe('hi');
    } finally {
      for (const socket of door.sockets) socket.destroy();
      door.server.close();
      keys?.close();
    }
  }, 60_000);


  it('keeps reading keys while its terminal takes no output, and holds the frames back meanwhile', async () => {
    startClient();
    await until(() => attached.length === 1, 'the client to attach');
    const link = attached[0]!;
    const typed: string[] = [];
    link.onInput((data) => typed.push(data));
    let caughtUp = 0;
    link.onCaughtUp(() => caughtUp++);

    client!.pause(); // the terminal stops reading (a stalled ssh, a slow terminal)
    const frame = 'y'.repeat(64 * 1024);
    for (let i = 0; i < 400 && !link.backedUp; i++) {
      link.write(frame);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(link.backedUp).toBe(true);

    client!.write('k');
    await until(() => typed.join('').includes('k'), 'the key, through a client whose terminal is full');

    client!.resume();
    await until(() => caughtUp > 0 && !link.backedUp, 'the server to see the client catch up');
  }, 120_000);

  it('puts the terminal back after the last frame, then says how to come back', async () => {
    const { shown, exit } = startClient(true);
    await until(() => attached.length === 1, 'the client to attach');
    const link = attached[0]!;
    for (let i = 0; i < 20; i++) link.write(`${'z'.repeat(32 * 1024)}`);
    link.write('LAST-FRAME');
    link.close('detached', 0);
    expect(await exit).toBe(0);
    // Everything the client wrote came before the shell's line about its exit.
    const text = shown().slice(0, shown().search(EXITED));
    const last = text.lastIndexOf('LAST-FRAME');
    const restored = text.lastIndexOf(RESTORE_SEQUENCE);
    const line = text.indexOf('[detached from session proj');
    expect(last).toBeGreaterThan(0);
    expect(restored).toBeGreaterThan(last);
    expect(line).toBeGreaterThan(restored);
  }, 120_000);
});
