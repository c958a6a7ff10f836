/**
 * Working with many agents, in a real terminal (tmux): a workspace written by `belltower init`
 * opens its tiles; a broken one starts nothing and says where it is broken; twenty tiles in a
 * 120×40 window all show their name and state.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { closeAll, exited, expectRestored, keepFolder, quitCleanly, start } from '../support/grid-session.js';
import { tmuxMissing } from '../support/tmux.js';

const run = promisify(execFile);
const bin = join(import.meta.dirname, '..', '..', 'bin', 'belltower.js');
afterEach(() => closeAll());

/** Every compact row and tile header on the screen: number, name and the state's glyph. */
function shownTiles(screen: string): Map<string, string> {
  const shown = new Map<string, string>();
  for (const m of screen.matchAll(/(?:[╭┏╔] |^[ ▸] )(\d+) (\S+)[ ─━═]+([●◆✓○■✗?…]) /gm)) shown.set(m[2]!, m[3]!);
  return shown;
}

describe.skipIf(tmuxMissing() !== null)('workspaces and many tiles in a real terminal (tmux)', () => {
  it('belltower init, then belltower opens the workspace file\'s tiles', async () => {
    const folder = keepFolder(mkdtempSync(join(tmpdir(), 'belltower-ws-')));
    const state = keepFolder(mkdtempSync(join(tmpdir(), 'belltower-state-')));
    // No agent on PATH: init lists what it finds (nothing) and a shell.
    const init = await run(process.execPath, [bin, 'init'], { cwd: folder, env: { ...process.env, BELLTOWER_STATE_DIR: state, PATH: '/usr/bin:/bin', BELLTOWER_CLAUDE_BIN: '', BELLTOWER_CODEX_BIN: '', BELLTOWER_GEMINI_BIN: '' } });
    expect(init.stdout).toMatch(/wrote belltower\.json: shell/);
    // A second tile, added by hand to the commented file, as a user would.
    const file = join(folder, 'belltower.json');
    writeFileSync(file, readFileSync(file, 'utf8').replace('    { "name": "shell", "agent": "shell" },', '    { "name": "shell", "agent": "shell" },\n    { "name": "ticker", "command": "sh -c \'while :; do date; sleep 1; done\'" },'));
    // init trusted what it wrote; the edit makes belltower show the file's tiles and ask once.
    const { tmux, dir } = start([], { cols: 120, rows: 30 }, [], { cwd: folder, env: { BELLTOWER_STATE_DIR: state } });
    const asked = await tmux.waitFor('the question', (s) => s.includes('Start these tiles?'));
    expect(asked).toContain('belltower.json changed since you trusted it');
    expect(asked).toContain("2 ticker: sh -c 'while :; do date; sleep 1; done'");
    tmux.type('y');
    tmux.keys('Enter');
    await tmux.waitFor('the two tiles of the workspace', (s) => /[╭┏] 1 shell /.test(s) && /[╭┏] 2 ticker /.test(s) && /belltower · 2 tiles/.test(s));
    await quitCleanly(tmux, dir);
  });

  it('a broken workspace starts nothing and says file, line and field', async () => {
    const folder = keepFolder(mkdtempSync(join(tmpdir(), 'belltower-ws-')));
    writeFileSync(join(folder, 'belltower.json'), '{\n  "tiles": [\n    { "agent": "shell" },\n    { "command": "make", "cwd": "/srv/nope" }\n  ]\n}\n');
    const result = await run(process.execPath, [bin], { cwd: folder, env: { ...process.env, CI: '' } }).catch((e: { code: number; stderr: string }) => e);
    expect((result as { code: number }).code).toBe(2);
    expect((result as { stderr: string }).stderr).toContain('belltower: belltower.json:4: tiles[1].cwd: no such folder "/srv/nope"');
  });

  it('adds a tile with a, closes one with x, restarts with r, renames with R — from the keyboard', async () => {
    const { tmux, dir } = start(['sh -c "echo first run; exit 3"', '--session', 'keys'], { cols: 120, rows: 30 });
    await tmux.waitFor('the command failed', (s) => /[╭┏] 1 sh .*✗ failed/.test(s));
    // a: what to run (Tab completes "she" to "shell"), the folder, a name.
    tmux.keys('a');
    await tmux.waitFor('the add form', (s) => s.includes('add a tile'));
    tmux.type('she');
    tmux.keys('Tab');
    await tmux.waitFor('completed', (s) => s.includes('shell ▏'));
    tmux.keys('Tab', 'Tab');
    tmux.type('side');
    tmux.keys('Enter');
    await tmux.waitFor('tile 2 added and selected', (s) => /┏ 2 side /.test(s) && /belltower · 2 tiles/.test(s));
    // R: rename it; the form opens with its current name.
    tmux.keys('R');
    await tmux.waitFor('the rename form with the name', (s) => s.includes('rename tile 2') && s.includes('side▏'));
    tmux.keys('C-u');
    tmux.type('term');
    tmux.keys('Enter');
    await tmux.waitFor('renamed', (s) => /┏ 2 term /.test(s));
    // r on the failed command runs it again in place.
    tmux.keys('1', 'r');
    await tmux.waitFor('restarted', (s) => s.includes('tile 1 sh restarted'));
    // x closes the selected tile (a finished command: no question).
    await tmux.waitFor('failed again', (s) => /┏ 1 sh .*✗ failed/.test(s));
    tmux.keys('x');
    await tmux.waitFor('closed', (s) => /belltower · 1 tile\b/.test(s) && !/ 1 sh /.test(s));
    await quitCleanly(tmux, dir);
  }, 60_000);

  it('the add form: Tab completes programs on PATH and folders; a refused program or folder keeps the form, the reason under its field', async () => {
    const { tmux, dir } = start(['sh -c "exec sleep 600"', '--session', 'addform'], { cols: 120, rows: 30 });
    await tmux.waitFor('the tile', (s) => /[╭┏] 1 sh /.test(s));
    tmux.keys('a');
    await tmux.waitFor('the add form', (s) => s.includes('add a tile'));
    // A program that is on PATH but is no agent name.
    tmux.type('slee');
    tmux.keys('Tab');
    await tmux.waitFor('sleep completed', (s) => s.includes('sleep ▏'));
    tmux.keys('C-u');
    tmux.type('nosuchprog --flag');
    tmux.keys('Enter');
    let screen = await tmux.waitFor('refused, the form kept', (s) => s.includes('command not found: nosuchprog') && s.includes('add a tile'));
    expect(screen).toContain('nosuchprog --flag');
    expect(screen).not.toMatch(/belltower · 2 tiles/);
    // A folder that does not exist: the reason under the folder field, which has the cursor.
    tmux.keys('C-u');
    tmux.type('sleep 600');
    tmux.keys('Tab', 'C-u');
    tmux.type('no/such/folder');
    tmux.keys('Enter');
    screen = await tmux.waitFor('the folder refused', (s) => /no such folder/.test(s) && s.includes('add a tile'));
    const lines = screen.split('\n');
    const folderLine = lines.findIndex((l) => /▸ folder/.test(l));
    expect(folderLine).toBeGreaterThan(-1);
    expect(lines[folderLine + 1]).toMatch(/no such folder/);
    // Tab in the folder field completes one that exists.
    tmux.keys('C-u');
    tmux.type('sr');
    tmux.keys('Tab');
    await tmux.waitFor('src/ completed', (s) => s.includes('src/▏'));
    tmux.keys('Enter');
    await tmux.waitFor('the tile added', (s) => /belltower · 2 tiles/.test(s));
    await quitCleanly(tmux, dir);
  }, 60_000);

  it("scrolls back through a 5,000-line tile's output, and finds text in it", async () => {
    const { tmux, dir } = start(['sh -c "seq 1 5000; echo needle-here; seq 5001 5040; exec sleep 600"', '--scrollback', '6000', '--session', 'scroll'], { cols: 100, rows: 30 });
    await tmux.waitFor('the end of the output', (s) => /\b5040\b/.test(s));
    tmux.keys('[');
    await tmux.waitFor('the scroll view', (s) => s.includes('SCROLL 1 sh'));
    tmux.keys('g');
    await tmux.waitFor('the oldest line', (s) => /^┏[^\n]*\n┃1 +┃/m.test(s) || s.split('\n')[1]?.startsWith('┃1 ') === true);
    tmux.keys('G', '/');
    tmux.type('needle');
    tmux.keys('Enter');
    await tmux.waitFor('the match in view', (s) => s.includes('needle-here') && /↑\d+ of \d+ lines/.test(s));
    tmux.keys('Escape');
    await tmux.waitFor('back to the grid', (s) => s.includes('belltower · 1 tile'));
    tmux.keys('q', 'y');
    expect(await exited(tmux, dir)).toBe(0);
    expectRestored(tmux, dir);
  }, 60_000);

  it('twenty simulated agents in 120×40: every tile shows its name and state', async () => {
    const { tmux, dir } = start(['demo', '--tiles', '20'], { cols: 120, rows: 40 });
    const names = ['api', 'web', 'docs', 'tests', 'notes'].flatMap((n) => [n, `${n}-2`, `${n}-3`, `${n}-4`]);
    const screen = await tmux.waitFor('twenty tiles', (s) => shownTiles(s).size === 20 && /belltower · 20 tiles/.test(s));
    expect([...shownTiles(screen).keys()].sort()).toEqual(names.sort());
    await quitCleanly(tmux, dir);
  }, 60_000);
});
