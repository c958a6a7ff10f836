/**
 * The full-screen grid in a real terminal: the built CLI inside tmux, driven with send-keys and
 * read with capture-pane, every bell counted by tmux's alert-bell hook. The simulated agents of the
 * demo stand in for real ones (test/e2e/claude-grid.test.ts runs the real Claude).
 *
 * `CI` is cleared for the belltower under test: with it set, the demo prints lines instead of
 * opening the grid.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closeAll, exited, expectRestored, headers, keepFolder, quitCleanly, simSpec, start } from '../support/grid-session.js';
import { headerOf, stateOf, tmuxMissing } from '../support/tmux.js';

const missing = tmuxMissing();
afterEach(() => closeAll());

describe.skipIf(missing !== null)('the grid in a real terminal (tmux)', () => {
  it('opens the demo, moves, zooms, focuses, types into a tile, leaves focus, resizes, and quits cleanly', async () => {
    const { tmux, dir } = start(['demo']);
    let screen = await tmux.waitFor('five demo tiles and the status line', (s) => headers(s).length === 5 && /belltower · 5 tiles/.test(s));
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

    // At 100×30 five tiles cannot all be 40×8: those that need you large, the others as rows.
    tmux.resize(100, 30);
    screen = await tmux.waitFor('the rows layout at 100×30', (s) => headers(s).length < 5 && /^ {2}\d+ \S+ +[●◆✓○■✗?…]/m.test(s) && /5 tiles/.test(s));
    for (const name of ['api', 'web', 'docs', 'tests', 'notes']) expect(screen).toContain(name);
    tmux.keys('L');
    await tmux.waitFor('the grid, chosen with L', (s) => headers(s).length === 5);
    tmux.keys('L', 'L');
    await tmux.waitFor('auto again: rows', (s) => headers(s).length < 5);
    // Even at 40×10 every tile still shows, as a row; the forced grid says the terminal is too small.
    tmux.resize(40, 10);
    await tmux.waitFor('five rows at 40×10', (s) => ['api', 'web', 'docs', 'tests', 'notes'].every((name) => s.includes(name)));
    tmux.keys('L');
    await tmux.waitFor('the too-small message', (s) => s.includes('belltower needs a larger terminal'));
    tmux.keys('L', 'L');
    tmux.resize(160, 45);
    await tmux.waitFor('the grid again', (s) => headers(s).length === 5);

    tmux.keys('q');
    screen = await tmux.waitFor('quit asks or quits', (s) => s.includes('quit belltower?') || s.includes('AFTER-BELLTOWER'));
    if (screen.includes('quit belltower?')) tmux.keys('y');
    expect(await exited(tmux, dir)).toBe(0);
    expectRestored(tmux, dir);
  }, 60_000);

  it('rings exactly one bell per edge into done or blocked, and none for /clear', async () => {
    // One tile that finishes a turn, gets a /clear, and finishes another; one that asks for
    // permission and then finishes. Edges that ring: done, done (tile 1); blocked, done (tile 2).
    // --quiet-period 0: every edge rings (by default a tile ringing again within 30 s does not).
    const { tmux, dir } = start([simSpec('one', 'rest:1,work:1,done,rest:2,clear,rest:2,work:1,done,rest:600'), simSpec('two', 'rest:5,work:1,ask:2,work:1,done,rest:600'), '--session', 'bells', '--quiet-period', '0']);
    await tmux.waitFor('two tiles', (s) => headers(s).length === 2);

    await tmux.waitFor('tile 1 done', (s) => stateOf(s, 1, 'node') === 'done');
    await tmux.until('the first bell', () => tmux.bells() >= 1);
    // The /clear: the tile goes to rest, and no bell comes with it.
    await tmux.waitFor('tile 1 cleared', (s) => s.includes('(conversation cleared)') && stateOf(s, 1, 'node') === 'idle');
    expect(tmux.bells()).toBe(1);

    await tmux.waitFor('tile 2 blocked', (s) => stateOf(s, 2, 'node-2') === 'blocked');
    await tmux.until('the blocked bell', () => tmux.bells() >= 2);
    await tmux.waitFor('both done', (s) => stateOf(s, 1, 'node') === 'done' && stateOf(s, 2, 'node-2') === 'done');
    await tmux.until('four bells', () => tmux.bells() >= 4);
    // Nothing more to ring: both rest for minutes now.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(tmux.bells()).toBe(4);

    tmux.keys('q');
    expect(await exited(tmux, dir)).toBe(0);
    expectRestored(tmux, dir);
  }, 60_000);

  it('shows why a tile is in its state, and lists every key', async () => {
    const { tmux, dir } = start([simSpec('solo', 'rest:1,work:1,done,rest:600')]);
    await tmux.waitFor('the tile done', (s) => stateOf(s, 1, 'node') === 'done');
    tmux.keys('w');
    // A capture can land mid-frame: wait for the overlay's last line, then read it all.
    let screen = await tmux.waitFor('the why overlay drawn whole', (s) => s.includes('why 1 node') && /turn-end: held/.test(s));
    expect(screen).toMatch(/done for \S+, decided by OSC 7501/);
    expect(screen).toMatch(/turn-end: held: conflict window/);
    tmux.keys('Escape');
    await tmux.waitFor('the overlay closed', (s) => !s.includes('why 1 node'));
    tmux.keys('?');
    await tmux.waitFor('the key list', (s) => s.includes('focus the selected tile'));
    // A capture can land while tmux is still taking in the frame: read it once it stands still.
    let previous = '';
    screen = await tmux.waitFor('the key list drawn whole', (s) => {
      const still = s === previous;
      previous = s;
      return still;
    });
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

  it('the CLI as users run it (the bundle) builds Ink\'s frames with the row cache', async () => {
    const { tmux, dir } = start([simSpec('a', 'work:600')], { cols: 100, rows: 30 });
    await tmux.waitFor('the tile', (s) => headers(s).length === 1);
    // A few frames with the header's age ticking: rows the cache builds, and reuses.
    await tmux.waitFor('its age ticking', (s) => /working · [^·]+ · [3-9]s/.test(s), 30_000);
    await quitCleanly(tmux, dir);
    const log = readFileSync(join(dir, 'state', 'log', 'belltower.log'), 'utf8');
    expect(log).toMatch(/grid loaded.*"inkRowCache":true/);
    // Patched on a class the bundle does not render with, the cache would build no row at all.
    const painted = JSON.parse(log.split('\n').find((line) => line.includes('"ui painted"')) ?? '{}') as { data?: { inkRows?: { rowsBuilt: number; rowsReused: number } } };
    expect(painted.data?.inkRows?.rowsBuilt).toBeGreaterThan(0);
    expect(painted.data?.inkRows?.rowsReused).toBeGreaterThan(0);
  }, 60_000);

  it('the bundle\'s Ink measures its texts with the remembered widest-line', async () => {
    const { tmux, dir } = start([simSpec('a', 'work:600')], { cols: 100, rows: 30 });
    await tmux.waitFor('its age ticking', (s) => /working · [^·]+ · [2-9]s/.test(s), 30_000);
    await quitCleanly(tmux, dir);
    const log = readFileSync(join(dir, 'state', 'log', 'belltower.log'), 'utf8');
    const painted = JSON.parse(log.split('\n').find((line) => line.includes('"ui painted"')) ?? '{}') as { data?: { widths?: { widestLines: number; measured: number } } };
    // Only Ink calls widestLine: with the package's own copy bundled instead, no call reaches it.
    // Each render asks for every text node; string-width measures only texts not seen before.
    const widths = painted.data?.widths;
    expect(widths?.widestLines).toBeGreaterThan(0);
    expect(widths!.measured).toBeLessThan(widths!.widestLines);
  }, 60_000);

  it('the bundled grid starts without loading Node\'s HTTP client (yoga\'s wasm is decoded, not fetched)', async () => {
    const dir0 = keepFolder(mkdtempSync(join(tmpdir(), 'belltower-modules-')));
    const probe = join(dir0, 'modules.mjs');
    const list = join(dir0, 'modules.json');
    writeFileSync(probe, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(list)}, JSON.stringify(process.moduleLoadList)));\nimport { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\n`);
    const { tmux, dir } = start(['--no-server', simSpec('a', 'work:600')], { cols: 100, rows: 30 }, ['--import', probe]);
    await tmux.waitFor('the tile', (s) => headers(s).length === 1);
    await quitCleanly(tmux, dir);
    const modules = JSON.parse(readFileSync(list, 'utf8')) as string[];
    expect(modules.some((m) => m.includes('internal/deps/undici'))).toBe(false);
    // The probe sees what it should: the grid's own modules did load.
    expect(modules.some((m) => m.includes('internal/child_process'))).toBe(true);
  }, 60_000);

  it('restores the terminal after a crash, and says in one line where the details are', async () => {
    const dir0 = keepFolder(mkdtempSync(join(tmpdir(), 'belltower-crash-')));
    const crash = join(dir0, 'crash.mjs');
    // A real uncaught exception inside the running UI, from a module loaded before belltower.
    writeFileSync(crash, `setTimeout(() => { throw new Error('deliberate crash for the test'); }, 1500);\n`);
    // The one-process grid (a session server's crash: server-detach-tmux.test.ts).
    const { tmux, dir } = start(['--no-server', simSpec('a', 'work:600')], { cols: 100, rows: 30 }, ['--import', crash]);
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
