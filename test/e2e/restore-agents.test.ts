/**
 * End to end, "Done means" of restore: the real Claude Code 2.1.332 and Codex 0.171.0 and a shell
 * in the grid (the built CLI inside tmux, offline against the fake APIs). Each agent finishes a
 * turn that nobody looks at; belltower is killed with SIGKILL while Codex is in the middle of its
 * next turn; `belltower` in the same window offers the saved workspace; all three tiles come back in the same places, Claude's shows its
 * unseen done (not rung again), and the next prompt to each agent carries the earlier
 * conversation to its API. Gemini CLI 0.61.0 the same way, on its own.
 *
 * Skips (with the reason) when a pinned CLI cannot be installed, tmux is missing or the CLI is
 * not built.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseWorkspaceState } from '../../src/restore/workspace-state.js';
import type { WorkspaceState } from '../../src/restore/workspace-state.js';
import { createClaudeHome } from '../support/claude-home.js';
import { tryInstallAgent } from '../support/claude-install.js';
import type { InstallResult } from '../support/claude-install.js';
import { createCodexHome } from '../support/codex-home.js';
import { startFakeAnthropic, text } from '../support/fake-anthropic.js';
import { startFakeGemini, text as geminiText } from '../support/fake-gemini.js';
import { hang, startFakeOpenAI, text as openaiText } from '../support/fake-openai.js';
import { sleep } from '../support/fake-server.js';
import { createGeminiHome } from '../support/gemini-home.js';
import { headerOf, stateOf, Tmux, tmuxMissing } from '../support/tmux.js';
import { shellQuote as q } from '../support/shell-quote.js';

const repo = join(import.meta.dirname, '..', '..');
const bin = join(repo, 'bin', 'belltower.js');
let claude: InstallResult = { ok: false, reason: 'not attempted' };
let codex: InstallResult = { ok: false, reason: 'not attempted' };
let gemini: InstallResult = { ok: false, reason: 'not attempted' };
const cleanups: (() => void | Promise<void>)[] = [];

beforeAll(async () => {
  const problem = tmuxMissing() ?? (existsSync(join(repo, 'dist', 'cli', 'main.js')) ? null : 'the CLI is not built (npm run build)');
  if (problem) {
    claude = codex = gemini = { ok: false, reason: problem };
    return;
  }
  const log = (line: string) => console.error(`[agent-install] ${line}`);
  claude = await tryInstallAgent('claude', { log });
  codex = await tryInstallAgent('codex', { log });
  gemini = await tryInstallAgent('gemini', { log });
}, 20 * 60_000);

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function savedState(file: string): WorkspaceState | null {
  if (!existsSync(file)) return null;
  const parsed = parseWorkspaceState(readFileSync(file, 'utf8'));
  return parsed.ok ? parsed.state : null;
}

/** `belltower ARGS --session NAME` (a control command), its stdout. */
function control(args: string[], session: string, env: Record<string, string | undefined>, cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [bin, ...args, '--session', session], { env: env as NodeJS.ProcessEnv, cwd }, (error, stdout, stderr) => {
      if (error) reject(new Error(`belltower ${args.join(' ')}: ${stderr || error.message}`));
      else resolve(stdout);
    });
  });
}

/** The restored agent has started talking to belltower (its first hook or OSC 7501 status). */
async function agentSpeaks(tile: number, session: string, env: Record<string, string | undefined>, cwd: string, after: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const why = JSON.parse(await control(['why', String(tile), '--json'], session, env, cwd)) as { why: { source: string; t: number }[] };
    if (why.why.some((entry) => (entry.source === 'psp' || entry.source === 'hook' || entry.source === 'notify') && entry.t >= after)) return;
    if (Date.now() > deadline) throw new Error(`tile ${tile} never spoke after the restore: ${JSON.stringify(why)}`);
    await sleep(250);
  }
}

/** Where tile `id`'s header is drawn: its line and column. */
function placeOf(screen: string, id: number, name: string): { line: number; column: number } | null {
  const lines = screen.split('\n');
  for (const [line, text] of lines.entries()) {
    const column = text.search(new RegExp(`[╭┏╔] ${id} ${name} `));
    if (column >= 0) return { line, column };
  }
  return null;
}

