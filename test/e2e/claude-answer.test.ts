/**
 * End to end: answering the real Claude Code 2.1.332's permission request from the grid (tmux),
 * without entering its tile. The tile goes blocked and its header names the command; `y` allows it
 * once (the tool runs: its result reaches the fake API, and the turn ends done); `N` denies it (the
 * API sees the refusal as the tool's result). The key is the option the dialog draws for that
 * answer, sent once, only while the tile still asks what it was shown asking.
 *
 * Skips (with the reason) when the pinned CLI cannot be installed or tmux is missing.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createClaudeHome } from '../support/claude-home.js';
import type { InstallResult } from '../support/claude-install.js';
import { BELLTOWER_BIN, claudeInTmux } from '../support/claude-in-tmux.js';
import { lastUserOf, permissionBash, startFakeAnthropic, text, toolUse } from '../support/fake-anthropic.js';
import type { MessageReply, MessagesRequest, RecordedRequest } from '../support/fake-anthropic.js';
import { sleep } from '../support/fake-server.js';
import { headerOf, stateOf, Tmux } from '../support/tmux.js';
import type { TileInfo } from '../../src/control/protocol.js';
import { belltowerCli } from '../support/belltower-cli.js';

/** The CLI against the belltower whose state folder is under `dir`. */
const cli = (dir: string, args: string[]) => belltowerCli(args, { env: { ...process.env, BELLTOWER_STATE_DIR: join(dir, 'state') } });


let install: InstallResult = { ok: false, reason: 'not attempted' };

beforeAll(async () => {
  install = await claudeInTmux();
}, 15 * 60_000);

const toolResult = (r: RecordedRequest) => r.kind === 'main' && lastUserOf(r.body as MessagesRequest).toolResults.length > 0;

async function blockedClaude(name: string, script: MessageReply[] = [permissionBash('touch belltower-answered.txt'), text('Done with it.')], asks = 'touch belltower-answered.txt', dialog = 'Do you want to proceed?') {
  const api = await startFakeAnthropic({ script });
  const home = createClaudeHome({ baseUrl: api.url });
  const dir = mkdtempSync(join(tmpdir(), `belltower-claude-${name}-`));
  const env: Record<string, string | undefined> = { ...home.env, BELLTOWER_CLAUDE_BIN: install.ok ? install.bin : '', BELLTOWER_STATE_DIR: join(dir, 'state'), CI: undefined };
  const command = `'${process.execPath}' '${BELLTOWER_BIN}' claude --session claude-${name} 2> ${dir}/stderr; echo "EXIT=$?" > ${dir}/exit; sleep 600`;
  const tmux = new Tmux({ cols: 120, rows: 40, command, env, cwd: home.cwd });
  const close = async () => {
    // Quit belltower (which ends Claude) before its HOME goes: a Claude still running writes into it.
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
    await tmux.waitFor('claude at rest', (s) => stateOf(s, 1, 'claude') === 'idle', 30_000);
    await sleep(600);
    tmux.keys('Enter');
    await tmux.waitFor('focus mode', (s) => s.includes('FOCUS 1 claude'));
    tmux.type('Create the file');
    await sleep(150);
    tmux.keys('Enter');
    await tmux.waitFor('working', (s) => stateOf(s, 1, 'claude') === 'working', 15_000);
    tmux.keys('C-\\');
    // Blocked, and its header says what it asks; the dialog is drawn in the tile.
    await tmux.waitFor('blocked, naming the command, with its dialog', (s) => stateOf(s, 1, 'claude') === 'blocked' && (headerOf(s, 1, 'claude') ?? '').includes(asks) && s.includes(dialog), 30_000);
    return { api, tmux, close, cwd: home.cwd, dir, session: `claude-${name}` };
  } catch (error) {
    await close();
    throw error;
  }
}

