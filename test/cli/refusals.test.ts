/**
 * Refusals, with the built CLI as a user runs it: one plain line on stderr, exit 2, never a stack
 * trace, nothing started, nothing written where it should not be.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NOT_ROOT_REASON, OTHER_GID, OTHER_UID, isRoot } from '../support/other-user.js';

const run = promisify(execFile);
const repo = join(import.meta.dirname, '..', '..');
const bin = join(repo, 'bin', 'belltower.js');

let state = '';
let work = '';
const children: ChildProcess[] = [];
beforeEach(() => {
  state = mkdtempSync(join(tmpdir(), 'bt-refuse-state-'));
  work = mkdtempSync(join(tmpdir(), 'bt-refuse-work-'));
});
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  rmSync(state, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

async function belltower(args: string[], options: { env?: NodeJS.ProcessEnv; uid?: number; gid?: number; timeoutMs?: number } = {}): Promise<Result> {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], {
      cwd: work,
      env: options.env ?? { ...process.env, BELLTOWER_STATE_DIR: state, CI: '' },
      timeout: options.timeoutMs ?? 15_000,
      ...(options.uid === undefined ? {} : { uid: options.uid, gid: options.gid }),
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number | null; killed?: boolean; stdout: string; stderr: string };
    return { code: e.killed ? null : e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** One line on stderr, no stack frames. */
function expectOneLine(result: Result, pattern: RegExp): void {
  expect(result.stderr).toMatch(pattern);
  expect(result.stderr).not.toMatch(/^\s+at /m);
  expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
}

describe('refusals are one line and exit 2', () => {
  it('a state folder that cannot be a folder', async () => {
    writeFileSync(join(state, 'file'), '');
    const result = await belltower(['run', '--headless', 'sleep 60'], { env: { ...process.env, BELLTOWER_STATE_DIR: join(state, 'file', 'bt'), CI: '' } });
    expect(result.code).toBe(2);
    expectOneLine(result, /^belltower: .*file is not a folder/);
  });

  it.skipIf(!isRoot)(`a state folder another user cannot enter: EACCES is a refusal (${NOT_ROOT_REASON})`, async () => {
    chmodSync(state, 0o700); // root's: the other user may not look inside
    chmodSync(work, 0o777);
    const result = await belltower(['run', '--headless', 'sleep 60'], {
      env: { PATH: process.env.PATH, HOME: work, BELLTOWER_STATE_DIR: join(state, 'bt'), CI: '' },
      uid: OTHER_UID,
      gid: OTHER_GID,
    });
    expect(result.code).toBe(2);
    expectOneLine(result, /^belltower: cannot look into .*bt-refuse-state-/);
  });

  it('a recording whose header has a timing setting that is not a duration names FILE:1', async () => {
    const file = join(work, 'bad-timing.jsonl');
    const header = { type: 'header', format: 'belltower-recording', version: 1, agent: 'shell', cols: 80, rows: 24, startedAt: '2026-11-30T09:39:44.000Z', timing: { conflictWindowMs: -1 } };
    writeFileSync(file, `${JSON.stringify(header)}\n{"type":"prompt","t":1,"seq":1}\n`);
    const result = await belltower(['replay', file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(new RegExp(`^${file}:1: .*conflictWindowMs`));
    expect(result.stderr).not.toMatch(/^\s+at /m);
  });

  it.skipIf(process.platform !== 'linux')('--record on a path that can never exist fails at once (a recursive mkdir spun on /proc/nope)', async () => {
    const result = await belltower(['run', '--headless', '--record', '/proc/nope', 'true'], { timeoutMs: 10_000 });
    expect(result.code).toBe(2);
    expectOneLine(result, /^belltower: --record \/proc\/nope: cannot create \/proc\/nope/);
  });

  it('--record into a folder other users can write', async () => {
    const open = join(work, 'drop');
    mkdirSync(open);
    chmodSync(open, 0o777);
    const result = await belltower(['run', '--headless', '--record', open, 'true']);
    expect(result.code).toBe(2);
    expectOneLine(result, /^belltower: --record .*drop: .*drop is writable by other users/);
    expect(result.stdout).toBe('');
  });

  it('--cols and --rows beyond the terminal size bound', async () => {
    for (const args of [['--cols', '100000'], ['--rows', '65536'], ['--cols', '1']]) {
      const result = await belltower(['run', '--headless', ...args, 'true']);
      expect(result.code, args.join(' ')).toBe(2);
      expectOneLine(result, /^belltower: --cols takes 2–1000 and --rows 1–1000/);
    }
  });

  it('--on-ring with --no-server (nobody is ever away from an in-process grid); attach with no session running', async () => {
    const onRing = await belltower(['--no-server', '--on-ring', 'true', 'bash']);
    expect(onRing.code).toBe(2);
    expectOneLine(onRing, /^belltower: --on-ring runs when a tile rings while nobody is attached to the session server, and --no-server runs none: give one of them/);
    const attach = await belltower(['attach', 'nothing-here']);
    expect(attach.code).toBe(2);
    expectOneLine(attach, /^belltower: no session "nothing-here" is running \(belltower sessions lists those that are\)/);
    const kill = await belltower(['kill-session', 'nothing-here']);
    expect(kill.code).toBe(2);
    expectOneLine(kill, /^belltower: no session "nothing-here" is running \(belltower sessions lists those that are\)/);
  });

  it('durations longer than a timer can wait: --timing, demo --seconds, wait --timeout', async () => {
    const timing = await belltower(['run', '--headless', '--timing', 'conflictWindowMs=3000000000', 'true']);
    expect(timing.code).toBe(2);
    expectOneLine(timing, /^belltower: timing setting "conflictWindowMs" must be.*at most 2147483647/);
    const demo = await belltower(['demo', '--seconds', '3000000']);
    expect(demo.code).toBe(2);
    expectOneLine(demo, /^belltower demo: --seconds takes a positive number of seconds, at most 2147483/);
    expect(demo.stdout).toBe('');
    const wait = await belltower(['wait', '1', '--timeout', '30d']);
    expect(wait.code).toBe(2);
    expectOneLine(wait, /--timeout takes a duration/);
    const long = await belltower(['wait', '1', '--timeout', '600h']);
    expect(long.code).toBe(2);
    expectOneLine(long, /^belltower: --timeout .*at most 596h/);
  });
});

describe('a wait longer than a timer can hold does not fire at once', () => {
  it('is refused before it reaches the running belltower, which stays quiet on stderr', async () => {
    const agent = join(work, 'agent.sh');
    writeFileSync(agent, 'printf "\\033]7501;state=idle\\007"; sleep 60\n');
    const child = spawn(process.execPath, [bin, 'run', '--headless', '--session', 'long', `sh ${agent}`], { cwd: work, env: { ...process.env, BELLTOWER_STATE_DIR: state, CI: '' } });
    children.push(child);
    let err = '';
    let out = '';
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    const deadline = Date.now() + 10_000;
    while (!out.includes('"to":"idle"') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    expect(out).toContain('"to":"idle"');
    const wait = await belltower(['wait', '1', '--for', 'blocked', '--timeout', '600h']);
    expect(wait.code).toBe(2);
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    expect(err).toBe('');
  }, 30_000);
});