function unseenIn(screenWithEscapes: string, id: number, name: string): boolean {
  const line = screenWithEscapes.split('\n').find((l) => new RegExp(`[╭┏╔] ${id} ${name} `).test(l.replace(/\x1b\[[0-9;]*m/g, '')));
  return line !== undefined && /\x1b\[([0-9;]*;)?7(;[0-9;]*)?m(\x1b\[[0-9;]*m)*(done|failed)/.test(line);
}

/** q, and y if belltower asks (an agent may still be busy with a side request). */
async function quit(tmux: Tmux, dir: string, run: number): Promise<void> {
  tmux.keys('q');
  await tmux.until('belltower to quit or ask', () => existsSync(join(dir, `exit${run}`)) || tmux.screen().includes('y quits'), 30_000);
  if (!existsSync(join(dir, `exit${run}`))) tmux.keys('y');
  await tmux.until(`run ${run} to end`, () => existsSync(join(dir, `exit${run}`)), 30_000);
}

/** tmux running `belltower ARGS` and then `belltower` with each of `then` in one window. */
function runs(dir: string, session: string, args: string, env: Record<string, string | undefined>, cwd: string, then: string[] = ['']): Tmux {
  const run = (n: number, a: string) => `${q(process.execPath)} ${q(bin)} --session ${session} ${a} 2> ${dir}/stderr${n}; echo "EXIT=$?" > ${dir}/exit${n}`;
  const command = [run(1, args), 'echo FIRST-ENDED', ...then.map((a, i) => run(i + 2, a)), 'echo ALL-DONE', 'sleep 600'].join('\n');
  const tmux = new Tmux({ cols: 180, rows: 50, command, env: { ...env, CI: undefined }, cwd });
  cleanups.push(() => tmux.close());
  return tmux;
}

describe('restore with the real agents (tmux)', () => {
  it('Claude, Codex and a shell come back after kill -9: same places, the unseen done, the same conversations', async (ctx) => {
    if (!claude.ok) return ctx.skip(claude.reason);
    if (!codex.ok) return ctx.skip(codex.reason);
    const anthropic = await startFakeAnthropic({ script: [text('Noted the first word.'), text('The word was PINEAPPLE.')] });
    // Codex's second turn never gets its answer: belltower is killed in the middle of it.
    const openai = await startFakeOpenAI({ script: [openaiText('Noted the second word.'), hang(), openaiText('The word was MANGO.')] });
    cleanups.push(() => anthropic.close(), () => openai.close());
    const claudeHome = createClaudeHome({ baseUrl: anthropic.url });
    const codexHome = createCodexHome({ baseUrl: openai.baseUrl, cwd: claudeHome.cwd });
    cleanups.push(() => claudeHome.cleanup(), () => codexHome.cleanup());
    const dir = mkdtempSync(join(tmpdir(), 'belltower-restore-agents-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const session = 'done-means';
    const env: Record<string, string | undefined> = {
      ...claudeHome.env,
      CODEX_HOME: codexHome.codexHome,
      [codexHome.keyVar]: codexHome.env[codexHome.keyVar],
      BELLTOWER_CLAUDE_BIN: claude.bin,
      BELLTOWER_CODEX_BIN: codex.bin,
      BELLTOWER_STATE_DIR: join(dir, 'state'),
      SHELL: '/bin/bash',
    };
    const cwd = claudeHome.cwd;
    const file = join(dir, 'state', 'workspaces', `${session}.json`);
    const tmux = runs(dir, session, 'claude codex shell', env, cwd, ['', '--restore']);

    await tmux.waitFor('claude and codex at rest', (s) => stateOf(s, 1, 'claude') === 'idle' && stateOf(s, 2, 'codex') === 'idle' && stateOf(s, 3, 'shell') === 'idle', 60_000);
    await sleep(600); // belltower's first idle comes a moment before each agent's input takes an Enter
    // Both finish a turn while the user looks at neither (prompts sent from a script).
    await control(['send', '1', 'Remember the word PINEAPPLE', '--enter'], session, env, cwd);
    await tmux.waitFor('claude done', (s) => stateOf(s, 1, 'claude') === 'done', 60_000);
    await control(['send', '2', 'Remember the word MANGO', '--enter'], session, env, cwd);
    await tmux.waitFor('codex done', (s) => stateOf(s, 2, 'codex') === 'done', 60_000);
    await tmux.until('two bells', () => tmux.bells() === 2);
    await tmux.until('both conversations saved', () => {
      const saved = savedState(file);
      return saved !== null && saved.tiles[0]?.unseen === true && saved.tiles[0].state === 'done' && saved.tiles[0].conversation !== undefined && saved.tiles[1]?.conversation !== undefined;
    }, 15_000);
    const places = ['claude', 'codex', 'shell'].map((name, i) => placeOf(tmux.screen(), i + 1, name));
    expect(places.every((p) => p !== null)).toBe(true);
    // Codex is in the middle of a turn when belltower is killed.
    await control(['send', '2', 'Think about it for a long time', '--enter'], session, env, cwd);
    await tmux.until('codex working, saved', () => savedState(file)?.tiles[1]?.state === 'working', 30_000);
    // The unanswered request must be the one in flight when belltower dies, or the next one hangs.
    await tmux.until('codex asking', () => openai.mainRequests().some((r) => JSON.stringify(r.body).includes('Think about it')), 30_000);
    const before = savedState(file)!;
    expect(before.tiles.map((t) => t.name)).toEqual(['claude', 'codex', 'shell']);

    process.kill(before.pid, 'SIGKILL');
    await tmux.waitFor('the question', (s) => /Restore 3 tiles from \d\d:\d\d \(belltower was killed\)\? \[Y\/n\]/.test(s), 30_000);
    tmux.keys('Enter');
    // (The killed belltower's last frame stays on the screen until the new grid paints: wait for the new one.)
    let screen = await tmux.waitFor('three tiles back', (s) => /restored 3 tiles from/.test(s) && headerOf(s, 1, 'claude') !== undefined && headerOf(s, 2, 'codex') !== undefined && headerOf(s, 3, 'shell') !== undefined, 30_000);
    expect(['claude', 'codex', 'shell'].map((name, i) => placeOf(screen, i + 1, name))).toEqual(places);
    // Claude's unseen done: shown at once, in reverse, with no second bell.
    expect(stateOf(screen, 1, 'claude')).toBe('done');
    expect(unseenIn(tmux.screen(true), 1, 'claude')).toBe(true);
    await agentSpeaks(1, session, env, cwd, 0);
    await agentSpeaks(2, session, env, cwd, 0);
    screen = tmux.screen();
    expect(stateOf(screen, 1, 'claude')).toBe('done');
    expect(tmux.bells()).toBe(2);
    // (How long the restore took is not asserted: each step above waits for its event, with its
    // own generous deadline.)

    // The next prompt carries on the same conversations: each API sees the earlier messages.
    await sleep(600);
    tmux.keys('1', 'Enter');
    await tmux.waitFor('focus on claude', (s) => s.includes('FOCUS 1 claude'));
    tmux.type('What was the word?');
    await sleep(150); // Claude reads text and Enter in one write as a paste
    tmux.keys('Enter');
    await tmux.waitFor('claude answered from the conversation', (s) => s.includes('The word was PINEAPPLE.'), 60_000);
    const claudeAsked = JSON.stringify(anthropic.mainRequests().at(-1)!.body);
    expect({ earlier: claudeAsked.includes('Remember the word PINEAPPLE'), now: claudeAsked.includes('What was the word?') }).toEqual({ earlier: true, now: true });
    tmux.keys('C-\\');
    await tmux.waitFor('claude done again', (s) => stateOf(s, 1, 'claude') === 'done' && s.includes('belltower · 3 tiles'), 30_000);
    // Looking at Claude's new done (zoom) makes it seen.
    tmux.keys('z');
    await tmux.waitFor('claude seen', (s) => stateOf(s, 1, 'claude') === 'idle');
    tmux.keys('z');
    await control(['send', '2', 'What was the word?', '--enter'], session, env, cwd);
    await tmux.waitFor('codex answered from the conversation', (s) => s.includes('The word was MANGO.'), 60_000);
    const codexAsked = JSON.stringify(openai.mainRequests().at(-1)!.body);
    expect({ earlier: codexAsked.includes('Remember the word MANGO'), now: codexAsked.includes('What was the word?') }).toEqual({ earlier: true, now: true });

    // (The shell is let finish starting: a shell ended inside its rc files can leave their locks.)
    await tmux.waitFor('the shell at its prompt', (s) => stateOf(s, 3, 'shell') === 'idle', 30_000);
    await quit(tmux, dir, 2);
    expect(readFileSync(join(dir, 'stderr2'), 'utf8')).toBe('');
    const bells = tmux.bells();

    // After q, --restore brings it back without asking. Claude resumes a conversation whose log
    // holds two finished turns: its history is not news — no done, no bell.
    await tmux.waitFor('restored again', (s) => headerOf(s, 1, 'claude') !== undefined && headerOf(s, 3, 'shell') !== undefined, 30_000);
    await agentSpeaks(1, session, env, cwd, 0);
    await sleep(2_500);
    expect(stateOf(tmux.screen(), 1, 'claude')).toBe('idle');
    expect(tmux.bells()).toBe(bells);
    await tmux.waitFor('the shell at its prompt', (s) => stateOf(s, 3, 'shell') === 'idle', 30_000);
    await quit(tmux, dir, 3);
  }, 300_000);

  it('Gemini comes back after kill -9 with its conversation', async (ctx) => {
    if (!gemini.ok) return ctx.skip(gemini.reason);
    const api = await startFakeGemini({ script: [geminiText('Noted the word.'), geminiText('The word was KIWI.')] });
    cleanups.push(() => api.close());
    const home = createGeminiHome({ baseUrl: api.url });
    cleanups.push(() => home.cleanup());
    const dir = mkdtempSync(join(tmpdir(), 'belltower-restore-gemini-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const session = 'gemini-restore';
    const env: Record<string, string | undefined> = { ...home.env, BELLTOWER_GEMINI_BIN: gemini.bin, BELLTOWER_STATE_DIR: join(dir, 'state') };
    const file = join(dir, 'state', 'workspaces', `${session}.json`);
    const tmux = runs(dir, session, 'gemini', env, home.cwd);

    await tmux.waitFor('gemini at rest', (s) => stateOf(s, 1, 'gemini') === 'idle', 90_000);
    await sleep(1_500);
    await control(['send', '1', 'Remember the word KIWI', '--enter'], session, env, home.cwd);
    await tmux.waitFor('gemini answered', (s) => s.includes('Noted the word.') && stateOf(s, 1, 'gemini') !== 'working', 60_000);
    await tmux.until('its conversation saved', () => savedState(file)?.tiles[0]?.conversation !== undefined, 15_000);
    // Gemini writes its session file as the turn goes; give it the moment it takes.
    await sleep(1_000);
    process.kill(savedState(file)!.pid, 'SIGKILL');
    await tmux.waitFor('the question', (s) => /Restore 1 tile from/.test(s), 30_000);
    tmux.keys('Enter');
    await tmux.waitFor('gemini back', (s) => headerOf(s, 1, 'gemini') !== undefined, 30_000);
    await tmux.waitFor('gemini redrew', (s) => !/restored ·/.test(headerOf(s, 1, 'gemini') ?? 'restored ·'), 60_000);
    // The resumed Gemini drops what is typed until its prompt box is up, which can take seconds
    // after its first hook: type until the words show in the box, then submit.
    await waitForHook(session, env, home.cwd);
    for (let tries = 0; ; tries++) {
      await control(['send', '1', 'What was the word'], session, env, home.cwd);
      const shown = await tmux.waitFor('the question in the prompt box', (s) => s.includes('> What was the word'), 5_000).then(() => true, () => false);
      if (shown) break;
      if (tries === 12) throw new Error('the resumed Gemini never took typed text');
    }
    await control(['send', '1', '?', '--enter'], session, env, home.cwd);
    await tmux.waitFor('gemini answered from the conversation', (s) => s.includes('The word was KIWI.'), 60_000);
    // (Gemini's prompt box takes a trailing "?" as its shortcut key: the question arrives without it.)
    const asked = JSON.stringify(api.mainRequests().at(-1)!.body);
    expect({ earlier: asked.includes('Remember the word KIWI'), now: asked.includes('What was the word') }).toEqual({ earlier: true, now: true });
    // It resumed: no note that it could not.
    const info = JSON.parse(await control(['ls', '--json'], session, env, home.cwd)) as { note?: string }[];
    expect(info[0]?.note).toBeUndefined();
    await quit(tmux, dir, 2);
  }, 300_000);
});

/** Until the tile's evidence holds a hook call (the agent is up and listening), or 90 s. */
async function waitForHook(session: string, env: Record<string, string | undefined>, cwd: string): Promise<void> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const why = await control(['why', '1', '--json'], session, env, cwd).catch(() => '');
    if (why.includes('"source":"hook"')) return;
    if (Date.now() > deadline) throw new Error(`timed out after 90000 ms waiting for a hook from the restored tile; why: ${why}`);
    await sleep(250);
  }
}
