/**
 * `wait --for finished`: the tile's current command or turn has ended, however short it was (a
 * shell command under `longCommandMs` ends idle, never done, so `--for done` never came for it).
 * The rule itself (pure), then a real bash tile behind the control socket, from the sources: the
 * wait returns for `true` and `sleep 0.2`, and never with the state from before the line it waits
 * for. Also: a timeout is told as the user wrote it, and a wrong tile name in plain words.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseSpec } from '../../src/agents/launch-spec.js';
import { request } from '../../src/control/control-client.js';
import { ControlServer } from '../../src/control/control-server.js';
import type { ControlTarget } from '../../src/control/control-target.js';
import { hasFinished, parseRequest, reaches } from '../../src/control/protocol.js';
import type { TileInfo } from '../../src/control/protocol.js';
import { formatDuration } from '../../src/verdict/duration.js';
import { parseWorkspace } from '../../src/workspace/workspace-file.js';
import { installed, testSet, until } from '../tile/helpers.js';
import type { TestSet } from '../tile/helpers.js';

const info = (over: Partial<TileInfo>): TileInfo => ({ id: 1, name: 'sh', agent: 'shell', state: 'idle', source: 'shell', confidence: 'first-party', reason: 'r', sinceMs: 0, ...over });

describe('the rule: what "finished" means for each kind of tile', () => {
  it('a shell has finished at its prompt again, whatever the command took; not while it runs', () => {
    expect(hasFinished(info({ state: 'idle', reason: '"true" finished in 0.0 s: shorter than 10.0 s, no bell' }))).toBe(true);
    expect(hasFinished(info({ state: 'done' }))).toBe(true);
    expect(hasFinished(info({ state: 'failed' }))).toBe(true);
    for (const state of ['starting', 'working', 'blocked', 'unknown'] as const) expect(hasFinished(info({ state })), state).toBe(false);
    // Its state from before the line it was just sent is the previous command's end.
    expect(hasFinished(info({ state: 'idle', inputPending: true }))).toBe(false);
    // A shell that exited will not finish anything: the wait ends there as for every state.
    expect(hasFinished(info({ state: 'exited', exit: { code: 0, signal: null, closed: false } }))).toBe(false);
  });

  it('an agent has finished when its turn ended, done or failed; idle is no turn end', () => {
    for (const agent of ['claude', 'codex', 'gemini']) {
      expect(hasFinished(info({ agent, state: 'done' })), agent).toBe(true);
      expect(hasFinished(info({ agent, state: 'failed' })), agent).toBe(true);
      expect(hasFinished(info({ agent, state: 'idle' })), agent).toBe(false);
      expect(hasFinished(info({ agent, state: 'working' })), agent).toBe(false);
      expect(hasFinished(info({ agent, state: 'failed', inputPending: true })), agent).toBe(false);
    }
  });

  it('a command tile has finished when its process exited, with any status', () => {
    expect(hasFinished(info({ agent: 'command', state: 'working' }))).toBe(false);
    expect(hasFinished(info({ agent: 'command', state: 'failed', exit: { code: 3, signal: null, closed: false } }))).toBe(true);
    expect(hasFinished(info({ agent: 'command', state: 'done', exit: { code: 0, signal: null, closed: false } }))).toBe(true);
    expect(reaches(info({ agent: 'command', state: 'done', exit: { code: 0, signal: null, closed: false } }), 'finished')).toBe(true);
  });

  it('the protocol takes it', () => {
    const parsed = parseRequest(JSON.stringify({ v: 1, id: 3, op: 'wait', tile: 'sh', for: 'finished', timeoutMs: 20_000, timeoutText: '20s' }));
    expect(parsed).toMatchObject({ ok: true, request: { for: 'finished', timeoutText: '20s' } });
  });
});

describe('a timeout is told as the user wrote it', () => {
  let dir = '';
  let server: ControlServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('"timed out after 300ms", not in milliseconds belltower worked out; a raw client gets a readable one too', async () => {
    dir = mkdtempSync(join(tmpdir(), 'bt-wait-'));
    const tile = info({ state: 'working' });
    const target: ControlTarget = { tileInfos: () => [tile], send: () => null, why: () => [], onChange: () => () => {} };
    const path = join(dir, 'control', 's.sock');
    server = await ControlServer.listen(path, target);
    const given = await request(path, { op: 'wait', tile: '1', for: 'finished', timeoutMs: 300, timeoutText: '300ms' });
    expect(given).toMatchObject({ ok: false, timeout: true, error: 'tile 1 (sh) did not finish its command or turn: timed out after 300ms' });
    const raw = await request(path, { op: 'wait', tile: '1', for: 'idle', timeoutMs: 1_500 });
    expect(raw).toMatchObject({ ok: false, timeout: true, error: 'tile 1 (sh) did not become idle: timed out after 1.5s' });
  });

  it('durations nobody wrote read the way people write them', () => {
    expect([300, 1_500, 20_000, 600_000, 5_400_000, 3_600_000, 90_000].map(formatDuration)).toEqual(['300ms', '1.5s', '20s', '10m', '1h30m', '1h', '1m30s']);
  });
});

describe('a tile name that is too long is said in plain words, the same everywhere', () => {
  const name = 'n'.repeat(50);
  const plain = 'a tile name is at most 40 characters (got 50)';

  it('over the control socket (add and rename)', () => {
    const add = parseRequest(JSON.stringify({ v: 1, id: 1, op: 'add', spec: 'shell', name }));
    expect(add).toEqual({ ok: false, id: 1, error: `name: ${plain}` });
    const rename = parseRequest(JSON.stringify({ v: 1, id: 2, op: 'rename', tile: '1', name }));
    expect(rename).toEqual({ ok: false, id: 2, error: `name: ${plain}` });
    expect(parseRequest(JSON.stringify({ v: 1, id: 3, op: 'rename', tile: '1', name: 'a b' }))).toMatchObject({ error: 'name: a tile name is letters, digits, dots, dashes and underscores (got "a b")' });
  });

  it('in the workspace file, with its line and field', () => {
    const result = parseWorkspace(`{\n  "tiles": [\n    { "agent": "shell", "name": "${name}" }\n  ]\n}\n`, '/nowhere/belltower.json', 'belltower.json');
    expect(result).toEqual({ ok: false, errors: [`belltower.json:3: tiles[0].name: ${plain}`] });
    // The rules are the grid's own: a name of digits alone would read as a tile number.
    expect(parseWorkspace('{ "tiles": [ { "agent": "shell", "name": "12" } ] }', '/nowhere/belltower.json', 'belltower.json')).toMatchObject({
      ok: false,
      errors: ['belltower.json:1: tiles[0].name: a tile name cannot be only digits: "12" would read as a tile number'],
    });
  });

  it('where a running belltower checks it (add from the grid or a script, rename)', async () => {
    const current = testSet();
    try {
      await current.set.add(parseSpec('sleep 60'));
      expect(await current.set.addTile('sleep 61', { name })).toBe(plain);
      expect(current.set.renameTile(current.set.tileInfos()[0]!, name)).toBe(plain);
    } finally {
      await current.cleanup();
    }
  });
});

describe.skipIf(!installed('bash'))('a real bash tile behind the control socket', () => {
  let current: TestSet | undefined;
  let server: ControlServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
    await current?.cleanup();
    current = undefined;
  });

  it('wait --for finished returns for `true` and `sleep 0.2` (which end idle, never done), and never with the state from before', async () => {
    const home = mkdtempSync(join(tmpdir(), 'belltower-home-'));
    writeFileSync(join(home, '.bashrc'), "PS1='$ '\n");
    current = testSet({ env: { ...process.env, HOME: home } });
    const path = join(current.dir, 'control', 'wait.sock');
    server = await ControlServer.listen(path, current.set);
    try {
      const tile = await current.set.add(parseSpec('bash'));
      await until('the prompt', () => tile.verdict.state === 'idle');
      // At its prompt with nothing sent, a shell has nothing running: finished.
      expect(await request(path, { op: 'wait', tile: '1', for: 'finished', timeoutMs: 30_000 })).toMatchObject({ ok: true, reached: { state: 'idle' } });

      for (const command of ['true', 'sleep 0.2']) {
        // Sent and waited for at once, as a script does: the idle from before the line is not its end.
        expect(await request(path, { op: 'send', tile: '1', text: command, enter: true })).toMatchObject({ ok: true });
        expect(tile.info()).toMatchObject({ state: 'idle', inputPending: true });
        const waited = await request(path, { op: 'wait', tile: '1', for: 'finished', timeoutMs: 30_000 });
        expect(waited, command).toMatchObject({ ok: true, reached: { state: 'idle' } });
        expect((waited as { reached: TileInfo }).reached.reason).toContain(`"${command}" finished in`);
        expect((waited as { reached: TileInfo }).reached).not.toHaveProperty('inputPending');
        // `--for done` would still be waiting: a short command never rings.
        expect(tile.verdict.state).toBe('idle');
      }
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  }, 60_000);

  it('a shell that exits before its command finishes ends the wait at once, with why', async () => {
    current = testSet();
    const path = join(current.dir, 'control', 'exit.sock');
    server = await ControlServer.listen(path, current.set);
    const tile = await current.set.add(parseSpec('bash'));
    await until('the prompt', () => tile.verdict.state === 'idle');
    await request(path, { op: 'send', tile: '1', text: 'sleep 0.3; exit 4', enter: true });
    const waited = await request(path, { op: 'wait', tile: '1', for: 'finished', timeoutMs: 30_000 });
    expect(waited).toMatchObject({ ok: false });
    expect((waited as { error: string }).error).toMatch(/^tile 1 \(bash\) exited \(exited with code 4\) before its command or turn finished$/);
  }, 60_000);
});
