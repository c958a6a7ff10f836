/**
 * The relay script, actually run by sh, POSTing to the real hook server: with curl on PATH, without
 * it (bash's /dev/tcp), with neither, and against a server that is gone. It must always exit 0,
 * print nothing, and be cheap (a SessionStart hook delays Claude's start-up by its run time).
 * Cheap is shown by what it needs, not by a stopwatch: its PATH here holds only sh and cat, with
 * curl or bash (no node). Its cost per call is measured, not asserted: BELLTOWER_MEASURE=1 prints it.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { installRelay, type InstalledRelay } from '../../src/agents/relay-install.js';
import { createSessionFolder, type SessionFolder } from '../../src/agents/session-folder.js';
import { HookServer } from '../../src/sources/hooks/hook-server.js';
import { waitFor } from '../transcript/wait-for.js';

const which = (name: string): string | undefined => {
  const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim();
  return found || undefined;
};

/** A PATH holding only the named tools, so "curl is absent" is real for the script. */
function pathWith(root: string, tools: string[]): string {
  const bin = fs.mkdtempSync(path.join(root, 'bin-'));
  for (const tool of tools) {
    const real = which(tool);
    if (real) fs.symlinkSync(real, path.join(bin, tool));
  }
  return bin;
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/**
 * A relay that does not end (one waiting on a server for ever) is killed after this and fails the
 * test: far past the relay's own 2 s give-up, so a loaded machine does not matter.
 */
const RUN_DEADLINE_MS = 30_000;

function runRelay(argv: string[], stdin: string, env: NodeJS.ProcessEnv): Promise<Run> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const [cmd, ...args] = argv;
    const child = spawn(cmd as string, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const deadline = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the relay was still running after ${RUN_DEADLINE_MS} ms: ${argv.join(' ')}`));
    }, RUN_DEADLINE_MS);
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', (error) => (clearTimeout(deadline), reject(error)));
    child.on('close', (code) => (clearTimeout(deadline), resolve({ code, stdout, stderr, ms: performance.now() - started })));
    child.stdin.end(stdin);
  });
}

const sessionStart = {
  session_id: '3f1c…',
  transcript_path: '/home/u/.claude/projects/-work-app/3f1c.jsonl',
  cwd: '/work/app',
  hook_event_name: 'SessionStart',
  source: 'startup',
  note: 'non-ASCII survives: é ✓ 日本',
};

const hasCurl = which('curl') !== undefined;
const hasBash = which('bash') !== undefined;

describe('relay script', { timeout: 90_000 }, () => {
  let root: string;
  let server: HookServer;
  let folder: SessionFolder;
  let relay: InstalledRelay;
  let got: { event: string; payload: Record<string, unknown> }[];
  let shPath: string;

  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'bt-relay-'));
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
  beforeEach(async () => {
    server = await HookServer.start();
    got = [];
    const reg = server.register('tile-r', (_k, event, payload) => got.push({ event, payload }));
    folder = createSessionFolder(root, 'tile-r');
    relay = installRelay(folder, reg);
    shPath = which('sh') as string;
  });
  afterEach(async () => {
    folder.dispose();
    await server.close();
  });

  const cases: [string, string[], boolean][] = [
    ['curl', ['sh', 'cat', 'curl'], hasCurl],
    ['bash /dev/tcp (no curl on PATH)', ['sh', 'cat', 'bash'], hasBash],
  ];
  for (const [name, tools, available] of cases) {
    it.skipIf(!available)(`posts stdin to the server via ${name}, silently, exit 0`, async () => {
      // A UTF-8 locale, where a character count would not be the byte count HTTP needs.
      const env = { PATH: pathWith(root, tools), LC_ALL: 'C.UTF-8' };
      const run = await runRelay(['sh', '-c', relay.command()], JSON.stringify(sessionStart), env);
      expect(run).toMatchObject({ code: 0, stdout: '', stderr: '' });
      await waitFor(() => got.length === 1, { what: 'relayed payload', timeoutMs: 30_000 });
      expect(got[0]).toEqual({ event: 'SessionStart', payload: sessionStart });

      // Again, as a hook pays it (sh -c '<command>'): every call delivers. The cost per call is
      // printed with BELLTOWER_MEASURE=1 (node would be ~290 ms; the relay is ~10 ms on an idle
      // machine): a number for a benchmark, not for an assert on a loaded machine.
      const times: number[] = [];
      for (let i = 0; i < 8; i++) {
        const again = await runRelay(['sh', '-c', relay.command()], JSON.stringify(sessionStart), env);
        expect(again).toMatchObject({ code: 0, stdout: '', stderr: '' });
        times.push(again.ms);
      }
      await waitFor(() => got.length === 9, { what: 'every relayed payload', timeoutMs: 30_000 });
      times.sort((a, b) => a - b);
      if (process.env.BELLTOWER_MEASURE) console.info(`relay via ${name}: median ${times[4]?.toFixed(1)} ms, max ${times[7]?.toFixed(1)} ms`);
    });
  }

  it.skipIf(!hasCurl)('passes a Codex notify payload given as the last argument, with ?event=', async () => {
    const notify = { type: 'agent-turn-complete', 'thread-id': 't1', 'input-messages': ['hi'], 'last-assistant-message': 'done' };
    const run = await runRelay([...relay.argv('notify'), JSON.stringify(notify)], '', { PATH: process.env.PATH });
    expect(run.code).toBe(0);
    await waitFor(() => got.length === 1, { timeoutMs: 30_000 });
    expect(got[0]).toEqual({ event: 'notify', payload: notify });
  });

  it.skipIf(!hasBash)('passes an argv payload over bash /dev/tcp too', async () => {
    const env = { PATH: pathWith(root, ['sh', 'cat', 'bash']) };
    const run = await runRelay([...relay.argv('notify'), '{"type":"agent-turn-complete"}'], '', env);
    expect(run.code).toBe(0);
    await waitFor(() => got.length === 1, { timeoutMs: 30_000 });
    expect(got[0]?.event).toBe('notify');
  });

  // "At once" is not timed: a relay that waited on the gone server would not end, and runRelay
  // fails it at its deadline.
  it('exits 0 at once with neither curl nor bash, and when the server is gone', async () => {
    const bare = await runRelay([shPath, '-c', relay.command()], JSON.stringify(sessionStart), { PATH: pathWith(root, ['sh', 'cat']) });
    expect(bare).toMatchObject({ code: 0, stdout: '', stderr: '' });
    await server.close();
    for (const tools of [['sh', 'cat', 'curl'], ['sh', 'cat', 'bash']]) {
      const run = await runRelay(['sh', '-c', relay.command()], JSON.stringify(sessionStart), { PATH: pathWith(root, tools) });
      expect(run).toMatchObject({ code: 0, stdout: '', stderr: '' });
    }
    expect(got).toHaveLength(0);
  });

  it('keeps the token out of argv and in 0600 files', () => {
    expect(relay.command()).not.toMatch(/[0-9a-f]{64}/);
    for (const name of ['relay.sh', 'relay.curlrc']) {
      expect(fs.statSync(path.join(folder.dir, name)).mode & 0o777).toBe(0o600);
    }
  });
});
