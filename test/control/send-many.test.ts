/**
 * `belltower send` to several tiles at once, from a script: `send TILE,TILE… TEXT`, `send --all
 * TEXT`, `send --state STATE[,STATE…] TEXT`. The same text (and Enter) goes to each; one line per
 * tile says what happened; the exit status is 0 when every tile took it, 1 when one could not or
 * none was chosen (a TILE that is no tile sends nothing), 2 for a usage error. `send TILE TEXT`
 * stays one request with nothing printed. Against a control server in this process, through the
 * command line's parser.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CommanderError } from 'commander';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/main.js';
import { ControlServer } from '../../src/control/control-server.js';
import type { ControlTarget } from '../../src/control/control-target.js';
import type { TileInfo } from '../../src/control/protocol.js';
import { socketPath } from '../../src/control/socket-path.js';
import { belltowerDirs } from '../../src/platform/state-dir.js';

const info = (id: number, name: string, agent: string, state: TileInfo['state'], extra: Partial<TileInfo> = {}): TileInfo => ({
  id,
  name,
  agent,
  state,
  source: 'hook',
  confidence: 'first-party',
  reason: `${name} is ${state}`,
  sinceMs: 1000,
  ...extra,
});

let tiles: TileInfo[] = [];
let sent: { id: number; text: string; enter: boolean }[] = [];
/** Tiles whose send fails the way TileSet's does when the process ended meanwhile. */
let gone = new Set<number>();
const target: ControlTarget = {
  tileInfos: () => tiles,
  send: (tile, text, enter) => {
    if (gone.has(tile.id) || tile.exit) return `tile ${tile.id} (${tile.name}) has exited`;
    sent.push({ id: tile.id, text, enter });
    return null;
  },
  why: () => [],
  onChange: () => () => {},
};

let state = '';
let before: string | undefined;
let server: ControlServer;
beforeEach(async () => {
  state = mkdtempSync(join(tmpdir(), 'bt-send-'));
  before = process.env.BELLTOWER_STATE_DIR;
  process.env.BELLTOWER_STATE_DIR = state;
  server = await ControlServer.listen(socketPath(belltowerDirs().runtime, 'bc'), target);
  tiles = [
    info(1, 'api', 'claude', 'done'),
    info(2, 'web', 'codex', 'idle'),
    // A finished command: done, and its process has ended.
    info(3, 'build', 'command', 'done', { exit: { code: 0, signal: null, closed: false } }),
    info(4, 'sh', 'shell', 'working'),
  ];
  sent = [];
  gone = new Set();
});
afterEach(async () => {
  await server.close();
  if (before === undefined) delete process.env.BELLTOWER_STATE_DIR;
  else process.env.BELLTOWER_STATE_DIR = before;
  rmSync(state, { recursive: true, force: true });
});

async function send(...args: string[]): Promise<{ code: number; lines: string[]; errors: string[] }> {
  const lines: string[] = [];
  const errors: string[] = [];
  let code = -1;
  try {
    await buildProgram({ line: (t) => lines.push(t), error: (t) => errors.push(t) }, (c) => (code = c)).parseAsync(['node', 'belltower', 'send', '--session', 'bc', ...args]);
  } catch (error) {
    // What main() makes of commander's own usage errors (it has said them on stderr).
    if (!(error instanceof CommanderError)) throw error;
    code = 2;
  }
  return { code, lines, errors };
}

const ids = () => sent.map((s) => s.id);

