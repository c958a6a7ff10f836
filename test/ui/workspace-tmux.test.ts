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
import { closeAll, exited, expectRestored, keepFolder, start } from '../support/grid-session.js';
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
    // No agent on PATH: init lists what it finds (nothing) and a shell.
    const init = await run(process.execPath, [bin, 'init'], { cwd: folder, env: { ...process.env, PATH: '/usr/bin:/bin', BELLTOWER_CLAUDE_BIN: '', BELLTOWER_CODEX_BIN: '', BELLTOWER_GEMINI_BIN: '' } });
    expect(init.stdout).toMatch(/wrote belltower\.json: shell/);
    // A second tile, added by hand to the commented file, as a user would.
    const file = join(folder, 'belltower.json');
    writeFileSync(file, readFileSync(file, 'utf8').replace('    { "name": "shell", "agent": "shell" },', '    { "name": "shell", "agent": "shell" },\n    { "name": "ticker", "command": "sh -c \'while :; do date; sleep 1; done\'" },'));
    const { tmux, dir } = start([], { cols: 120, rows: 30 }, [], { cwd: folder });
    await tmux.waitFor('the two tiles of the workspace', (s) => /[╭┏] 1 shell /.test(s) && /[╭┏] 2 ticker /.test(s) && /belltower · 2 tiles/.test(s));
    tmux.keys('q');
    const quit = await tmux.waitFor('quit', (s) => s.includes('quit belltower?') || s.includes('AFTER-BELLTOWER'));
    if (quit.includes('quit belltower?')) tmux.keys('y');
    expect(await exited(tmux, dir)).toBe(0);
    expectRestored(tmux, dir);
  });

  it('a broken workspace starts nothing and says file, line and field', async () => {
    const folder = keepFolder(mkdtempSync(join(tmpdir(), 'belltower-ws-')));
    writeFileSync(join(folder, 'belltower.json'), '{\n  "tiles": [\n    { "agent": "shell" },\n    { "command": "make", "cwd": "/srv/nope" }\n  ]\n}\n');
    const result = await run(process.execPath, [bin], { cwd: folder, env: { ...process.env, CI: '' } }).catch((e: { code: number; stderr: string }) => e);
    expect((result as { code: number }).code).toBe(2);
    expect((result as { stderr: string }).stderr).toContain('belltower: belltower.json:4: tiles[1].cwd: no such folder "/srv/nope"');
  });

  it('twenty simulated agents in 120×40: every tile shows its name and state', async () => {
    const { tmux, dir } = start(['demo', '--tiles', '20'], { cols: 120, rows: 40 });
    const names = ['api', 'web', 'docs', 'tests', 'notes'].flatMap((n) => [n, `${n}-2`, `${n}-3`, `${n}-4`]);
    const screen = await tmux.waitFor('twenty tiles', (s) => shownTiles(s).size === 20 && /belltower · 20 tiles/.test(s));
    expect([...shownTiles(screen).keys()].sort()).toEqual(names.sort());
    tmux.keys('q');
    const quit = await tmux.waitFor('quit', (s) => s.includes('quit belltower?') || s.includes('AFTER-BELLTOWER'));
    if (quit.includes('quit belltower?')) tmux.keys('y');
    expect(await exited(tmux, dir)).toBe(0);
    expectRestored(tmux, dir);
  }, 60_000);
});
