/**
 * End to end: answering the real Codex 0.171's approval from the grid (tmux), without entering
 * its tile. The tile goes blocked with Codex's dialog drawn; `y` picks `Yes, proceed` (the command
 * runs, the turn ends done); `Y` picks `Yes, and don't ask again for commands that start with …`
 * (Codex 0.171: the whole command line), and the same command again runs without a question.
 *
 * Skips (with the reason) when the pinned CLI cannot be installed or tmux is missing.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tryInstallCodex } from '../support/claude-install.js';
import type { InstallResult } from '../support/claude-install.js';
import { belltowerCli } from '../support/belltower-cli.js';
import { BELLTOWER_BIN, REPO } from '../support/claude-in-tmux.js';
import { createCodexHome } from '../support/codex-home.js';
import { exec, functionCall, startFakeOpenAI, text } from '../support/fake-openai.js';
import type { Reply } from '../support/fake-openai.js';
import { headerOf, stateOf, Tmux, tmuxMissing } from '../support/tmux.js';

let install: InstallResult = { ok: false, reason: 'not attempted' };

beforeAll(async () => {
  const noTmux = tmuxMissing();
  if (noTmux) install = { ok: false, reason: noTmux };
  else if (!existsSync(join(REPO, 'dist', 'cli', 'main.js'))) install = { ok: false, reason: 'the CLI is not built (npm run build)' };
  else install = await tryInstallCodex({ log: (line) => console.error(`[codex-install] ${line}`) });
}, 15 * 60_000);

const escalated = (command: string): Reply => exec(command, { sandboxPermissions: 'require_escalated', justification: 'Create the file?' });

async function blockedCodex(name: string, script: Reply[], { dialog = 'Yes, proceed', extraToml }: { dialog?: string; extraToml?: string } = {}) {
  const api = await startFakeOpenAI({ script });
  const home = createCodexHome({ baseUrl: api.baseUrl, approvalPolicy: 'on-request', sandboxMode: 'workspace-write', ...(extraToml ? { extraToml } : {}) });
  const dir = mkdtempSync(join(tmpdir(), `belltower-codex-${name}-`));
  const env: Record<string, string | undefined> = { ...home.env, BELLTOWER_CODEX_BIN: install.ok ? install.bin : '', BELLTOWER_STATE_DIR: join(dir, 'state'), CI: undefined };
  const command = `'${process.execPath}' '${BELLTOWER_BIN}' codex --session codex-${name} 2> ${dir}/stderr; echo "EXIT=$?" > ${dir}/exit; sleep 600`;
  const tmux = new Tmux({ cols: 200, rows: 40, command, env, cwd: home.cwd });
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
    await tmux.waitFor('codex at rest', (s) => stateOf(s, 1, 'codex') === 'idle', 30_000);
    tmux.keys('Enter');
    await tmux.waitFor('focus mode', (s) => s.includes('FOCUS 1 codex'));
    tmux.type('Create the file');
    await tmux.waitFor('the prompt typed', (s) => s.includes('Create the file'));
    tmux.keys('Enter');
    await tmux.waitFor('the request sent', () => api.mainRequests().length > 0, 15_000);
    tmux.keys('C-\\');
    await tmux.waitFor('blocked, with its dialog', (s) => stateOf(s, 1, 'codex') === 'blocked' && s.includes(dialog), 30_000);
    /** The belltower CLI, as a script beside the grid runs it. */
    const cli = (...args: string[]) => belltowerCli([...args, '--session', `codex-${name}`], { env: { ...process.env, ...env } as NodeJS.ProcessEnv, cwd: home.cwd });
    return { api, tmux, close, cwd: home.cwd, cli };
  } catch (error) {
    await close();
    throw error;
  }
}

