/**
 * Headless mode and the control socket, end to end with the built CLI and real ptys: a script that
 * speaks OSC 7501 stands in for an agent (the real agents have their own suite). Every wait has a
 * generous deadline (a loaded machine starts node slowly); how soon `wait` answers is not asserted.
 */
import { execFile, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const repo = join(import.meta.dirname, '..', '..');
const bin = join(repo, 'bin', 'belltower.js');

let state = '';
let work = '';
const children: ChildProcess[] = [];

beforeEach(() => {
  state = mkdtempSync(join(tmpdir(), 'belltower-state-'));
  work = mkdtempSync(join(tmpdir(), 'belltower-work-'));
});
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  rmSync(state, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

const env = () => ({ ...process.env, BELLTOWER_STATE_DIR: state, CI: '' });

/** An "agent": waits for a line, reports working, then done, and repeats until it reads "quit". */
function agentScript(): string {
  const path = join(work, 'agent.sh');
  writeFileSync(
    path,
    [
      'printf "\\033]7501;state=idle:app=fake\\007"',
      'while IFS= read -r line; do',
      '  [ "$line" = quit ] && exit 3',
      '  printf "\\033]7501;state=working:app=fake\\007"',
      '  sleep 0.3',
      '  printf "\\033]7501;state=done:app=fake\\007"',
      'done',
    ].join('\n'),
  );
  return `sh ${path}`;
}

interface Headless {
  child: ChildProcess;
  lines: Record<string, unknown>[];
  stderr: () => string;
  exited: Promise<number | null>;
}

function headless(session: string, ...specs: string[]): Headless {
  const child = spawn(process.execPath, [bin, 'run', '--headless', '--session', session, ...specs], { cwd: work, env: env() });
  children.push(child);
  const lines: Record<string, unknown>[] = [];
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
    let nl: number;
    while ((nl = out.indexOf('\n')) >= 0) {
      lines.push(JSON.parse(out.slice(0, nl)) as Record<string, unknown>);
      out = out.slice(nl + 1);
    }
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, lines, stderr: () => err, exited };
}

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], { cwd: work, env: env() });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

async function until<T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const socketOf = (session: string) => join(state, 'run', 'control', `${session}.sock`);

/** How many sockets the kernel lists at `path` (/proc/net/unix): the listening one and each
 * connection it accepted. */
function peersOf(path: string): number {
  return readFileSync('/proc/net/unix', 'utf8')
    .split('\n')
    .filter((line) => line.endsWith(` ${path}`)).length;
}

