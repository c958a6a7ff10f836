/**
 * How long `run --headless` lives, with the built CLI and real ptys: until every tile has ended —
 * the tiles it started with and those a script added or restarted since (issue 28: `restart 1` of
 * the only tile ended belltower at once, and a tile added with `add` was killed when the first
 * ones ended, so a script could not reconnect a lost remote tile). Also what plain `ls` prints of
 * a tile's notice. Every wait has a generous deadline; no speed is asserted.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TileInfo } from '../../src/control/protocol.js';
import { waitFor } from '../session/helpers.js';
import { BELLTOWER_CLI, belltowerCli } from '../support/belltower-cli.js';



let state = '';
let work = '';
let child: ChildProcess | undefined;
beforeEach(() => {
  state = mkdtempSync(join(tmpdir(), 'belltower-state-'));
  work = mkdtempSync(join(tmpdir(), 'belltower-work-'));
});
afterEach(() => {
  child?.kill('SIGKILL');
  child = undefined;
  rmSync(state, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

const env = () => ({ ...process.env, BELLTOWER_STATE_DIR: state, CI: '' });
const cli = (...args: string[]) => belltowerCli([...args, '--session', 'life'], { env: env(), cwd: work });


async function ls(): Promise<TileInfo[]> {
  const listed = await cli('ls', '--json');
  expect(listed.code, listed.stderr).toBe(0);
  return JSON.parse(listed.stdout) as TileInfo[];
}

/** `run --headless SPEC…`; resolves its exit status (or 'running' while it runs). */
function headless(...specs: string[]): { exited: Promise<number | null>; status: () => number | null | 'running' } {
  const started = spawn(process.execPath, [BELLTOWER_CLI, 'run', '--headless', '--session', 'life', ...specs], { env: env(), cwd: work, stdio: ['ignore', 'ignore', 'pipe'] });
  child = started;
  let status: number | null | 'running' = 'running';
  const exited = new Promise<number | null>((resolve) =>
    started.once('exit', (code) => {
      status = code;
      resolve(code);
    }),
  );
  return { exited, status: () => status };
}

const socket = () => join(state, 'run', 'control', 'life.sock');

describe('run --headless lives until every tile has ended, including those added or restarted', () => {
  it('restarting the only tile does not end belltower; closing it does, with 0', async () => {
    const h = headless('sleep 600');
    await waitFor(() => existsSync(socket()), 'the control socket', 30_000);
    const restarted = await cli('restart', '1');
    expect(restarted.code, restarted.stderr).toBe(0);
    // The restarted tile runs, and belltower with it: ls still answers, and says it runs.
    const tiles = await ls();
    expect(tiles.map((t) => [t.id, t.exit])).toEqual([[1, undefined]]);
    expect(h.status()).toBe('running');
    expect((await cli('close', '1')).code).toBe(0);
    expect(await h.exited).toBe(0);
  }, 60_000);

  it('a tile added by a script keeps running when the first one ends, and belltower ends with it', async () => {
    const h = headless('sh -c "read line; exit 0"');
    await waitFor(() => existsSync(socket()), 'the control socket', 30_000);
    const added = await cli('add', 'sleep 600', '--name', 'later');
    expect(added.code, added.stderr).toBe(0);
    expect((await cli('send', '1', 'go', '--enter')).code).toBe(0);
    // Tile 1 ends by itself; the added one is not killed with it.
    await waitForAsync(async () => (await ls()).find((t) => t.id === 1)?.exit !== undefined, 'tile 1 to end', 30_000);
    const later = (await ls()).find((t) => t.name === 'later');
    expect(later?.exit).toBeUndefined();
    expect(h.status()).toBe('running');
    expect((await cli('close', 'later')).code).toBe(0);
    expect(await h.exited).toBe(0);
  }, 60_000);
});

describe('ls prints a tile’s notice', () => {
  it('under the tile it is about, as why does', async () => {
    // Remote hooks are for Claude only: a remote Codex tile says so at once, before any login
    // (its ssh fails here: no such host, nothing is contacted).
    headless('--remote-hooks', 'ssh -o BatchMode=yes -o ConnectTimeout=1 -F /dev/null belltower-no-such-host.invalid codex', 'sleep 600');
    await waitFor(() => existsSync(socket()), 'the control socket', 30_000);
    const notice = (await ls())[0]?.notice;
    expect(notice).toMatch(/^no remote hooks: belltower has them for Claude Code only, not codex/);
    const plain = await cli('ls');
    expect(plain.code, plain.stderr).toBe(0);
    const lines = plain.stdout.split('\n');
    const at = lines.findIndex((line) => /^ 1 {2}codex/.test(line));
    expect(at, plain.stdout).toBeGreaterThanOrEqual(0);
    expect(lines[at + 1]).toBe(`    note: ${notice}`);
    // A tile without a notice gets no such line.
    expect(lines[at + 2]).toMatch(/^ 2 {2}sleep/);
    expect(lines[at + 3] ?? '').toBe('');
  }, 60_000);
});

async function waitForAsync(probe: () => Promise<boolean>, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
