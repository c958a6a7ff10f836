/**
 * The full-screen grid in a real terminal: the built CLI inside tmux, driven with send-keys and
 * read with capture-pane, every bell counted by tmux's alert-bell hook. The simulated agents of the
 * demo stand in for real ones (test/e2e/claude-grid.test.ts runs the real Claude).
 *
 * `CI` is cleared for the belltower under test: with it set, the demo prints lines instead of
 * opening the grid.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { headerOf, stateOf, Tmux, tmuxMissing } from '../support/tmux.js';

const repo = join(import.meta.dirname, '..', '..');
const bin = join(repo, 'bin', 'belltower.js');
const sim = join(repo, 'demo', 'sim-agent.mjs');
const missing = tmuxMissing();

const opened: Tmux[] = [];
const folders: string[] = [];
afterEach(() => {
  for (const t of opened.splice(0)) t.close();
  for (const f of folders.splice(0)) rmSync(f, { recursive: true, force: true });
});

function q(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Start belltower with `args` in a fresh tmux window; the script records the terminal's modes
 * before and after, and prints markers around the run. */
function start(args: string[], size = { cols: 160, rows: 45 }, node: string[] = []): { tmux: Tmux; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'belltower-grid-'));
  folders.push(dir);
  const command = [
    `stty -a > ${dir}/stty-before`,
    `echo BEFORE-BELLTOWER`,
    `${q(process.execPath)} ${node.map(q).join(' ')} ${q(bin)} ${args.map(q).join(' ')} 2> ${dir}/stderr`,
    `echo "EXIT=$?" > ${dir}/exit`,
    `stty -a > ${dir}/stty-after`,
    `echo AFTER-BELLTOWER`,
    `sleep 600`,
  ].join('\n');
  const env: Record<string, string | undefined> = { ...process.env, CI: undefined, BELLTOWER_STATE_DIR: join(dir, 'state'), NO_COLOR: undefined };
  for (const name of Object.keys(env)) if (name.startsWith('VITEST') || name === 'NODE_OPTIONS') env[name] = undefined;
  const tmux = new Tmux({ ...size, command, env, cwd: repo });
  opened.push(tmux);
  return { tmux, dir };
}

/** A simulated agent as a command tile (named `node`, `node-2`, … after its command). */
function simSpec(name: string, plan: string): string {
  return `${q(process.execPath)} ${q(sim)} ${name} ${plan}`;
}