describe('belltower run --headless with the control socket', () => {
  it('ls, send --enter and wait --for done drive a tile; the verdict stream is JSON lines', async () => {
    const h = headless('t1', agentScript());
    await until('the idle tile', () => h.lines.find((l) => l.to === 'idle'));

    const ls = await cli('ls', '--json');
    expect(ls.code).toBe(0);
    const tiles = JSON.parse(ls.stdout) as { id: number; name: string; state: string; source: string }[];
    expect(tiles).toMatchObject([{ id: 1, name: 'sh', state: 'idle', source: 'psp' }]);
    expect(tiles[0]).not.toHaveProperty('exit');

    expect((await cli('send', '1', 'go', '--enter')).code).toBe(0);
    const waited = await cli('wait', '1', '--for', 'done', '--timeout', '60s');
    expect(waited.code).toBe(0);
    expect(waited.stdout).toMatch(/done/);
    // A plain command works from its start; what it says itself (OSC 7501) counts while it runs.
    expect(h.lines.map((l) => l.to)).toEqual(['working', 'idle', 'working', 'done']);
    expect(h.lines[0]).toMatchObject({ from: 'starting', to: 'working', source: 'process', reason: 'running' });
    for (const line of h.lines) expect(Object.keys(line).slice(0, 7)).toEqual(['t', 'tile', 'name', 'from', 'to', 'source', 'reason']);

    // A second turn, by the tile's name: once it is seen working, `wait --for done` returns at its
    // done (750 ms, the conflict window, after the agent's OSC 7501 done) — not the first turn's.
    // How soon after the verdict `wait` answers is measured by the benchmarks, not here.
    expect((await cli('send', 'sh', 'again', '--enter')).code).toBe(0);
    await until('the second turn working', () => h.lines.filter((l) => l.to === 'working').length === 3);
    const second = await cli('wait', 'sh', '--for', 'done', '--timeout', '60s');
    expect(second.code).toBe(0);
    await until('the second done in the verdict stream', () => h.lines.filter((l) => l.to === 'done').length === 2);
    expect(h.lines.slice(4).map((l) => l.to).filter((to) => to === 'working' || to === 'done')).toEqual(['working', 'done']);

    // "why?": the verdict and the signals that led there, newest last.
    const why = JSON.parse((await cli('why', '1', '--json')).stdout) as { tile: { state: string }; why: { source: string; signal: string; note: string }[] };
    expect(why.tile.state).toBe('done');
    // The OSC 7501 done was held through the conflict window, then released by the engine's timer.
    const held = why.why.findLastIndex((w) => w.source === 'psp' && w.signal === 'turn-end');
    expect(why.why[held]?.note).toMatch(/held: conflict window/);
    expect(why.why.at(-1)).toMatchObject({ source: 'engine', signal: 'wake' });
    expect(why.why.at(-1)?.note).toMatch(/working → done/);
    expect((await cli('why', '1')).stdout).toMatch(/psp +turn-end +held: conflict window/);

    // A wait that can no longer be met ends when the tile exits, not at its timeout (whether the
    // exit lands before or after the wait arrives, the answer is the same): the reply says so, and
    // a timeout would have exited 124.
    const connected = peersOf(socketOf('t1'));
    const waiting = cli('wait', '1', '--for', 'blocked', '--timeout', '60s');
    // The wait must reach the session before the tile ends it (a wait started after belltower has
    // ended finds no session: exit 2): its connection shows up beside the listening socket.
    await until('the wait connected', () => peersOf(socketOf('t1')) > connected);
    await cli('send', '1', 'quit', '--enter');
    const unmet = await waiting;
    expect(unmet.code).toBe(1);
    expect(unmet.stderr).toMatch(/tile 1 \(sh\) exited \(exited with code 3\) before becoming blocked/);
    // Its exit is its outcome: code 3 is failed, and belltower's own exit status says a tile failed.
    expect(await h.exited).toBe(1);
    expect(h.lines.at(-1)).toMatchObject({ to: 'failed', source: 'process', reason: 'exited with code 3' });
    expect(existsSync(socketOf('t1'))).toBe(false);
  }, 120_000);

  it('wait exits 124 on timeout, and a tile that does not exist is a clear error', async () => {
    const h = headless('t2', agentScript());
    await until('the idle tile', () => h.lines.find((l) => l.to === 'idle'));
    const timedOut = await cli('wait', '1', '--for', 'blocked', '--timeout', '300ms');
    expect(timedOut.code).toBe(124);
    expect(timedOut.stderr.trim()).toBe('belltower: tile 1 (sh) did not become blocked: timed out after 300ms');
    const missing = await cli('send', '7', 'hi');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/no tile "7" \(tiles: 1 sh\)/);
    expect((await cli('wait', '1', '--for', 'idle')).code).toBe(0);
    h.child.kill('SIGTERM');
    expect(await h.exited).toBe(143);
  }, 120_000);

  it('the socket is 0600 in a 0700 folder; malformed requests get an error reply and the server lives on', async () => {
    const h = headless('t3', agentScript());
    await until('the socket', () => existsSync(socketOf('t3')));
    expect(statSync(socketOf('t3')).mode & 0o777).toBe(0o600);
    expect(statSync(join(state, 'run', 'control')).mode & 0o777).toBe(0o700);

    const replies = await rawExchange(socketOf('t3'), ['garbage', '{"v":9,"id":4,"op":"ls"}', '{"v":1,"id":5,"op":"wait","tile":"1","for":"soon","timeoutMs":5}', '{"v":1,"id":6,"op":"ls"}'], 4);
    expect(replies[0]).toMatchObject({ ok: false, error: 'request is not JSON' });
    expect(replies[1]).toMatchObject({ id: 4, ok: false });
    expect(String(replies[1]?.error)).toMatch(/protocol version 9 is not supported/);
    expect(replies[2]).toMatchObject({ id: 5, ok: false });
    expect(String(replies[2]?.error)).toMatch(/^for:/);
    expect(replies[3]).toMatchObject({ id: 6, ok: true });
    expect((await cli('ls')).code).toBe(0);
    h.child.kill('SIGINT');
    expect(await h.exited).toBe(130);
  }, 120_000);

  it('a socket left by a dead process is removed; with two sessions running, --session picks one', async () => {
    // A dead belltower's socket: a listener killed with SIGKILL leaves its file behind.
    const stale = socketOf('ghost');
    const holder = spawn(process.execPath, ['-e', `require('node:fs').mkdirSync(${JSON.stringify(join(state, 'run', 'control'))},{recursive:true,mode:0o700});require('node:net').createServer().listen(${JSON.stringify(stale)}, () => console.log('up'))`]);
    children.push(holder);
    await until('the stale socket', () => existsSync(stale));
    holder.kill('SIGKILL');
    await new Promise((r) => holder.once('exit', r));
    expect(existsSync(stale)).toBe(true);

    const none = await cli('ls');
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/no running belltower found/);
    expect(existsSync(stale)).toBe(false);

    const a = headless('alpha', agentScript());
    const b = headless('beta', agentScript(), agentScript());
    await until('both sockets', () => existsSync(socketOf('alpha')) && existsSync(socketOf('beta')));
    const ambiguous = await cli('ls');
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toMatch(/several belltower sessions are running \((alpha, beta|beta, alpha)\)/);
    const beta = JSON.parse((await cli('ls', '--json', '--session', 'beta')).stdout) as unknown[];
    expect(beta).toHaveLength(2);
    expect(beta[1]).toMatchObject({ id: 2, name: 'sh-2' });

    const clash = headless('alpha', agentScript());
    expect(await clash.exited).toBe(2);
    expect(clash.stderr()).toMatch(/already running/);

    a.child.kill('SIGTERM');
    b.child.kill('SIGTERM');
    expect(await a.exited).toBe(143);
    expect(await b.exited).toBe(143);
  }, 120_000);

  it('a missing agent binary becomes an exited tile with the reason; the other tile runs on', async () => {
    const h = headless('t5', 'no-such-agent-binary --flag', agentScript());
    const exited = await until('the failed tile', () => h.lines.find((l) => l.tile === 1 && l.to === 'exited'));
    expect(String(exited.reason)).toMatch(/no-such-agent-binary/);
    await until('the second tile', () => h.lines.find((l) => l.tile === 2 && l.to === 'idle'));
    await cli('send', '2', 'go', '--enter');
    expect((await cli('wait', '2', '--for', 'done', '--timeout', '60s')).code).toBe(0);
    h.child.kill('SIGTERM');
    expect(await h.exited).toBe(143);
  }, 120_000);

  it('a --record folder that cannot be written is refused before anything starts', async () => {
    writeFileSync(join(work, 'not-a-folder'), '');
    const h = headless('t7', '--record', join(work, 'not-a-folder', 'recordings'), 'sleep 600');
    expect(await h.exited).toBe(2);
    expect(h.stderr()).toMatch(/--record .*not-a-folder\/recordings: .*not-a-folder is not a folder/);
    expect(h.lines).toEqual([]);
  }, 120_000);

  it('text from the agent reaches ls, why and wait without its control characters', async () => {
    // An OSC 7501 msg is base64: any bytes. This one would set the title, clear the screen and
    // write the clipboard (OSC 52) of whoever runs `belltower ls`.
    const evil = Buffer.from('ok\x1b]0;pwned\x07\x1b[2J\x1b]52;c;ZXZpbA==\x07\x9b31m done').toString('base64');
    const path = join(work, 'evil.sh');
    writeFileSync(path, `printf "\\033]7501;state=blocked:kind=permission:msg=${evil}\\007"; sleep 60\n`);
    const h = headless('t8', `sh ${path}`);
    await until('the blocked tile', () => h.lines.find((l) => l.to === 'blocked'));
    const outputs = [await cli('ls'), await cli('why', '1'), await cli('wait', '1', '--for', 'blocked')];
    for (const output of outputs) {
      expect(output.code).toBe(0);
      expect(output.stdout).toMatch(/ok\\x1b\]0;pwned\\x07/);
      expect(output.stdout).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
    }
    // The JSON outputs escape on their own: the text is all there.
    expect(JSON.parse((await cli('ls', '--json')).stdout)[0].reason).toContain('\x1b]52;c;ZXZpbA==');
    h.child.kill('SIGTERM');
    expect(await h.exited).toBe(143);
  }, 120_000);

  it('SIGTERM while starting, before any tile runs, still exits cleanly', async () => {
    // The socket exists before the tiles are added: a script that waits for it may signal at once.
    const h = headless('t9', 'sleep 600');
    await until('the socket', () => existsSync(socketOf('t9')));
    h.child.kill('SIGTERM');
    expect(await h.exited).toBe(143);
  }, 120_000);

  it('SIGTERM ends the sessions and exits 143; the verdict stream records the exits as closed', async () => {
    const h = headless('t6', 'sleep 600');
    await until('the tile', async () => existsSync(socketOf('t6')) && (await cli('ls', '--json', '--session', 't6')).stdout.includes('"id":1'));
    h.child.kill('SIGTERM');
    expect(await h.exited).toBe(143);
    expect(h.lines.at(-1)).toMatchObject({ tile: 1, to: 'exited', reason: 'closed (killed by SIGHUP)' });
  }, 120_000);
});

function rawExchange(path: string, requests: string[], expected: number): Promise<Record<string, unknown>[]> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(path);
    const replies: Record<string, unknown>[] = [];
    let buffer = '';
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(requests.map((r) => `${r}\n`).join('')));
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        replies.push(JSON.parse(buffer.slice(0, nl)) as Record<string, unknown>);
        buffer = buffer.slice(nl + 1);
      }
      if (replies.length >= expected) {
        socket.end();
        resolve(replies);
      }
    });
    socket.on('error', reject);
  });
}
void createServer;
