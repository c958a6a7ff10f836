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
import { functionCall, lastUserOf, shell, startFakeGemini, text, type GenerateRequest, type Reply } from '../support/fake-gemini.js';
import type { TileInfo } from '../../src/control/protocol.js';
import { belltowerCli } from '../support/belltower-cli.js';
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
async function blockedGemini(name: string, script: Reply[], dialog = 'Allow once') {
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
    await tmux.waitFor('blocked, with its dialog', (s) => stateOf(s, 1, 'gemini') === 'blocked' && s.includes(dialog), 30_000);
    /** The belltower CLI, as a script beside the grid runs it (as the same user). */
    const cli = (...args: string[]) => belltowerCli([...args, '--session', `gemini-${name}`], { env: { ...process.env, ...env } as NodeJS.ProcessEnv, cwd: home.cwd, ...(user ? { uid: user.uid, gid: user.gid } : {}) });
    return { api, tmux, close, cwd: home.cwd, cli };
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

  describe('its ask_user question (0.61)', () => {
    const database = {
      questions: [{ header: 'Database', question: 'Which database should the service use?', type: 'choice', options: [{ label: 'Postgres', description: 'Relational, the team knows it.' }, { label: 'SQLite', description: 'A single file, no server.' }] }],
    };
    /** The answer Gemini hands the model: its ask_user functionResponse's output. */
    const answerOf = (api: { mainRequests(): { body: unknown }[] }) => {
      const reply = api.mainRequests().map((r) => lastUserOf(r.body as GenerateRequest)).flatMap((u) => u.functionResponses).find((f) => f.name === 'ask_user');
      return reply ? String(reply.response.output) : undefined;
    };

    it('o shows the question with its options; a digit picks one, and the model gets it', async (ctx) => {
      ready(ctx);
      const { api, tmux, close } = await blockedGemini('question', [functionCall('ask_user', database), text('SQLite it is.')], 'Enter a custom value');
      try {
        // A question, in its own words (its BeforeTool), not a permission.
        expect(headerOf(tmux.screen(), 1, 'gemini')).toMatch(/◆ Which database should the service use\?/);
        tmux.keys('o');
        const form = await tmux.waitFor('the question with its options', (s) => s.includes('answer 1 gemini') && /2 +SQLite/.test(s));
        expect(form).toMatch(/1 +Postgres/);
        tmux.keys('2');
        await tmux.until('the answer sent to the model', () => answerOf(api) !== undefined, 30_000);
        expect(JSON.parse(answerOf(api)!)).toEqual({ answers: { '0': 'SQLite' } });
        await tmux.waitFor('done', (s) => stateOf(s, 1, 'gemini') === 'done', 30_000);
      } finally {
        await close();
      }
    }, 150_000);

    it('belltower answer text --message: answered in your own words, through its custom value', async (ctx) => {
      ready(ctx);
      const { api, tmux, close, cli } = await blockedGemini('question-text', [functionCall('ask_user', database), text('MySQL it is.')], 'Enter a custom value');
      try {
        const [tile] = JSON.parse((await cli('ls', '--json')).stdout) as TileInfo[];
        expect(tile!.kind).toBe('question');
        expect(tile!.request?.options.map((o) => o.label)).toEqual(['Postgres', 'SQLite', 'Enter a custom value']);
        const answered = await cli('answer', '1', 'text', '--message', 'MySQL, please', '--request', tile!.request!.id);
        expect(answered.stderr).toBe('');
        expect(answered.code).toBe(0);
        await tmux.until('the answer sent to the model', () => answerOf(api) !== undefined, 30_000);
        expect(JSON.parse(answerOf(api)!)).toEqual({ answers: { '0': 'MySQL, please' } });
        await tmux.waitFor('done', (s) => stateOf(s, 1, 'gemini') === 'done', 30_000);
      } finally {
        await close();
      }
    }, 150_000);
  });
});
