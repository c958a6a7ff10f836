/**
 * End to end: answering the real Gemini CLI 0.61's tool confirmation from the grid (tmux), without
 * entering its tile. The tile goes blocked with Gemini's dialog drawn; `y` picks `Allow once` (the
 * shell runs, the turn ends done); `Y` picks `Allow for this session`, and the next command of the
 * same program runs without a question; `N` picks `No, suggest changes`, and nothing runs.
 *
 * Gemini runs as an unprivileged user (the test's own, or `belltower-e2e` when the tests run as
 * root, as CI does): the tmux server, belltower and Gemini all run as that user, in folders it owns.
 * Skips (with the reason) when the pinned CLI cannot be installed or tmux is missing.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tryInstallGemini, type InstallResult } from '../support/claude-install.js';
import { BELLTOWER_BIN, REPO } from '../support/claude-in-tmux.js';
import { shell, startFakeGemini, text, type Reply } from '../support/fake-gemini.js';
import { createGeminiHome } from '../support/gemini-home.js';
import { headerOf, stateOf, Tmux, tmuxMissing } from '../support/tmux.js';
import { chownTree, unprivilegedUser, type Unprivileged } from '../support/unprivileged-user.js';

let install: InstallResult = { ok: false, reason: 'not attempted' };
let who: Unprivileged = { ok: false, reason: 'not checked' };

beforeAll(async () => {
  const noTmux = tmuxMissing();
  if (noTmux) install = { ok: false, reason: noTmux };
  else if (!existsSync(join(REPO, 'dist', 'cli', 'main.js'))) install = { ok: false, reason: 'the CLI is not built (npm run build)' };
  else install = await tryInstallGemini({ log: (line) => console.error(`[gemini-install] ${line}`) });
  if (install.ok) who = unprivilegedUser([install.bin, BELLTOWER_BIN]);
}, 15 * 60_000);

function ready(ctx: { skip(reason: string): never }): void {
  if (!install.ok) ctx.skip(install.reason);
  if (!who.ok) ctx.skip(who.reason);
}

/** Gemini in a belltower grid in tmux, blocked on its confirmation of the first command. */
async function blockedGemini(name: string, script: Reply[]) {
  const user = who.ok ? who.user : null;
  const api = await startFakeGemini({ script });
  const home = createGeminiHome({ baseUrl: api.url, allowShell: false });
  const dir = mkdtempSync(join(tmpdir(), `belltower-gemini-${name}-`));
  for (const folder of [...home.folders, dir]) chownTree(folder, user);
  const env: Record<string, string | undefined> = { ...home.env, BELLTOWER_GEMINI_BIN: install.ok ? install.bin : '', BELLTOWER_STATE_DIR: join(dir, 'state'), CI: undefined };
  const command = `'${process.execPath}' '${BELLTOWER_BIN}' gemini --session gemini-${name} 2> ${dir}/stderr; echo "EXIT=$?" > ${dir}/exit; sleep 600`;
  const tmux = new Tmux({ cols: 140, rows: 40, command, env, cwd: home.cwd, runAs: user });
  const close = async () => {
    tmux.keys('q');
    const quit = await tmux.waitFor('quit', (s) => s.includes('quit belltower?') || existsSync(join(dir, 'exit')), 15_000).catch(() => '');
    if (quit.includes('quit belltower?')) tmux.keys('y');
    await tmux.until('belltower to exit', () => existsSync(join(dir, 'exit')), 15_000).catch(() => undefined);
    tmux.close();
    await api.close();
    home.cleanup();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await tmux.waitFor('gemini at rest', (s) => stateOf(s, 1, 'gemini') === 'idle', 60_000);
    tmux.keys('Enter');
    await tmux.waitFor('focus mode', (s) => s.includes('FOCUS 1 gemini'));
    // Gemini's prompt takes keys a moment after it is drawn: type until the words show.
    for (let tries = 0; ; tries++) {
      tmux.type('Create the file');
      const typed = await tmux.waitFor('the prompt typed', (s) => s.includes('Create the file'), 3_000).then(() => true, () => false);
      if (typed) break;
      if (tries === 5) throw new Error(`the prompt never took the words:\n${tmux.screen()}`);
    }
    // An Enter that arrives while Gemini still takes the typed words in is not a submit (seen on a
    // loaded machine): press it again only while the words still sit in its prompt.
    for (let presses = 0; ; presses++) {
      tmux.keys('Enter');
      const sent = await tmux.waitFor('the request sent', () => api.mainRequests().length > 0, 5_000).then(() => true, () => false);
      if (sent) break;
      if (presses === 3 || !/> Create the file/.test(tmux.screen())) throw new Error(`the prompt was never sent:\n${tmux.screen()}`);
    }
    tmux.keys('C-\\');
    await tmux.waitFor('blocked, with its dialog', (s) => stateOf(s, 1, 'gemini') === 'blocked' && s.includes('Allow once'), 30_000);
    return { api, tmux, close, cwd: home.cwd };
  } catch (error) {
    await close();
    throw error;
  }
}

