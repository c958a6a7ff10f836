/**
 * Shell tiles with real bash, zsh and fish in real ptys: belltower's shell integration loads the
 * user's own rc files (untouched), and the prompt marks make the tile idle at the prompt, working
 * while a command runs, done or failed after a long command and quiet after a short one.
 * `longCommandMs` is lowered to 1 s so a "long" command takes 1.2 s, not 12.
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseSpec } from '../../src/agents/launch-spec.js';
import type { Tile } from '../../src/tile/tile.js';
import { installed, testSet, until } from './helpers.js';
import type { TestSet } from './helpers.js';

let current: TestSet | undefined;
const folders: string[] = [];
afterEach(async () => {
  await current?.cleanup();
  current = undefined;
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A throwaway folder (a HOME, a ZDOTDIR). */
function scratch(): string {
  const folder = mkdtempSync(join(tmpdir(), 'belltower-home-'));
  folders.push(folder);
  return folder;
}

const SHELLS = {
  bash: { rc: '.bashrc', text: "export BT_RC=bashrc-loaded\nPS1='$ '\n" },
  zsh: { rc: '.zshrc', text: "export BT_RC=zshrc-loaded\nPS1='%# '\n" },
  fish: { rc: '.config/fish/config.fish', text: 'set -gx BT_RC fish-config-loaded\nfunction fish_greeting; end\n' },
} as const;

const shows = (tile: Tile, text: string) => () => tile.session.screen.rowTexts().some((row) => row.includes(text));

function skipReason(shell: string): string | null {
  return installed(shell) ? null : `${shell} is not installed (.ci/run installs it with apt-get when it runs as root)`;
}

for (const [shell, { rc, text }] of Object.entries(SHELLS)) {
  const missing = skipReason(shell);
  describe.skipIf(missing !== null)(`a ${shell} tile${missing ? ` (skipped: ${missing})` : ''}`, () => {
    it('loads your rc file untouched; idle at the prompt, working with the command line, done or failed after a long command, quiet after a short one', async () => {
      const home = scratch();
      mkdirSync(join(home, rc, '..'), { recursive: true });
      writeFileSync(join(home, rc), text);
      current = testSet({ timing: { longCommandMs: 1_000 }, env: { ...process.env, HOME: home, ZDOTDIR: undefined, XDG_CONFIG_HOME: undefined } });
      const { set, changes } = current;
      const rings: string[] = [];
      set.onRing((_tile, state) => rings.push(state));
      const tile = await set.add(parseSpec(shell));
      expect(tile.profile.name).toBe('shell');

      await until('the prompt', () => tile.verdict.state === 'idle');
      expect(tile.verdict).toMatchObject({ source: 'shell', reason: 'at the prompt' });

      tile.send('echo "rc says $BT_RC"', true);
      await until('the rc file to show', shows(tile, `rc says ${shell === 'fish' ? 'fish-config' : `${shell}rc`}-loaded`));
      await until('the prompt again', () => tile.verdict.state === 'idle' && changes.length >= 3);

      tile.send('sleep 1.2', true);
      await until('the long command to be working', () => tile.verdict.state === 'working');
      expect(tile.verdict.reason).toBe('sleep 1.2');
      await until('done', () => tile.verdict.state === 'done');
      expect(tile.verdict.reason).toMatch(/^"sleep 1\.2" finished after 1\.\d s$/);

      tile.send('sleep 1.2; false', true);
      await until('failed', () => tile.verdict.state === 'failed');
      expect(tile.verdict.reason).toMatch(/^"sleep 1\.2; false" failed with exit code 1 after 1\.\d s$/);

      tile.send('ls', true);
      await until('ls to finish', () => tile.verdict.state === 'idle' && /"ls" finished/.test(tile.verdict.reason));

      tile.send('cd /tmp', true);
      await until('the folder', () => tile.folder === realpathSync('/tmp'));
      expect(tile.info()).toMatchObject({ folder: realpathSync('/tmp') });
      expect(tile.info()).not.toHaveProperty('exit');

      // Typing the next command is looking at the tile: its done was seen (idle) before it ran.
      expect(changes.map((c) => c.verdict.state)).toEqual(['idle', 'working', 'idle', 'working', 'done', 'idle', 'working', 'failed', 'working', 'idle', 'working', 'idle']);
      expect(rings).toEqual(['done', 'failed']);
      expect(readFileSync(join(home, rc), 'utf8')).toBe(text);
    }, 30_000);
  });
}

describe.skipIf(skipReason('zsh') !== null)('zsh with your own ZDOTDIR', () => {
  it('reads your startup files from your ZDOTDIR, which the shell still sees as its own', async () => {
    const base = scratch();
    const zdot = join(base, 'zdot');
    mkdirSync(zdot, { recursive: true });
    writeFileSync(join(zdot, '.zshenv'), 'export BT_ENV=zshenv-loaded\n');
    writeFileSync(join(zdot, '.zshrc'), "PS1='z%# '\n");
    current = testSet({ env: { ...process.env, HOME: base, ZDOTDIR: zdot } });
    const tile = await current.set.add(parseSpec('shell', { SHELL: 'zsh' }));
    await until('the prompt', () => tile.verdict.state === 'idle');
    tile.send('echo "$BT_ENV in $ZDOTDIR"', true);
    await until('the answer', shows(tile, `zshenv-loaded in ${zdot}`));
    expect(shows(tile, 'z# ')() || shows(tile, 'z%')()).toBe(true);
  }, 30_000);
});
