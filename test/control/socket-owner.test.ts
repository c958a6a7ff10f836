/**
 * The control socket against a second local user: a client must never hand what it sends (text
 * typed into an agent) to a socket, or through a folder, that someone else controls, nor believe
 * the answer (a forged `done`). Runs the built CLI as a user would.
 */
import { execFile } from 'node:child_process';
import { chmodSync, lchownSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NOT_ROOT_REASON, OTHER_UID, isRoot, plantDir, runAsOtherUser } from '../support/other-user.js';

const run = promisify(execFile);
const repo = join(import.meta.dirname, '..', '..');
const bin = join(repo, 'bin', 'belltower.js');

async function cli(env: NodeJS.ProcessEnv, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], { cwd: repo, env });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** A fake belltower: answers every request with a forged success, and reports each connection. */
const FAKE = `
const net = require('node:net');
const path = process.argv[1];
net.createServer((socket) => {
  process.stdout.write('connection\\n');
  socket.on('data', (data) => {
    process.stdout.write('got ' + data);
    socket.write(JSON.stringify({ v: 1, id: 1, ok: true, sent: true, reached: { id: 1, name: 'x', agent: 'shell', state: 'done', source: 'psp', confidence: 'first-party', reason: 'forged', sinceMs: 0 } }) + '\\n');
  });
}).listen(path, () => process.stdout.write('listening\\n'));
`;

describe.skipIf(process.platform === 'win32')('control clients against a second local user', () => {
  let shared = '';
  beforeEach(() => {
    shared = mkdtempSync(join(tmpdir(), 'bt-shared-'));
    chmodSync(shared, 0o1777);
  });
  afterEach(() => rmSync(shared, { recursive: true, force: true }));

  it.skipIf(!isRoot)(`send and wait refuse a control folder another user made, in one line, and never connect (${NOT_ROOT_REASON})`, async () => {
    // The attacker created /tmp/<victim> before the victim's first belltower, and serves a socket in it.
    const planted = plantDir(join(shared, 'victim'), 0o777);
    const control = join(planted, 'bt', 'run', 'control');
    for (const dir of [join(planted, 'bt'), join(planted, 'bt', 'run'), control]) plantDir(dir, 0o777);
    const attacker = runAsOtherUser(FAKE, [join(control, 'evil.sock')]);
    let heard = '';
    attacker.stdout?.setEncoding('utf8').on('data', (chunk: string) => (heard += chunk));
    try {
      await new Promise<void>((resolve, reject) => {
        attacker.stdout?.on('data', () => heard.includes('listening') && resolve());
        attacker.once('exit', (code) => reject(new Error(`the fake server exited (${code})`)));
      });
      const env = { ...process.env, BELLTOWER_STATE_DIR: join(planted, 'bt'), CI: '' };
      const send = await cli(env, 'send', '1', 'my secret token', '--enter');
      expect(send.code).toBe(2);
      expect(send.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(send.stderr).toMatch(new RegExp(`${planted} belongs to uid ${OTHER_UID}`));
      const wait = await cli(env, 'wait', '1', '--for', 'done');
      expect(wait.code).toBe(2);
      expect(wait.stdout).toBe('');
      expect((await cli(env, 'ls')).code).toBe(2);
      // A request that cannot reach a belltower proves nothing; this one shows the attacker was listening.
      expect(heard).toBe('listening\n');
    } finally {
      attacker.kill('SIGKILL');
    }
  }, 30_000);

  it.skipIf(!isRoot)(`a socket another user owns is refused even in a private folder (${NOT_ROOT_REASON})`, async () => {
    const state = join(shared, 'mine');
    const control = join(state, 'run', 'control');
    mkdirSync(control, { recursive: true, mode: 0o700 });
    const path = join(control, 'theirs.sock');
    let connections = 0;
    const server: Server = createServer(() => connections++);
    await new Promise<void>((resolve) => server.listen(path, resolve));
    try {
      lchownSync(path, OTHER_UID, OTHER_UID);
      const env = { ...process.env, BELLTOWER_STATE_DIR: state, CI: '' };
      const ls = await cli(env, 'ls', '--session', 'theirs');
      expect(ls.code).toBe(2);
      expect(ls.stderr).toMatch(new RegExp(`${path} belongs to uid ${OTHER_UID}`));
      expect((await cli(env, 'ls')).code).toBe(2);
      expect(connections).toBe(0);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  }, 30_000);
});
