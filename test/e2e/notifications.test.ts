/**
 * Desktop notifications the real agents print in-band (OSC 9, 777, 99), read as first-party
 * evidence where nothing else first-hand is there: belltower without hooks and without OSC 7501
 * (as over an SSH hop). Each agent is asked to notify for its own session only: Claude through a
 * `--settings` file of the test's (`preferredNotifChannel`), Gemini through its settings
 * (`general.enableNotifications`) in the test's private home.
 *
 * What they printed (Claude Code 2.1.332, Gemini CLI 0.61.0): Claude "Claude needs your permission"
 * ~6 s after a permission dialog opened (OSC 9 with iterm2, 777 with ghostty, 99 with kitty), and
 * nothing at turn end or at the 60 s idle mark; Gemini OSC 777 "Gemini CLI needs your attention"
 * at a confirmation and "Gemini CLI session complete" at each turn end.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createClaudeHome } from '../support/claude-home.js';
import { PINNED_VERSIONS, tryInstallClaude, tryInstallGemini, type InstallResult } from '../support/claude-install.js';
import { permissionBash, startFakeAnthropic, text as claudeText } from '../support/fake-anthropic.js';
import { shell, startFakeGemini, text } from '../support/fake-gemini.js';
import { sleep } from '../support/fake-server.js';
import { createGeminiHome } from '../support/gemini-home.js';
import { BELLTOWER_BIN, linesOf, replayCheck, saveFixture, startHeadlessAgent, type HeadlessAgent } from '../support/headless-agent.js';
import { chownTree, unprivilegedUser } from '../support/unprivileged-user.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The recording replays; with BELLTOWER_UPDATE_FIXTURES=1 it becomes fixtures/<folder>/<scenario>.jsonl. */
async function replays(run: HeadlessAgent, folder: string, scenario: string, version: string): Promise<void> {
  const check = await replayCheck(run.recordingPath());
  expect(check.code, `${check.stdout}${check.stderr}`).toBe(0);
  saveFixture(run.recordingPath(), folder, scenario, version);
}

describe('in-band notifications from the real agents', () => {
  let claude: InstallResult = { ok: false, reason: 'not attempted' };
  let gemini: InstallResult = { ok: false, reason: 'not attempted' };
  beforeAll(async () => {
    claude = await tryInstallClaude();
    gemini = await tryInstallGemini();
  }, 15 * 60_000);

  it('Claude (no hooks, no OSC 7501): "Claude needs your permission" by OSC 9 makes the tile blocked, which its title cannot say', async (ctx) => {
    if (!claude.ok) return ctx.skip(claude.reason);
    const api = await startFakeAnthropic({ script: [permissionBash('touch belltower-notified.txt'), claudeText('Done.')] });
    const home = createClaudeHome({ baseUrl: api.url });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'belltower-notify-e2e-'));
    const settings = path.join(dir, 'notify.json');
    fs.writeFileSync(settings, JSON.stringify({ preferredNotifChannel: 'iterm2' }));
    const run = startHeadlessAgent({
      spec: `claude --settings ${settings}`,
      env: { ...home.env, BELLTOWER_CLAUDE_BIN: claude.bin },
      cwd: home.cwd,
      dir,
      session: `notify-claude-${process.pid}`,
      flags: ['--no-hooks', '--no-psp'],
    });
    cleanups.push(async () => {
      await run.stop();
      await api.close();
      home.cleanup();
      fs.rmSync(dir, { recursive: true, force: true });
    });
    await run.until('the first idle verdict', () => run.verdicts.some((v) => v.to === 'idle'), 30_000);
    await sleep(600);
    const mark = run.verdicts.length;
    await run.submit('Create the file');
    const blocked = await run.until('blocked', () => run.verdicts.slice(mark).find((v) => v.to === 'blocked'), 20_000);
    expect(blocked).toMatchObject({ source: 'notification', kind: 'permission' });
    const osc = linesOf(run.recording(), 'osc', (l) => l.code === 9);
    expect(osc.map((l) => l.payload)).toEqual(['Claude needs your permission']);
    // The answer (Enter on "1. Yes") is the user's; then the turn ends (title and banner).
    await run.submit('');
    await run.wait('done', '20s');
    await run.submit('/exit');
    expect(await run.ended(15_000)).toBe(0);
    await replays(run, `claude-${PINNED_VERSIONS.claude}/notifications`, 'permission-osc9', PINNED_VERSIONS.claude);
  }, 90_000);

  it('Gemini (no hooks): attention → blocked, the ✦ after the `1` key → working, session complete → done, all from the agent itself', async (ctx) => {
    if (!gemini.ok) return ctx.skip(gemini.reason);
    const who = unprivilegedUser([gemini.bin, BELLTOWER_BIN]);
    const api = await startFakeGemini({ script: [shell('sleep 3; touch belltower-notified.txt'), text('Created.')] });
    const home = createGeminiHome({ baseUrl: api.url, allowShell: false, settings: { general: { disableAutoUpdate: true, disableUpdateNag: true, enableNotifications: true } } });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'belltower-notify-e2e-'));
    for (const folder of home.folders) chownTree(folder, who.ok ? who.user : null);
    const run = startHeadlessAgent({
      spec: 'gemini',
      env: { ...home.env, BELLTOWER_GEMINI_BIN: gemini.bin },
      cwd: home.cwd,
      dir,
      session: `notify-gemini-${process.pid}`,
      flags: ['--no-hooks'],
      runAs: who.ok ? who.user : null,
    });
    cleanups.push(async () => {
      await run.stop();
      await api.close();
      home.cleanup();
      fs.rmSync(dir, { recursive: true, force: true });
    });
    await run.until('the first idle verdict', () => run.verdicts.some((v) => v.to === 'idle'), 30_000);
    await sleep(1_000);
    const mark = run.verdicts.length;
    await run.submit('Create the file');
    const blocked = await run.until('blocked', () => run.verdicts.slice(mark).find((v) => v.to === 'blocked'), 20_000);
    expect(blocked).toMatchObject({ source: 'notification', kind: 'permission' });
    await sleep(800);
    await run.type('1'); // "Allow once": Gemini takes it without Enter, and fires no hook
    const answered = await run.until('the answer', () => run.verdicts.slice(mark).find((v) => v.from === 'blocked'), 10_000);
    expect(answered).toMatchObject({ to: 'working', source: 'title' });
    await run.wait('done', '20s');
    const verdicts = run.verdicts.slice(mark);
    expect(verdicts.map((v) => `${v.to}/${v.source}`), run.describe(mark)).toEqual(['working/title', 'unknown/title', 'blocked/notification', 'working/title', 'done/notification']);
    // The shell ran ~3 s after the answer: the tile said working all along, not blocked.
    const doneAt = verdicts.at(-1)!.t;
    expect(doneAt - answered.t).toBeGreaterThanOrEqual(2_500);
    expect(fs.existsSync(path.join(home.cwd, 'belltower-notified.txt'))).toBe(true);
    const notes = linesOf(run.recording(), 'osc', (l) => l.code === 777).map((l) => String(l.payload).split(';').slice(0, 2).join(';'));
    expect(notes).toEqual(['notify;Gemini CLI needs your attention', 'notify;Gemini CLI session complete']);
    await run.submit('/quit');
    expect(await run.ended(15_000)).toBe(0);
    await replays(run, `gemini-${PINNED_VERSIONS.gemini}`, 'notifications-confirmation-key', PINNED_VERSIONS.gemini);
  }, 90_000);
});