describe('answering the real Claude Code from the grid (tmux)', () => {
  it('y allows the request once: the tool runs and the turn ends done, without entering the tile', async (ctx) => {
    if (!install.ok) return ctx.skip(install.reason);
    const { api, tmux, close, cwd } = await blockedClaude('allow');
    try {
      tmux.keys('y');
      await api.waitForRequest(toolResult, 30_000);
      const result = lastUserOf(api.requests.find(toolResult)!.body as MessagesRequest).toolResults[0]!;
      expect(result.is_error ?? false).toBe(false);
      expect(existsSync(join(cwd, 'belltower-answered.txt'))).toBe(true);
      await tmux.waitFor('done', (s) => stateOf(s, 1, 'claude') === 'done', 30_000);
      // The grid kept the keyboard throughout.
      expect(tmux.screen().split('\n').filter(Boolean).at(-1)).not.toMatch(/FOCUS/);
    } finally {
      await close();
    }
  }, 120_000);

  it('N denies it: the tool never runs, and the tile is no longer blocked', async (ctx) => {
    if (!install.ok) return ctx.skip(install.reason);
    const { api, tmux, close, cwd } = await blockedClaude('deny');
    try {
      tmux.keys('N');
      await tmux.waitFor('no longer blocked', (s) => stateOf(s, 1, 'claude') !== 'blocked', 20_000);
      // Claude either reports the refusal to the model or ends the turn there; the tool never ran.
      const results = api.requests.filter(toolResult).flatMap((r) => lastUserOf(r.body as MessagesRequest).toolResults);
      for (const r of results) expect(r.is_error).toBe(true);
      expect(existsSync(join(cwd, 'belltower-answered.txt'))).toBe(false);
    } finally {
      await close();
    }
  }, 120_000);

  it("Y allows it and does not ask again: the next call of the same command runs without a question", async (ctx) => {
    if (!install.ok) return ctx.skip(install.reason);
    const script = [permissionBash('npm --version'), permissionBash('npm --version'), text('Both done.')];
    const { api, tmux, close } = await blockedClaude('always', script, 'npm --version');
    try {
      expect(tmux.screen()).toMatch(/2\. Yes, and don’t ask again for: npm/);
      tmux.keys('Y');
      // Nobody answers a second question: the turn ends only if the second call was not asked.
      await tmux.waitFor('done', (s) => stateOf(s, 1, 'claude') === 'done', 60_000);
      const results = api.requests.filter(toolResult).flatMap((r) => lastUserOf(r.body as MessagesRequest).toolResults);
      expect(results.length).toBe(2);
      for (const r of results) expect(r.is_error ?? false).toBe(false);
    } finally {
      await close();
    }
  }, 150_000);

  it('belltower answer: deny with a message for the request ls --json shows; the message reaches the model as the next prompt', async (ctx) => {
    if (!install.ok) return ctx.skip(install.reason);
    const { api, tmux, close, cwd, dir, session } = await blockedClaude('script', [permissionBash('touch belltower-answered.txt'), text('Understood, I will not.')]);
    try {
      const [tile] = JSON.parse((await cli(dir, ['ls', '--json', '--session', session])).stdout) as TileInfo[];
      expect(tile!.request?.asks).toMatch(/touch belltower-answered\.txt/);
      // Claude 2.1.332 offers yes, yes for this folder, a switch to auto mode (no answer of ours), no.
      expect(tile!.request?.options.map((o) => o.answer)).toEqual(['allow', 'always', null, 'deny']);
      // An id that is not the request's: refused, exit 3, and the dialog is still there.
      const stale = await cli(dir, ['answer', '1', 'allow', '--request', '0000000000', '--session', session]);
      expect(stale.code).toBe(3);
      expect(stateOf(tmux.screen(), 1, 'claude')).toBe('blocked');
      const denied = await cli(dir, ['answer', '1', 'deny', '--message', 'leave the files alone', '--request', tile!.request!.id, '--session', session]);
      expect(denied.stderr).toBe('');
      expect(denied.code).toBe(0);
      const told = await api.waitForRequest((r) => r.kind === 'main' && lastUserOf(r.body as MessagesRequest).text.includes('leave the files alone'), 30_000);
      expect(told).toBeTruthy();
      await tmux.waitFor('done', (s) => stateOf(s, 1, 'claude') === 'done', 30_000);
      expect(existsSync(join(cwd, 'belltower-answered.txt'))).toBe(false);
    } finally {
      await close();
    }
  }, 150_000);

  it('a stale press: the deny form opened on one request, a script answers it (always), Claude asks another before ⏎: refused, nothing sent', async (ctx) => {
    if (!install.ok) return ctx.skip(install.reason);
    const script = [permissionBash('npm --version'), permissionBash('touch belltower-second.txt'), text('Both done.')];
    const { api, tmux, close, cwd, dir, session } = await blockedClaude('stale', script, 'npm --version');
    try {
      // T opens the one-line field for the request shown now: npm --version.
      tmux.keys('T');
      await tmux.waitFor('the deny form', (s) => s.includes('deny and tell 1 claude'));
      // Meanwhile a script answers exactly that request, "always", as ls --json names it.
      const [tile] = JSON.parse((await cli(dir, ['ls', '--json', '--session', session])).stdout) as TileInfo[];
      expect(tile!.request).toMatchObject({ tool: 'Bash', command: 'npm --version' });
      const always = await cli(dir, ['answer', '1', 'always', '--request', tile!.request!.id, '--session', session]);
      expect(always.stderr).toBe('');
      expect(always.code).toBe(0);
      await api.waitForRequest(toolResult, 30_000);
      await tmux.waitFor('blocked on the second', (s) => stateOf(s, 1, 'claude') === 'blocked' && (headerOf(s, 1, 'claude') ?? '').includes('touch belltower-second.txt'), 30_000);
      const requests = api.requests.length;
      tmux.type('use a different name');
      tmux.keys('Enter');
      const refused = await tmux.waitFor('the refusal', (s) => s.includes('changed since it was shown'), 15_000);
      expect(refused).toContain('nothing sent');
      // Nothing reached Claude: it still asks about the second command, which has not run.
      expect(stateOf(refused, 1, 'claude')).toBe('blocked');
      expect(existsSync(join(cwd, 'belltower-second.txt'))).toBe(false);
      expect(api.requests.length).toBe(requests);
      // A script holding the first request's id is refused the same way: exit 3, nothing sent.
      const late = await cli(dir, ['answer', '1', 'deny', '--request', tile!.request!.id, '--session', session]);
      expect(late.code).toBe(3);
      expect(late.stderr).toMatch(/request changed since it was shown: nothing sent \(now: approve Bash: touch belltower-second\.txt/);
      expect(stateOf(tmux.screen(), 1, 'claude')).toBe('blocked');
      expect(api.requests.length).toBe(requests);
      // The request now shown is answered by one key as usual.
      tmux.keys('y');
      await tmux.waitFor('done', (s) => stateOf(s, 1, 'claude') === 'done', 30_000);
      expect(existsSync(join(cwd, 'belltower-second.txt'))).toBe(true);
    } finally {
      await close();
    }
  }, 150_000);

  it("o answers a question (AskUserQuestion) from the grid: a digit picks its option, and the model gets it", async (ctx) => {
    if (!install.ok) return ctx.skip(install.reason);
    const { api, tmux, close } = await blockedClaude('question', [askDatabase(), text('SQLite it is.')], 'Which database should I use?', 'Type something.');
    try {
      tmux.keys('o');
      const form = await tmux.waitFor('the question with its options', (s) => s.includes('answer 1 claude') && /2 +SQLite/.test(s));
      expect(form).toMatch(/1 +Postgres/);
      tmux.keys('2');
      const answered = await api.waitForRequest(toolResult, 30_000);
      expect(JSON.stringify(lastUserOf(answered.body as MessagesRequest).toolResults[0])).toContain('SQLite');
      await tmux.waitFor('done', (s) => stateOf(s, 1, 'claude') === 'done', 30_000);
    } finally {
      await close();
    }
  }, 150_000);

  it('belltower answer text --message: the question answered in your own words', async (ctx) => {
    if (!install.ok) return ctx.skip(install.reason);
    const { api, tmux, close, dir, session } = await blockedClaude('question-text', [askDatabase(), text('MySQL it is.')], 'Which database should I use?', 'Type something.');
    try {
      const [tile] = JSON.parse((await cli(dir, ['ls', '--json', '--session', session])).stdout) as TileInfo[];
      expect(tile!.kind).toBe('question');
      expect(tile!.request?.options.map((o) => o.label).slice(0, 3)).toEqual(['Postgres', 'SQLite', 'Type something.']);
      const answered = await cli(dir, ['answer', '1', 'text', '--message', 'MySQL, please', '--request', tile!.request!.id, '--session', session]);
      expect(answered.stderr).toBe('');
      expect(answered.code).toBe(0);
      const result = await api.waitForRequest(toolResult, 30_000);
      expect(JSON.stringify(lastUserOf(result.body as MessagesRequest).toolResults[0])).toContain('MySQL, please');
      await tmux.waitFor('done', (s) => stateOf(s, 1, 'claude') === 'done', 30_000);
    } finally {
      await close();
    }
  }, 150_000);

  it('a key on a tile that is not asking sends nothing and says so', async (ctx) => {
    if (!install.ok) return ctx.skip(install.reason);
    const { api, tmux, close } = await blockedClaude('stale');
    try {
      // Answered in the tile first, then y from the grid: the request it was shown is gone.
      tmux.keys('Enter');
      await tmux.waitFor('focus mode', (s) => s.includes('FOCUS 1 claude'));
      for (let i = 0; i < 12 && !api.requests.some(toolResult); i++) {
        tmux.keys('Enter');
        await api.waitForRequest(toolResult, 700).catch(() => undefined);
      }
      tmux.keys('C-\\');
      await tmux.waitFor('done', (s) => stateOf(s, 1, 'claude') === 'done', 30_000);
      tmux.keys('y');
      await tmux.waitFor('refused', (s) => /not asking anything/.test(s));
    } finally {
      await close();
    }
  }, 120_000);
});

/** Claude Code's AskUserQuestion: one question, two options (it adds "Type something." itself). */
function askDatabase(): MessageReply {
  return toolUse('AskUserQuestion', {
    questions: [{ question: 'Which database should I use?', header: 'Database', multiSelect: false, options: [{ label: 'Postgres', description: 'relational' }, { label: 'SQLite', description: 'a file' }] }],
  });
}