describe('answering the real Codex from the grid (tmux)', () => {
  it('y allows the command once: it runs, and the turn ends done, without entering the tile', async (ctx) => {
    if (!install.ok) return ctx.skip(install.reason);
    const { api, tmux, close, cwd } = await blockedCodex('allow', [escalated('touch belltower-answered.txt'), text('File created.')]);
    try {
      // Codex names the command in no hook and no OSC 7501: its header reads it off the dialog.
      const asked = await tmux.waitFor('the command in the header', (s) => /◆ approve command: touch belltower-answered\.txt/.test(headerOf(s, 1, 'codex') ?? ''), 15_000);
      expect(headerOf(asked, 1, 'codex')).toMatch(/◆ approve command: touch belltower-answered\.txt/);
      tmux.keys('y');
      await tmux.waitFor('done', (s) => stateOf(s, 1, 'codex') === 'done', 30_000);
      expect(existsSync(join(cwd, 'belltower-answered.txt'))).toBe(true);
      expect(api.mainRequests()).toHaveLength(2);
      expect(tmux.screen().split('\n').filter(Boolean).at(-1)).not.toMatch(/FOCUS/);
    } finally {
      await close();
    }
  }, 120_000);

  it('N denies it: the command never runs, and Codex says it was not run', async (ctx) => {
    if (!install.ok) return ctx.skip(install.reason);
    const { api, tmux, close, cwd } = await blockedCodex('deny', [escalated('touch belltower-denied.txt'), text('Understood.')]);
    try {
      tmux.keys('N');
      const left = await tmux.waitFor('the request gone', (s) => stateOf(s, 1, 'codex') !== 'blocked', 30_000);
      await tmux.waitFor('the denial said by Codex', (s) => /denied|canceled|cancelled|rejected|not run/i.test(s.split('\n').filter((line) => line.includes('touch belltower-denied.txt')).join('\n')), 30_000);
      expect(stateOf(left, 1, 'codex')).not.toBe('blocked');
      expect(existsSync(join(cwd, 'belltower-denied.txt'))).toBe(false);
      expect(tmux.screen().split('\n').filter(Boolean).at(-1)).not.toMatch(/FOCUS/);
    } finally {
      await close();
    }
  }, 120_000);

  it('Y allows it and does not ask again: the same command again runs without a question', async (ctx) => {
    if (!install.ok) return ctx.skip(install.reason);
    // Codex 0.171 offers "commands that start with" the whole command line: the same one again.
    const script = [escalated('touch belltower-answered.txt'), escalated('touch belltower-answered.txt'), text('Both done.')];
    const { api, tmux, close, cwd } = await blockedCodex('always', script);
    try {
      expect(tmux.screen()).toMatch(/don't ask again for commands that start with/);
      tmux.keys('Y');
      // Nobody answers a second question: the turn ends only if the second command was not asked.
      await tmux.waitFor('done', (s) => stateOf(s, 1, 'codex') === 'done', 60_000);
      expect(existsSync(join(cwd, 'belltower-answered.txt'))).toBe(true);
      expect(api.mainRequests()).toHaveLength(3);
      expect(tmux.screen()).toContain('You approved codex to always run commands that start with');
    } finally {
      await close();
    }
  }, 150_000);

  it('a stale press: the deny form opened on one request, and the request replaced before ⏎, is refused and sends nothing', async (ctx) => {
    if (!install.ok) return ctx.skip(install.reason);
    const script = [escalated('touch belltower-first.txt'), escalated('touch belltower-second.txt'), text('Both done.')];
    const { api, tmux, close, cwd, cli } = await blockedCodex('stale', script);
    try {
      // T opens the one-line field for the request shown now: the first command.
      tmux.keys('T');
      await tmux.waitFor('the deny form', (s) => s.includes('deny and tell 1 codex'));
      // Meanwhile a script answers that request, and Codex asks the second.
      const allowed = await cli('answer', '1', 'allow');
      expect(allowed.stderr).toBe('');
      expect(allowed.code).toBe(0);
      await tmux.until('the first command run', () => existsSync(join(cwd, 'belltower-first.txt')), 30_000);
      await tmux.until('the second request', () => api.mainRequests().length === 2, 30_000);
      await tmux.waitFor('blocked on the second', (s) => stateOf(s, 1, 'codex') === 'blocked' && s.includes('belltower-second.txt'), 30_000);
      const before = tmux.screen();
      tmux.type('use a different name');
      tmux.keys('Enter');
      const refused = await tmux.waitFor('the refusal', (s) => s.includes('changed since it was shown'), 15_000);
      expect(refused).toContain('nothing sent');
      // Nothing reached Codex: still asking about the second command, which has not run.
      expect(stateOf(refused, 1, 'codex')).toBe('blocked');
      expect(existsSync(join(cwd, 'belltower-second.txt'))).toBe(false);
      expect(api.mainRequests()).toHaveLength(2);
      expect(before).toContain('belltower-second.txt');
      // The second request, now shown, is answered by one key as usual.
      tmux.keys('y');
      await tmux.waitFor('done', (s) => stateOf(s, 1, 'codex') === 'done', 30_000);
      expect(existsSync(join(cwd, 'belltower-second.txt'))).toBe(true);
      expect(api.mainRequests()).toHaveLength(3);
    } finally {
      await close();
    }
  }, 150_000);

  describe('its request_user_input question (0.171)', () => {
    // Offered in its Default mode with this feature on (in Plan mode without it).
    const questionToml = '[features]\ndefault_mode_request_user_input = true\nsuppress_unstable_features_warning = true';
    const database = {
      questions: [{ id: 'db_choice', header: 'Database', question: 'Which database should the service use?', options: [{ label: 'Postgres (Recommended)', description: 'Relational, the team knows it.' }, { label: 'SQLite', description: 'A single file, no server.' }] }],
    };
    /** What Codex hands the model for the question: its function_call_output. */
    const answerOf = (api: { mainRequests(): { body: unknown }[] }) => {
      for (const request of api.mainRequests()) {
        const input = (request.body as { input?: { type?: string; call_id?: string; output?: unknown }[] }).input ?? [];
        const output = input.find((item) => item.type === 'function_call_output' && item.call_id === 'call_question1');
        if (output) return typeof output.output === 'string' ? output.output : JSON.stringify(output.output);
      }
      return undefined;
    };

    it('o shows the question with its options; a digit picks one, and the model gets it; your own words are refused: it takes none', async (ctx) => {
      if (!install.ok) return ctx.skip(install.reason);
      const script = [functionCall('request_user_input', database, { callId: 'call_question1' }), text('SQLite it is.')];
      const { api, tmux, close, cli } = await blockedCodex('question', script, { dialog: 'None of the above', extraToml: questionToml });
      try {
        // A question, in its words as its rollout records the call.
        await tmux.waitFor('the question in the header', (s) => /◆ Which database should the service use\?/.test(headerOf(s, 1, 'codex') ?? ''), 15_000);
        // Codex offers no option for an answer in your own words (its "None of the above" takes a note).
        const own = await cli('answer', '1', 'text', '--message', 'MySQL, please');
        expect(own.code).toBe(5);
        expect(own.stderr).toMatch(/no "your own words" option: nothing sent/);
        tmux.keys('o');
        const form = await tmux.waitFor('the question with its options', (s) => s.includes('answer 1 codex') && /2 +SQLite/.test(s));
        expect(form).toMatch(/1 +Postgres \(Recommended\)/);
        tmux.keys('2');
        await tmux.until('the answer sent to the model', () => answerOf(api) !== undefined, 30_000);
        expect(JSON.parse(answerOf(api)!)).toEqual({ answers: { db_choice: { answers: ['SQLite'] } } });
        await tmux.waitFor('done', (s) => stateOf(s, 1, 'codex') === 'done', 30_000);
      } finally {
        await close();
      }
    }, 150_000);
  });
});
