/**
 * Tile isolation through the built CLI: a tile's program holds no descriptor of belltower's — not
 * another tile's pty master, not the hook server's or the control socket's listener, not the log,
 * not what belltower itself inherited — and so a `kill -9` of belltower hangs up every tile, as a
 * closed terminal window does.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pgrep, until } from '../tile/helpers.js';

const bin = join(import.meta.dirname, '..', '..', 'bin', 'belltower.js');
const linux = process.platform === 'linux';

let state = '';
let work = '';
const children: ChildProcess[] = [];
const strays: number[] = [];
beforeEach(() => {
  state = fs.mkdtempSync(join(tmpdir(), 'belltower-state-'));
  work = fs.mkdtempSync(join(tmpdir(), 'belltower-work-'));
});
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const pid of strays.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone, as it should be
    }
  }
  fs.rmSync(state, { recursive: true, force: true });
  fs.rmSync(work, { recursive: true, force: true });
});

/** `run --headless` with three long commands; belltower gets one extra descriptor (3) from us, not
 * close-on-exec, the way a terminal or a script can leak one into it. */
function threeTiles(specs = ['sleep 301', 'sleep 302', 'sleep 303']): { child: ChildProcess; lines: string[] } {
  const leaked = fs.openSync(join(work, 'leaked.txt'), 'w');
  const child = spawn(process.execPath, [bin, 'run', '--headless', '--session', 'iso', ...specs], {
    cwd: work,
    env: { ...process.env, BELLTOWER_STATE_DIR: state, CI: '' },
    stdio: ['ignore', 'pipe', 'pipe', leaked],
  });
  fs.closeSync(leaked);
  children.push(child);
  const lines: string[] = [];
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => lines.push(...chunk.split('\n').filter(Boolean)));
  return { child, lines };
}

/** A tile program of these tests (`sleep`), not the git belltower runs for each tile's changes. */
function isSleep(pid: number): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'sleep';
  } catch {
    return false;
  }
}

function descriptors(pid: number): string[] {
  return fs.readdirSync(`/proc/${pid}/fd`).sort((a, b) => Number(a) - Number(b));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
  } catch {
    return false;
  }
}

describe.skipIf(!linux)('a tile holds no descriptor of belltower', () => {
  it('each tile program has only 0, 1 and 2, all its own pty; belltower itself holds its masters and sockets', async () => {
    const { child, lines } = threeTiles();
    await until('three tiles working', () => lines.filter((l) => l.includes('"to":"working"')).length === 3, 30_000);
    // Its tile programs (`sleep`): belltower also runs git now and then (each tile's changes).
    const tiles = pgrep('-P', String(child.pid)).filter(isSleep);
    expect(tiles).toHaveLength(3);
    strays.push(...tiles);
    for (const pid of tiles) {
      expect(descriptors(pid), `tile process ${pid}`).toEqual(['0', '1', '2']);
      // All three are the tile's own terminal, not a pipe or socket of belltower's.
      const own = fs.readlinkSync(`/proc/${pid}/fd/0`);
      expect(own).toMatch(/^\/dev\/pts\/\d+$/);
      expect(fs.readlinkSync(`/proc/${pid}/fd/1`)).toBe(own);
      expect(fs.readlinkSync(`/proc/${pid}/fd/2`)).toBe(own);
    }
    // belltower does hold what the tiles must not: three masters — each twice, node-pty's and the
    // session's own for the keyboard thread (pty-session.ts) — and its listening sockets.
    const mine = descriptors(child.pid!).map((fd) => {
      try {
        return fs.readlinkSync(`/proc/${child.pid}/fd/${fd}`);
      } catch {
        return '';
      }
    });
    expect(mine.filter((target) => target === '/dev/ptmx').length).toBe(6);
    expect(mine.some((target) => target.startsWith('socket:'))).toBe(true);
  });

  it('kill -9 of belltower: every tile of an ordinary program hangs up and ends, whatever a later tile does', async () => {
    // The last tile ignores SIGHUP (nohup) and so outlives belltower, as it would a closed
    // terminal window. Had it inherited the earlier tiles' masters, their ptys would never hang up.
    const { child, lines } = threeTiles(['sleep 301', 'sleep 302', 'nohup sleep 303']);
    await until('three tiles working', () => lines.filter((l) => l.includes('"to":"working"')).length === 3, 30_000);
    // Its tile programs (`sleep`): belltower also runs git now and then (each tile's changes).
    const tiles = pgrep('-P', String(child.pid)).filter(isSleep);
    expect(tiles).toHaveLength(3);
    strays.push(...tiles);
    const ordinary = tiles.filter((pid) => !fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('303'));
    expect(ordinary).toHaveLength(2);
    child.kill('SIGKILL');
    await until('the ordinary tiles ended', () => ordinary.every((pid) => !alive(pid)), 15_000);
  });
});
