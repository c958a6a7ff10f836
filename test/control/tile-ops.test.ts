/**
 * Building a workspace from a script: add, close, restart and rename over the control socket and
 * the built CLI, against a running belltower (headless: the same socket as the grid's).
 */
import { execFile, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TileInfo } from '../../src/control/protocol.js';
import { waitFor } from '../session/helpers.js';

const run = promisify(execFile);
const repo = join(import.meta.dirname, '..', '..');
const bin = join(repo, 'bin', 'belltower.js');

let state = '';
let work = '';
let child: ChildProcess | undefined;
beforeEach(() => {
  state = mkdtempSync(join(tmpdir(), 'belltower-state-'));
  work = mkdtempSync(join(tmpdir(), 'belltower-work-'));
});
afterEach(() => {
  child?.kill('SIGKILL');
  rmSync(state, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

const env = () => ({ ...process.env, BELLTOWER_STATE_DIR: state, CI: '' });

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args, '--session', 'ops'], { env: env(), cwd: work });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

async function ls(): Promise<TileInfo[]> {
  return JSON.parse((await cli('ls', '--json')).stdout) as TileInfo[];
}

describe('add, close, restart, rename over the control socket', () => {
  it('builds a workspace from a script', async () => {
    child = spawn(process.execPath, [bin, 'run', '--headless', 'sleep 600', '--session', 'ops'], { env: env(), cwd: work, stdio: ['ignore', 'pipe', 'pipe'] });
    await waitFor(() => existsSync(join(state, 'run', 'control', 'ops.sock')), 'the control socket');

    mkdirSync(join(work, 'sub'));
    const added = await cli('add', 'sh -c "echo from $PWD; exit 3"', '--name', 'build', '--cwd', 'sub');
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toMatch(/^added: +2 {2}build/);
    let tiles = await ls();
    expect(tiles.map((t) => [t.id, t.name])).toEqual([[1, 'sleep'], [2, 'build']]);
    expect(tiles[1]!.cwd).toBe(join(work, 'sub'));

    // It fails by itself (exit 3); restart runs it again, same number and name.
    const restarted = await cli('restart', 'build');
    expect(restarted.code, restarted.stderr).toBe(0);
    expect(restarted.stdout).toMatch(/^restarted: +2 {2}build/);

    expect((await cli('rename', '2', 'compile')).stdout).toMatch(/^renamed: +2 {2}compile/);
    const clash = await cli('rename', '2', 'sleep');
    expect(clash.code).toBe(1);
    expect(clash.stderr).toMatch(/another tile is already called "sleep"/);

    const closed = await cli('close', 'compile');
    expect(closed.code, closed.stderr).toBe(0);
    tiles = await ls();
    expect(tiles.map((t) => t.id)).toEqual([1]);

    // Mistakes get a plain message and change nothing.
    expect((await cli('add', 'x', '--cwd', 'no/such/dir')).stderr).toMatch(/no such folder: .*no\/such\/dir/);
    expect((await cli('add', '"unbalanced')).stderr).toMatch(/unbalanced/);
    expect((await cli('close', '9')).stderr).toMatch(/no tile "9"/);
    expect((await ls()).map((t) => t.id)).toEqual([1]);
    // A new tile gets a new number: numbers are never reused while belltower runs.
    expect((await cli('add', 'sleep 601')).stdout).toMatch(/^added: +3 /);
  }, 60_000);
});
