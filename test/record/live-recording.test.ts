/**
 * Recordings as belltower writes them live (the built CLI, a real pty): what they hold, and how a
 * recording cut short by a crash reads.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseRecording } from '../../src/record/format.js';

const run = promisify(execFile);
const repo = join(import.meta.dirname, '..', '..');
const bin = join(repo, 'bin', 'belltower.js');

let work = '';
beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'bt-live-rec-'));
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

const env = () => ({ ...process.env, BELLTOWER_STATE_DIR: join(work, 'state'), CI: '' });
const b64 = (text: string) => Buffer.from(text).toString('base64');

async function belltower(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], { cwd: work, env: env() });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** An agent that says private things in its title, its OSC 7501 messages and a notification. */
function talkativeAgent(): string {
  const path = join(work, 'agent.sh');
  writeFileSync(
    path,
    [
      `printf '\\033]0;⠋ building the-secret-project\\007'`,
      `printf '\\033]7501;state=working:title=${b64('the-secret-title')}:msg=${b64('compiling the-secret-file.ts')}\\007'`,
      `printf '\\033]9;the-secret-notification\\007'`,
      'sleep 0.2',
      `printf '\\033]7501;state=done:msg=${b64('the-secret-summary')}\\007'`,
      'sleep 1.2',
    ].join('\n'),
  );
  return `sh ${path}`;
}

function onlyRecording(dir: string): string {
  const files = readdirSync(dir);
  expect(files).toHaveLength(1);
  return readFileSync(join(dir, files[0] as string), 'utf8');
}

describe('a live recording', () => {
  it('holds none of the agent text, ends with an end line, and replays to its verdicts', async () => {
    const dir = join(work, 'rec');
    const result = await belltower('run', '--headless', '--record', dir, talkativeAgent());
    expect(result.code).toBe(0);
    const text = onlyRecording(dir);
    expect(text).not.toMatch(/secret/);
    expect(text).not.toContain(b64('compiling the-secret-file.ts'));
    const recording = parseRecording(text);
    expect(recording.header.version).toBe(2);
    expect(recording.ended).toBe(true);
    expect(recording.lines.at(-1)?.type).toBe('end');
    // A plain command: working from its start, done when it says so; its exit with 0 keeps the done.
    expect(recording.lines.filter((l) => l.type === 'verdict').map((l) => (l.type === 'verdict' ? l.to : ''))).toEqual(['working', 'done']);
    const file = join(dir, readdirSync(dir)[0] as string);
    const check = await belltower('replay', file, '--check');
    expect(check.code).toBe(0);
    expect(check.stderr).toMatch(/check passed: 2 verdicts match the recording/);
    expect(check.stderr).not.toMatch(/truncated/);
  }, 30_000);

  it('with --record-text, holds the text as received, and says so in its header', async () => {
    const dir = join(work, 'rec');
    expect((await belltower('run', '--headless', '--record', dir, '--record-text', talkativeAgent())).code).toBe(0);
    const text = onlyRecording(dir);
    expect(text).toContain('the-secret-project');
    expect(text).toContain(b64('compiling the-secret-file.ts'));
    expect(parseRecording(text).header.text).toBe(true);
  }, 30_000);

  it('cut short by a crash: replay says it is truncated, and --check compares what it holds', async () => {
    const dir = join(work, 'rec');
    const agent = join(work, 'slow.sh');
    writeFileSync(agent, `printf '\\033]7501;state=working\\007'; sleep 0.3; printf '\\033]7501;state=done\\007'; sleep 60\n`);
    const child = spawn(process.execPath, [bin, 'run', '--headless', '--record', dir, `sh ${agent}`], { cwd: work, env: env() });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    const deadline = Date.now() + 15_000;
    while (!out.includes('"to":"done"') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(out).toContain('"to":"done"');
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    const file = join(dir, readdirSync(dir)[0] as string);
    expect(parseRecording(readFileSync(file, 'utf8')).ended).toBe(false);
    const check = await belltower('replay', file, '--check');
    expect(check.code).toBe(0);
    expect(check.stderr).toMatch(/note: truncated recording \(belltower did not finish writing it\)/);
    expect(check.stderr).toMatch(/check passed: the 2 verdicts the recording holds match/);
  }, 30_000);
});

describe('reading the end of a recording', () => {
  const header = '{"type":"header","format":"belltower-recording","version":2,"agent":"shell","cols":80,"rows":24,"startedAt":"2026-11-30T09:39:44.000Z"}';

  it('refuses a line after the end line', () => {
    expect(() => parseRecording(`${header}\n{"type":"end","t":5,"seq":1}\n{"type":"seen","t":6,"seq":2}\n`, 'r.jsonl')).toThrow(/r\.jsonl:3: a line after the end line/);
  });

  it('a half-written last line of a version 2 recording is what the crash cut: the rest is read', () => {
    const parsed = parseRecording(`${header}\n{"type":"seen","t":6,"seq":1}\n{"type":"pty","t":7,"se`);
    expect(parsed.lines).toHaveLength(1);
    expect(parsed.ended).toBe(false);
  });

  it('version 1 recordings have no end line and are not called truncated', async () => {
    const v1 = header.replace('"version":2', '"version":1');
    expect(parseRecording(`${v1}\n{"type":"seen","t":6,"seq":1}\n`).ended).toBeNull();
    expect(() => parseRecording(`${v1}\n{"type":"end","t":6,"seq":1}\n`)).toThrow(/unknown line type "end"/);
  });
});