describe.skipIf(process.platform === 'win32')('send to several tiles', () => {
  it('TILE,TILE… sends the same text and Enter to each, by number or name, once each, in that order', async () => {
    const result = await send('web,1,api', 'run the tests', '--enter');
    expect(result.code, result.errors.join('\n')).toBe(0);
    expect(sent).toEqual([
      { id: 2, text: 'run the tests', enter: true },
      { id: 1, text: 'run the tests', enter: true },
    ]);
    expect(result.lines).toHaveLength(2);
    expect(result.lines[0]).toMatch(/^sent: +2 {2}web +idle/);
    expect(result.lines[1]).toMatch(/^sent: +1 {2}api +done/);
    expect(result.errors).toEqual([]);
  });

  it('a TILE that is no tile sends nothing, and says which tiles there are: exit 1', async () => {
    const result = await send('1,wbe', 'hello');
    expect(result.code).toBe(1);
    expect(sent).toEqual([]);
    expect(result.errors).toEqual(['belltower: no tile "wbe" (tiles: 1 api done, 2 web idle, 3 build done, 4 sh working); nothing sent']);
  });

  it('a named tile that cannot take it is said, the others still get it: exit 1', async () => {
    const result = await send('1,build,4', 'hello');
    expect(result.code).toBe(1);
    expect(ids()).toEqual([1, 4]);
    expect(result.lines.map((l) => l.split(/ +/).slice(0, 3).join(' '))).toEqual(['sent: 1 api', 'sent: 4 sh']);
    expect(result.errors).toEqual(['belltower: not sent to 3 build: tile 3 (build) has exited']);
  });

  it('--all: every tile whose program still runs; an ended one is skipped, one that ends meanwhile fails: exit 1', async () => {
    gone.add(4);
    const result = await send('--all', 'hello');
    expect(result.code).toBe(1);
    expect(ids()).toEqual([1, 2]);
    expect(result.lines.map((l) => l.split(/ +/).slice(0, 3).join(' '))).toEqual(['skipped: 3 build', 'sent: 1 api', 'sent: 2 web']);
    expect(result.lines[0]).toMatch(/\(it has exited\)$/);
    expect(result.errors).toEqual(['belltower: not sent to 4 sh: tile 4 (sh) has exited']);
  });

  it('--all: exit 0 when every running tile took it', async () => {
    const result = await send('--all', 'hello');
    expect(result.code).toBe(0);
    expect(ids()).toEqual([1, 2, 4]);
  });

  it('--state picks the running tiles in that state, or in one of several', async () => {
    const done = await send('--state', 'done', 'next task', '--enter');
    expect(done.code).toBe(0);
    expect(sent).toEqual([{ id: 1, text: 'next task', enter: true }]);
    expect(done.lines.map((l) => l.split(/ +/).slice(0, 3).join(' '))).toEqual(['skipped: 3 build', 'sent: 1 api']);
    sent = [];
    expect((await send('--state', 'done,idle', 'x')).code).toBe(0);
    expect(ids()).toEqual([1, 2]);
  });

  it('--state that no running tile is in sends nothing: exit 1', async () => {
    const result = await send('--state', 'blocked', 'yes');
    expect(result.code).toBe(1);
    expect(sent).toEqual([]);
    expect(result.errors).toEqual(['belltower: no running tile is blocked (tiles: 1 api done, 2 web idle, 3 build done, 4 sh working); nothing sent']);
  });

  it.each([
    [['--state', 'soon', 'x'], 'belltower: --state takes one or more of starting, working, blocked, done, idle, exited, failed, unknown, separated by commas (got "soon")'],
    [['--all', '1', 'x'], 'belltower: with --all, give only TEXT: --all picks the tiles (to name them: send TILE,TILE… TEXT)'],
    [['--all', '--state', 'done', 'x'], 'belltower: --all and --state pick the tiles two ways: give one (--state picks among every tile)'],
    [['1,,2', 'x'], 'belltower: TILE,TILE…: a tile is missing between the commas (got "1,,2")'],
    [['--all'], "error: missing required argument 'text'"],
    [[], "error: missing required argument 'tile'"],
    [['1'], "error: missing required argument 'text'"],
  ])('send %j is a usage error: exit 2, nothing sent', async (args, said) => {
    const result = await send(...args);
    expect(result.code).toBe(2);
    expect(result.errors).toEqual([said]);
    expect(sent).toEqual([]);
  });

  it('send 1 3 TEXT is refused, not guessed at', async () => {
    const result = await send('1', '3', 'x');
    expect(result.code).toBe(2);
    expect(result.errors.join('\n')).toMatch(/too many arguments/);
    expect(sent).toEqual([]);
  });
});

describe.skipIf(process.platform === 'win32')('send TILE TEXT', () => {
  it('is as it was: one tile, nothing printed, exit 0; a missing tile exit 1', async () => {
    const ok = await send('web', 'hello', '--enter');
    expect(ok).toEqual({ code: 0, lines: [], errors: [] });
    expect(sent).toEqual([{ id: 2, text: 'hello', enter: true }]);
    const missing = await send('9', 'hello');
    expect(missing.code).toBe(1);
    expect(missing.errors).toEqual(['belltower: no tile "9" (tiles: 1 api, 2 web, 3 build, 4 sh)']);
  });

  it('a tile whose name has a comma is that one tile', async () => {
    tiles.push(info(5, 'a,b', 'command', 'working'));
    const result = await send('a,b', 'hello');
    expect(result).toEqual({ code: 0, lines: [], errors: [] });
    expect(ids()).toEqual([5]);
  });
});
