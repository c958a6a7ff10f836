/**
 * Shell and command tiles through the built CLI, as a user runs them: `run --headless` with real
 * shells and real commands in real ptys, driven with `send`, its verdict stream read as JSON lines,
 * its exit status checked against the README's table, and its processes checked with pgrep.
 */
import { execFile, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { installed, pgrep, until } from '../tile/helpers.js';

const run = promisify(execFile);
const bin = join(import.meta.dirname, '..', '..', 'bin', 'belltower.js');

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

// HOME is a throwaway folder: the shells read no rc file of whoever runs the tests.
const env = () => ({ ...process.env, BELLTOWER_STATE_DIR: state, HOME: work, CI: '' });

interface Line {
  tile: number;
  from: string;
  to: string;
  source: string;
  reason: string;
}

function headless(...args: string[]) {
  const child = spawn(process.execPath, [bin, 'run', '--headless', ...args], { cwd: work, env: env() });
  children.push(child);
  const lines: Line[] = [];
  let out = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
    let nl: number;
    while ((nl = out.indexOf('\n')) >= 0) {
      lines.push(JSON.parse(out.slice(0, nl)) as Line);
      out = out.slice(nl + 1);
    }
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, lines, exited, of: (tile: number) => lines.filter((l) => l.tile === tile) };
}

async function send(session: string, tile: string, text: string): Promise<void> {
  await run(process.execPath, [bin, 'send', '--session', session, tile, text, '--enter'], { cwd: work, env: env() });
}

describe.skipIf(!installed('bash'))('a shell tile in run --headless', () => {
  it('idle at the prompt → working (sleep) → done; a long false → failed with code 1; ls → no done', async () => {
    const h = headless('--session', 's1', '--timing', 'longCommandMs=1000', 'bash');
    await until('the prompt', () => h.lines.some((l) => l.to === 'idle'));
    expect(h.lines[0]).toMatchObject({ from: 'starting', to: 'idle', source: 'shell', reason: 'at the prompt' });

    await send('s1', '1', 'sleep 1.5');
    await until('done', () => h.lines.some((l) => l.to === 'done'));
    await send('s1', '1', 'sleep 1.5; false');
    await until('failed', () => h.lines.some((l) => l.to === 'failed'));
    await send('s1', '1', 'ls');
    await until('ls to end', () => /"ls" finished in/.test(h.lines.at(-1)?.reason ?? ''));

    expect(h.lines.map((l) => [l.to, l.reason])).toEqual([
      ['idle', 'at the prompt'],
      ['working', 'sleep 1.5'],
      ['done', expect.stringMatching(/^"sleep 1\.5" finished after 1\.\d s$/)],
      ['idle', 'seen: you typed'],
      ['working', 'sleep 1.5; false'],
      ['failed', expect.stringMatching(/^"sleep 1\.5; false" failed with exit code 1 after 1\.\d s$/)],
      ['working', 'ls'],
      ['idle', expect.stringMatching(/^"ls" finished in \d\.\d s: shorter than 1\.0 s, no bell$/)],
    ]);

    // The user ends the shell: an interactive shell's exit is just an exit, and belltower's is 0.
    await send('s1', '1', 'exit');
    expect(await h.exited).toBe(0);
    expect(h.lines.at(-1)).toMatchObject({ to: 'exited', reason: 'exited with code 0' });
  }, 40_000);
});

describe('a command tile in run --headless', () => {
  it('npm test is working until it exits, then failed with its code; belltower exits 1', async () => {
    writeFileSync(join(work, 'package.json'), JSON.stringify({ name: 'demo', scripts: { test: 'node -e "process.exit(3)"' } }));
    const h = headless('--session', 'c1', 'npm test');
    expect(await h.exited).toBe(1);
    expect(h.lines.map((l) => [l.from, l.to, l.source])).toEqual([
      ['starting', 'working', 'process'],
      ['working', 'failed', 'process'],
    ]);
    expect(h.lines.at(-1)?.reason).toBe('exited with code 3');
  }, 40_000);

  it('a passing one is done and belltower exits 0; one that cannot start is exited, and belltower exits 1', async () => {
    writeFileSync(join(work, 'package.json'), JSON.stringify({ name: 'demo', scripts: { test: 'node -e "process.exit(0)"' } }));
    const ok = headless('--session', 'c2', 'npm test');
    expect(await ok.exited).toBe(0);
    expect(ok.lines.map((l) => l.to)).toEqual(['working', 'done']);
    expect(ok.lines.at(-1)?.reason).toBe('exited with code 0');

    const missing = headless('--session', 'c3', 'nmp test');
    expect(await missing.exited).toBe(1);
    expect(missing.lines).toEqual([expect.objectContaining({ from: 'starting', to: 'exited', reason: 'command not found: nmp' })]);
  }, 40_000);
});

describe.skipIf(!installed('bash'))('SIGHUP to belltower', () => {
  it('ends every process of every tile — HUP-proof children and shell jobs included — and exits 129', async () => {
    const h = headless('--session', 'h1', 'trap "" HUP; sleep 600 & echo ready; wait', 'bash');
    await until('both tiles', () => h.of(1).length > 0 && h.of(2).some((l) => l.to === 'idle'));
    await send('h1', '2', 'nohup sleep 601 >/dev/null 2>&1 &');
    const leaders = () => pgrep('-P', String(h.child.pid));
    await until('the tiles and their jobs', () => leaders().length === 2 && leaders().every((pid) => pgrep('-s', String(pid)).length >= 2));
    const tilePids = leaders();

    h.child.kill('SIGHUP');
    expect(await h.exited).toBe(129);
    for (const pid of tilePids) {
      expect(pgrep('-g', String(pid))).toEqual([]);
      expect(pgrep('-s', String(pid))).toEqual([]);
    }
    expect(h.of(1).at(-1)).toMatchObject({ to: 'exited', reason: 'closed (killed by SIGTERM)' });
    expect(h.of(2).at(-1)).toMatchObject({ to: 'exited' });
    expect(h.of(2).at(-1)?.reason).toMatch(/^closed \(/);
  }, 40_000);
});

describe('a program that exits with input still queued for it', () => {
  it("node-pty's EBADF goes to the log, not to the headless mode's stderr", async () => {
    // Whether node-pty retries a queued write after the pty closed is a race: four tiles make it
    // near certain that one of them does.
    const child = spawn(process.execPath, [bin, 'run', '--headless', '--session', 'ebadf', 'sleep 2', 'sleep 2', 'sleep 2', 'sleep 2'], { cwd: work, env: env() });
    children.push(child);
    let stderr = '';
    let stdout = '';
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    await until('the tiles working', () => stdout.split('"to":"working"').length === 5);
    // sleep reads nothing: 100 KB typed at it fill the pty and wait in node-pty's queue.
    // (A tile that already exited refuses its send: that is fine, the others take theirs.)
    await Promise.all(['1', '2', '3', '4'].map((tile) => run(process.execPath, [bin, 'send', '--session', 'ebadf', tile, 'x'.repeat(100_000)], { cwd: work, env: env() }).catch(() => undefined)));
    expect(await exited).toBe(0);
    // Whether node-pty hits EBADF here is a race (test/session/pty-write-errors.test.ts makes it
    // certain); when it does, its line is in the log, never here.
    expect(stderr).toBe('');
  }, 60_000);
});
