/**
 * The built CLI, run the way a user runs it (node bin/belltower.js): sources passing under vitest
 * is not enough (@xterm/headless's CommonJS import only fails in plain Node).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const repo = join(import.meta.dirname, '..', '..');
const bin = join(repo, 'bin', 'belltower.js');

async function belltower(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return belltowerWith({}, ...args);
}

async function belltowerWith(env: Record<string, string>, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], { cwd: repo, env: { ...process.env, ...env } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('the built CLI', () => {
  it("compiles string-width's emoji pattern on its first use, not as it loads (scripts/bundle.mjs)", () => {
    const bundle = join(repo, 'dist', 'bundle');
    const code = readdirSync(bundle).filter((f) => f.endsWith('.js')).map((f) => readFileSync(join(bundle, f), 'utf8')).join('\n');
    expect(code).toContain('rgiEmojiPattern ??=');
    expect(code).not.toMatch(/^var rgiEmojiRegex = new RegExp/m);
  });

  it("keeps zod's English messages alone (scripts/bundle.mjs): a recording line of the wrong shape is told in them", async () => {
    const bundle = join(repo, 'dist', 'bundle');
    const code = readdirSync(bundle).filter((f) => f.endsWith('.js')).map((f) => readFileSync(join(bundle, f), 'utf8')).join('\n');
    // German's words for a wrong type (zod's de locale): in every build of zod's namespace but this one.
    expect(code).not.toContain('Eingabe: erwartet');
    const dir = mkdtempSync(join(tmpdir(), 'belltower-cli-'));
    const file = join(dir, 'wrong-shape.jsonl');
    const good = readFileSync(join(repo, 'fixtures/scenarios/plain-turn.jsonl'), 'utf8').split('\n');
    writeFileSync(file, [...good.slice(0, 3), '{"type":"hook","t":"soon"}'].join('\n'));
    const result = await belltower('replay', file, '--json');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(':4: bad hook line: t: Invalid input: expected number, received string');
  });

  it("bundles React's production build alone, and leaves NODE_ENV to the user: a tile's program sees it as the user set it, or not at all", async () => {
    const bundle = join(repo, 'dist', 'bundle');
    const code = readdirSync(bundle).filter((f) => f.endsWith('.js')).map((f) => readFileSync(join(bundle, f), 'utf8')).join('\n');
    expect(code).toContain('react-reconciler.production.js');
    expect(code).not.toContain('react-reconciler.development.js');
    const dir = mkdtempSync(join(tmpdir(), 'belltower-cli-'));
    const seen = join(dir, 'node-env');
    const { NODE_ENV: _ignored, ...withoutNodeEnv } = process.env;
    for (const [env, expected] of [[withoutNodeEnv, 'unset'], [{ ...withoutNodeEnv, NODE_ENV: 'development' }, 'development']] as const) {
      await run(process.execPath, [bin, 'run', '--headless', `sh -c 'printf %s "\${NODE_ENV-unset}" > ${seen}'`], { cwd: dir, env: { ...env, BELLTOWER_STATE_DIR: join(dir, 'state') } });
      expect(readFileSync(seen, 'utf8')).toBe(expected);
    }
  });

  it('prints its version and help', async () => {
    const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { version: string };
    expect((await belltower('--version')).stdout.trim()).toBe(pkg.version);
    const help = await belltower('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/replay/);
  });

  it('replays a fixture as JSON lines in the contract shape', async () => {
    const result = await belltower('replay', 'fixtures/scenarios/plain-turn.jsonl', '--json', '--check');
    expect(result.code).toBe(0);
    const rows = result.stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(rows.at(-1)).toMatchObject({ t: 7050, tile: 1, name: 'plain-turn', from: 'working', to: 'done', source: 'hook' });
    expect(Object.keys(rows[0] ?? {}).slice(0, 7)).toEqual(['t', 'tile', 'name', 'from', 'to', 'source', 'reason']);
  });

  it('exits 2 with the line number on a corrupt recording, printing no timeline', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'belltower-cli-'));
    const file = join(dir, 'bad.jsonl');
    const good = readFileSync(join(repo, 'fixtures/scenarios/plain-turn.jsonl'), 'utf8').split('\n');
    writeFileSync(file, [...good.slice(0, 3), '{"type":"hook","t":', ...good.slice(3)].join('\n'));
    const result = await belltower('replay', file, '--json');
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`${file}:4: not JSON`);
  });

  it('exits 1 under --check when a verdict differs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'belltower-cli-'));
    const file = join(dir, 'changed.jsonl');
    writeFileSync(file, readFileSync(join(repo, 'fixtures/scenarios/plain-turn.jsonl'), 'utf8').replace('"t":7050', '"t":7049'));
    const result = await belltower('replay', file, '--check');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/verdict 3 differs/);
  });

  it('without a terminal, the grid says it needs one and what to run instead', async () => {
    const result = await belltower('shell', 'npm test');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/the full-screen UI needs a terminal/);
    expect(result.stderr).toContain('belltower run --headless');
  });

  it('without a SPEC and without claude installed, points at the demo', async () => {
    const result = await belltowerWith({ PATH: '/nonexistent', BELLTOWER_CLAUDE_BIN: '' });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/`claude` is not installed here/);
    expect(result.stderr).toContain('belltower demo');
  });

  it('piped, the demo prints verdict lines instead of opening the grid', async () => {
    const result = await belltower('demo', '--seconds', '3');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/simulated agents/);
    expect(result.stdout).toMatch(/working/);
  });

  it('help is help, with the exit status table; a mistyped command gets "did you mean", not a tile', async () => {
    const help = await belltower('help');
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/Usage: belltower/);
    expect(help.stdout).toMatch(/Exit status:\n  0 .*\n  1 /);
    expect(help.stdout).toMatch(/129 130 143 +belltower was ended by SIGHUP, SIGINT \(Ctrl-C\), SIGTERM/);
    expect((await belltower('help', 'run')).stdout).toMatch(/Usage: belltower run/);
    expect((await belltower('run', '--help')).stdout).toMatch(/Exit status:/);

    const typo = await belltower('lss');
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/"lss" is neither a belltower command nor a program on your PATH/);
    expect(typo.stderr).toMatch(/did you mean: +belltower ls\n/);
    expect(typo.stdout).toBe('');
  });

  it('replay without --json prints text from the agent without its control characters', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'belltower-cli-'));
    const file = join(dir, 'evil.jsonl');
    const msg = Buffer.from('\x1b]52;c;ZXZpbA==\x07\x1b[2J').toString('base64');
    writeFileSync(
      file,
      [
        '{"type":"header","format":"belltower-recording","version":1,"agent":"shell","cols":80,"rows":24,"startedAt":"2026-11-30T09:39:44.000Z","name":"evil\\u001b[31m"}',
        `{"type":"osc","t":10,"seq":1,"code":7501,"payload":"state=blocked:kind=question:msg=${msg}"}`,
        '{"type":"osc","t":20,"seq":2,"code":7501,"payload":"state=bogus\\u001b]0;x\\u0007"}',
      ].join('\n'),
    );
    const text = await belltower('replay', file);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/\\x1b\]52;c;ZXZpbA==/);
    expect(text.stdout + text.stderr).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
    const json = await belltower('replay', file, '--json');
    expect(JSON.parse(json.stdout.split('\n')[0] ?? '').reason).toContain('\x1b]52;c;ZXZpbA==');
  });

  it('says plainly when the file does not exist', async () => {
    const result = await belltower('replay', 'no/such/file.jsonl');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/cannot read no\/such\/file\.jsonl: no such file/);
  });
});