function exitCode(dir: string): number | null {
  try {
    const m = /EXIT=(\d+)/.exec(readFileSync(join(dir, 'exit'), 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

async function exited(tmux: Tmux, dir: string): Promise<number> {
  await tmux.until('belltower to exit', () => exitCode(dir) !== null, 15_000);
  await tmux.waitFor('the script after belltower', (s) => s.includes('AFTER-BELLTOWER'));
  return exitCode(dir)!;
}

/** The terminal is as it was: main screen with what was there before, cursor shown, same modes. */
function expectRestored(tmux: Tmux, dir: string): void {
  expect(tmux.show('#{alternate_on}')).toBe('0');
  expect(tmux.show('#{cursor_flag}')).toBe('1');
  const screen = tmux.screen();
  expect(screen).toContain('BEFORE-BELLTOWER');
  expect(readFileSync(join(dir, 'stty-after'), 'utf8')).toBe(readFileSync(join(dir, 'stty-before'), 'utf8'));
  // Nothing but frames reached the terminal while belltower ran.
  expect(readFileSync(join(dir, 'stderr'), 'utf8')).toBe('');
}

const TILE = /[╭┏╔] \d+ \S+ /;
const headers = (screen: string) => screen.split('\n').flatMap((line) => line.match(new RegExp(TILE.source, 'g')) ?? []);

describe.skipIf(missing !== null)('the grid in a real terminal (tmux)', () => {
  it('opens the demo, moves, zooms, focuses, types into a tile, leaves focus, resizes, and quits cleanly', async () => {
    const { tmux, dir } = start(['demo']);
    let screen = await tmux.waitFor('five demo tiles', (s) => headers(s).length === 5);
    expect(screen).toMatch(/belltower · 5 tiles/);
    // The first tile is selected: its frame is the heavy one.
    expect(headerOf(screen, 1, 'api')).toMatch(/┏ 1 api /);

    tmux.keys('l');
    screen = await tmux.waitFor('tile 2 selected', (s) => /┏ 2 web /.test(s));
    expect(headerOf(screen, 1, 'api')).toMatch(/╭ 1 api /);
    tmux.keys('j');
    await tmux.waitFor('the tile below selected', (s) => /┏ 5 notes /.test(s) || /┏ 4 tests /.test(s));
    tmux.keys('3');
    await tmux.waitFor('tile 3 selected by number', (s) => /┏ 3 docs /.test(s));

    tmux.keys('z');
    screen = await tmux.waitFor('tile 3 zoomed', (s) => headers(s).length === 1 && /┏ 3 docs /.test(s));
    expect(screen).toMatch(/z unzoom/);
    tmux.keys('z');
    await tmux.waitFor('the grid back', (s) => headers(s).length === 5);

    tmux.keys('1', 'Enter');
    await tmux.waitFor('focus mode on tile 1', (s) => s.includes('FOCUS 1 api') && /╔ 1 api /.test(s));
    tmux.type('ship it');
    tmux.keys('Enter');
    await tmux.waitFor('the prompt to reach the agent', (s) => s.includes('answering "ship it"'));
    expect(tmux.show('#{cursor_flag}')).toBe('1');

    tmux.keys('C-\\');
    await tmux.waitFor('back in the grid', (s) => s.includes('belltower · 5 tiles') && /┏ 1 api /.test(s));

    tmux.resize(100, 30);
    await tmux.waitFor('the grid laid out again at 100×30', (s) => headers(s).length === 5 && s.split('\n')[0]!.length <= 100 && /belltower · 5/.test(s));
    tmux.resize(40, 10);
    await tmux.waitFor('the too-small message', (s) => s.includes('belltower needs a larger terminal'));
    tmux.resize(160, 45);
    await tmux.waitFor('the grid again', (s) => headers(s).length === 5);

    tmux.keys('q');
    screen = await tmux.waitFor('quit asks or quits', (s) => s.includes('quit belltower?') || s.includes('AFTER-BELLTOWER'));
    if (screen.includes('quit belltower?')) tmux.keys('y');
    expect(await exited(tmux, dir)).toBe(0);
    expectRestored(tmux, dir);
  });

  it('rings exactly one bell per edge into done or blocked, and none for /clear', async () => {
    // One tile that finishes a turn, gets a /clear, and finishes another; one that asks for
    // permission and then finishes. Edges that ring: done, done (tile 1); blocked, done (tile 2).
    const { tmux, dir } = start([simSpec('one', 'rest:1,work:1,done,rest:2,clear,rest:2,work:1,done,rest:600'), simSpec('two', 'rest:5,work:1,ask:2,work:1,done,rest:600'), '--session', 'bells']);
    await tmux.waitFor('two tiles', (s) => headers(s).length === 2);

    await tmux.waitFor('tile 1 done', (s) => stateOf(s, 1, 'node') === 'done');
    await tmux.until('the first bell', () => tmux.bells() >= 1);
    // The /clear: the tile goes to rest, and no bell comes with it.
    await tmux.waitFor('tile 1 cleared', (s) => s.includes('(conversation cleared)') && stateOf(s, 1, 'node') === 'idle');
    expect(tmux.bells()).toBe(1);

    await tmux.waitFor('tile 2 blocked', (s) => stateOf(s, 2, 'node-2') === 'blocked:');
    await tmux.until('the blocked bell', () => tmux.bells() >= 2);
    await tmux.waitFor('both done', (s) => stateOf(s, 1, 'node') === 'done' && stateOf(s, 2, 'node-2') === 'done');
    await tmux.until('four bells', () => tmux.bells() >= 4);
    // Nothing more to ring: both rest for minutes now.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(tmux.bells()).toBe(4);

    tmux.keys('q');
    expect(await exited(tmux, dir)).toBe(0);
    expectRestored(tmux, dir);
  });

  it('shows why a tile is in its state, and lists every key', async () => {
    const { tmux, dir } = start([simSpec('solo', 'rest:1,work:1,done,rest:600')]);
    await tmux.waitFor('the tile done', (s) => stateOf(s, 1, 'node') === 'done');
    tmux.keys('w');
    let screen = await tmux.waitFor('the why overlay', (s) => s.includes('why 1 node'));
    expect(screen).toMatch(/done for \S+, decided by OSC 7501/);
    expect(screen).toMatch(/turn-end: held: conflict window/);
    tmux.keys('Escape');
    await tmux.waitFor('the overlay closed', (s) => !s.includes('why 1 node'));
    tmux.keys('?');
    screen = await tmux.waitFor('the key list', (s) => s.includes('focus the selected tile'));
    expect(screen).toMatch(/Ctrl\+\\ +back to the grid/);
    tmux.keys('?');
    await tmux.waitFor('the key list closed', (s) => !s.includes('focus the selected tile'));
    // Focusing the done tile marks it seen: done becomes idle.
    tmux.keys('Enter');
    await tmux.waitFor('seen', (s) => stateOf(s, 1, 'node') === 'idle');
    tmux.keys('C-\\');
    tmux.keys('q');
    expect(await exited(tmux, dir)).toBe(0);
    expectRestored(tmux, dir);
  });

  it('restores the terminal and ends every tile on SIGTERM and SIGHUP, with 143 and 129', async () => {
    for (const [signal, code] of [['TERM', 143], ['HUP', 129]] as const) {
      const { tmux, dir } = start([simSpec('a', 'work:600'), simSpec('b', 'rest:600'), '--session', `sig-${signal}`]);
      await tmux.waitFor('two tiles', (s) => headers(s).length === 2);
      const pid = tmux.show('#{pane_pid}');
      // The pane runs sh; belltower is its child.
      const belltower = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/)[0]!;
      process.kill(Number(belltower), `SIG${signal}`);
      expect(await exited(tmux, dir)).toBe(code);
      expectRestored(tmux, dir);
      tmux.close();
    }
  });

  it('with --exit-with-last-tile, quits by itself when the last tile exits', async () => {
    const { tmux, dir } = start(['--exit-with-last-tile', 'sh -c "sleep 1"', 'sh -c "sleep 2"', '--session', 'last']);
    await tmux.waitFor('two tiles', (s) => headers(s).length === 2);
    expect(await exited(tmux, dir)).toBe(0);
    expectRestored(tmux, dir);
  });

  it('restores the terminal after a crash, and says in one line where the details are', async () => {
    const dir0 = mkdtempSync(join(tmpdir(), 'belltower-crash-'));
    folders.push(dir0);
    const crash = join(dir0, 'crash.mjs');
    // A real uncaught exception inside the running UI, from a module loaded before belltower.
    writeFileSync(crash, `setTimeout(() => { throw new Error('deliberate crash for the test'); }, 1500);\n`);
    const { tmux, dir } = start([simSpec('a', 'work:600')], { cols: 100, rows: 30 }, ['--import', crash]);
    expect(await exited(tmux, dir)).toBe(1);
    expect(tmux.show('#{alternate_on}')).toBe('0');
    expect(tmux.show('#{cursor_flag}')).toBe('1');
    expect(readFileSync(join(dir, 'stty-after'), 'utf8')).toBe(readFileSync(join(dir, 'stty-before'), 'utf8'));
    const stderr = readFileSync(join(dir, 'stderr'), 'utf8');
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/crashed \(deliberate crash for the test\); the details are in .*belltower\.log/);
    const log = readFileSync(join(dir, 'state', 'log', 'belltower.log'), 'utf8');
    expect(log).toMatch(/deliberate crash for the test/);
    expect(log).toMatch(/at Timeout/);
  });
});