describe('answering the real Gemini CLI from the grid (tmux)', () => {
  it('y allows the command once: it runs, and the turn ends done, without entering the tile', async (ctx) => {
    ready(ctx);
    const { api, tmux, close, cwd } = await blockedGemini('allow', [shell('touch belltower-answered.txt'), text('File created.')]);
    try {
      // What it asks, from its Notification's details (its message says only "Tool Confirm Shell
      // Command requires execution").
      expect(headerOf(tmux.screen(), 1, 'gemini')).toMatch(/◆ approve Shell: touch belltower-answered\.txt/);
      tmux.keys('y');
      await tmux.waitFor('done', (s) => stateOf(s, 1, 'gemini') === 'done', 30_000);
      expect(existsSync(join(cwd, 'belltower-answered.txt'))).toBe(true);
      expect(api.mainRequests()).toHaveLength(2);
      expect(tmux.screen().split('\n').filter(Boolean).at(-1)).not.toMatch(/FOCUS/);
    } finally {
      await close();
    }
  }, 150_000);

  it('Y allows it for the session: the next command of the same program runs without a question', async (ctx) => {
    ready(ctx);
    const script = [shell('touch belltower-first.txt'), shell('touch belltower-second.txt'), text('Both done.')];
    const { api, tmux, close, cwd } = await blockedGemini('always', script);
    try {
      expect(tmux.screen()).toContain('Allow for this session');
      tmux.keys('Y');
      // Nobody answers a second question: the turn ends only if the second command was not asked.
      await tmux.waitFor('done', (s) => stateOf(s, 1, 'gemini') === 'done', 60_000);
      expect(existsSync(join(cwd, 'belltower-first.txt'))).toBe(true);
      expect(existsSync(join(cwd, 'belltower-second.txt'))).toBe(true);
      expect(api.mainRequests()).toHaveLength(3);
    } finally {
      await close();
    }
  }, 150_000);

  it('N denies it: the command never runs, and the tile no longer asks', async (ctx) => {
    ready(ctx);
    const { api, tmux, close, cwd } = await blockedGemini('deny', [shell('touch belltower-denied.txt'), text('Understood.')]);
    try {
      tmux.keys('N');
      // Gemini writes the cancelled call to its transcript before it redraws, so the verdict can
      // leave blocked a frame before the dialog leaves the screen: wait for both.
      await tmux.waitFor('not blocked, the dialog gone', (s) => !['blocked', undefined].includes(stateOf(s, 1, 'gemini')) && !s.includes('Allow once'), 30_000);
      expect(existsSync(join(cwd, 'belltower-denied.txt'))).toBe(false);
      expect(api.mainRequests()).toHaveLength(1);
    } finally {
      await close();
    }
  }, 150_000);
});
