/**
 * End to end: older agent versions that say less than the pinned ones, under `belltower run
 * --headless` (the built CLI), against the fake APIs — each at the moment it waits on the user.
 *
 * - Claude Code 1.0.128: no OSC 7501, no title, no PermissionRequest hook. Its Notification hook
 *   (registered from 1.0.38; before 2.0.37 it carries only `message`) says "Claude needs your
 *   permission to use Bash" ~6 s after the dialog is drawn: the tile is blocked from then on.
 * - Codex 0.150.1: no OSC 7501 and no hook; its approval dialog is announced only by its title,
 *   `[ ! ] Action Required | …` alternating with `[ . ]` each second, which is the request.
 *
 * - Codex 0.169.1: OSC 7501 and notify, but no SessionStart hook to name its rollout: the rollout
 *   is found among the files Codex holds open as a turn starts.
 * - Gemini CLI 0.55.1: after Esc ends a turn during a shell command, that command's AfterTool still
 *   arrives, seconds later; it is the ended turn's, and the next prompt ends in one done.
 *
 * Each version is installed into .cache/agents like the pinned ones (scripts/install-claude.mjs;
 * BELLTOWER_CLAUDE_1_0_BIN, BELLTOWER_CODEX_0_150_BIN, BELLTOWER_CODEX_0_169_BIN point at another
 * install); where it cannot be installed its test skips and says why. Recorded with
 * `--record-text`, as received, like the other real fixtures (test/record/recorded-form.test.ts
 * checks what the recorded form keeps of them). With BELLTOWER_UPDATE_FIXTURES=1 the recordings
 * become fixtures/claude-1.0.128/permission.jsonl, fixtures/codex-0.150.1/permission.jsonl and
 * fixtures/codex-0.169.1/background-job.jsonl, which the suite replays without the binaries
 * (test/record/replay-fixtures.test.ts).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tryInstallOlder, type InstallResult, type OlderAgent } from '../support/claude-install.js';
import { createClaudeHome, type ClaudeHome } from '../support/claude-home.js';
import { createCodexHome, type CodexHome } from '../support/codex-home.js';
import { lastUserOf, permissionBash, startFakeAnthropic, text as claudeText, type FakeAnthropic, type MessagesRequest, type RecordedRequest } from '../support/fake-anthropic.js';
import { exec, startFakeOpenAI, text, type FakeOpenAI } from '../support/fake-openai.js';
import { sleep } from '../support/fake-server.js';
import { AgentSessions, BELLTOWER_BIN, linesOf } from '../support/headless-agent.js';
import { createGeminiHome, type GeminiHome } from '../support/gemini-home.js';
import { shell as geminiShell, startFakeGemini, text as geminiText, type FakeGemini } from '../support/fake-gemini.js';
import { unprivilegedUser } from '../support/unprivileged-user.js';

const REPO = join(import.meta.dirname, '..', '..');
const built = existsSync(join(REPO, 'dist', 'cli', 'main.js'));

/** Installs `name` before the tests of its block; `bin()` is its executable, or the test skips. */
function olderVersion(name: OlderAgent): { bin(ctx: { skip(reason: string): void }): string } {
  let install: InstallResult = { ok: false, reason: 'not attempted' };
  beforeAll(async () => {
    install = built ? await tryInstallOlder(name, { log: (line) => console.error(`[install ${name}] ${line}`) }) : { ok: false, reason: 'belltower is not built (npm run build)' };
  }, 15 * 60_000);
  return {
    bin(ctx) {
      if (!install.ok) ctx.skip(install.reason);
      return install.ok ? install.bin : '';
    },
  };
}

describe('Claude Code 1.0.128: a permission dialog', () => {
  const version = olderVersion('claude@1.0.128');
  const sessions = new AgentSessions<FakeAnthropic, ClaudeHome>('claude', 'claude-1.0.128', '1.0.128');
  afterEach(() => sessions.teardown());

  it('is blocked (permission) from its Notification hook; approved, working, then one done', async (ctx) => {
    const bin = version.bin(ctx);
    const api = await startFakeAnthropic({ script: [permissionBash('touch belltower-approved.txt'), claudeText('File created.')] });
    const home = createClaudeHome({ baseUrl: api.url });
    // 1.0.x reads these per-project lists without a default (`allowedTools is not iterable`).
    const project = { hasTrustDialogAccepted: true, allowedTools: [], mcpServers: {}, enabledMcpjsonServers: [], disabledMcpjsonServers: [] };
    for (const file of home.claudeJsonPaths) {
      const config = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      writeFileSync(file, JSON.stringify({ ...config, projects: { [home.cwd]: project } }));
    }
    const s = sessions.start(api, home, { env: { BELLTOWER_CLAUDE_BIN: bin }, flags: ['--record-text'] });
    await s.run.until('the first idle verdict', () => s.run.verdicts.some((v) => v.to === 'idle'), 60_000);
    await sleep(1_000);

    const mark = s.run.verdicts.length;
    await s.run.submit('Create the file');
    await s.run.wait('blocked', '60s');
    const blocked = s.run.verdicts.slice(mark).find((v) => v.to === 'blocked');
    expect(blocked, s.run.describe()).toMatchObject({ source: 'hook', kind: 'permission' });

    // Enter on the pre-selected "1. Yes", again while the tile still asks, until the tool's result
    // reaches the API (a loaded machine draws the dialog late and takes the key late).
    const toolResult = (r: RecordedRequest) => r.kind === 'main' && lastUserOf(r.body as MessagesRequest).toolResults.length > 0;
    for (let presses = 0; presses < 30 && !api.requests.some(toolResult); presses++) {
      if (s.run.verdicts.at(-1)?.to === 'blocked') await s.run.submit('');
      await api.waitForRequest(toolResult, 2_000).catch(() => undefined);
    }
    await s.run.wait('done', '60s');
    await sleep(1_000);
    expect(existsSync(join(home.cwd, 'belltower-approved.txt'))).toBe(true);
    const states = s.run.states(mark);
    expect(states.filter((state) => state === 'done'), s.run.describe(mark)).toHaveLength(1);
    expect(states.indexOf('blocked')).toBeLessThan(states.indexOf('done'));

    const lines = await sessions.quitAndCheck(s, 'permission');
    const notification = linesOf(lines, 'hook', (l) => l.event === 'Notification');
    expect(notification.map((l) => l.payload)).toContainEqual(expect.objectContaining({ message: 'Claude needs your permission to use Bash' }));
    expect(linesOf(lines, 'osc', (l) => l.code === 7501 && l.payload !== '?')).toEqual([]);
  }, 180_000);
});

describe('Codex 0.150.1: an approval', () => {
  const version = olderVersion('codex@0.150.1');
  const sessions = new AgentSessions<FakeOpenAI, CodexHome>('codex', 'codex-0.150.1', '0.150.1');
  afterEach(() => sessions.teardown());

  it('is blocked from its "Action Required" title; "y" approves; working, then done', async (ctx) => {
    const bin = version.bin(ctx);
    const file = 'belltower-approved.txt';
    const api = await startFakeOpenAI({ script: [exec(`touch ${file}`, { sandboxPermissions: 'require_escalated', justification: 'Create the file?' }), text('File created.')] });
    const home = createCodexHome({ baseUrl: api.baseUrl, approvalPolicy: 'on-request', sandboxMode: 'workspace-write' });
    const s = sessions.start(api, home, { env: { BELLTOWER_CODEX_BIN: bin }, flags: ['--record-text'] });
    // 0.150.1 sends no OSC 7501 idle: its first title (the folder) is the sign it is up.
    await s.run.untilRecorded('the first title', (l) => l.type === 'osc' && l.code === 0, 60_000);
    await sleep(1_500);

    const mark = s.run.verdicts.length;
    await s.run.submit('Create the file');
    await s.run.wait('blocked', '60s');
    const blocked = s.run.verdicts.slice(mark).find((v) => v.to === 'blocked');
    expect(blocked, s.run.describe()).toMatchObject({ source: 'title' });

    // The dialog takes keys once painted; "y" ("Yes, proceed") again only while the tile is still
    // blocked and the dialog still on the screen (a "y" after it was answered would be typed into
    // the prompt).
    const dialog = (screen: string): boolean => screen.includes('1. Yes, proceed');
    await s.run.untilScreen('the approval dialog', dialog);
    await s.run.pressUntil(
      'the approval to land',
      () => s.run.type('y'),
      () => s.run.verdicts.slice(mark).some((v) => v.from === 'blocked'),
      async () => s.run.verdicts.at(-1)?.to === 'blocked' && dialog(await s.run.screenText()),
      { tries: 4, everyMs: 10_000 },
    );
    await s.run.wait('done', '60s');
    await sleep(1_000);
    expect(existsSync(join(home.cwd, file))).toBe(true);
    const states = s.run.states(mark);
    expect(states.filter((state) => state === 'blocked'), s.run.describe(mark)).toHaveLength(1);
    expect(states.filter((state) => state === 'done'), s.run.describe(mark)).toHaveLength(1);
    expect(states.indexOf('blocked')).toBeLessThan(states.indexOf('done'));

    const lines = await sessions.quitAndCheck(s, 'permission');
    expect(linesOf(lines, 'osc', (l) => l.code === 7501)).toEqual([]);
    expect(linesOf(lines, 'osc', (l) => l.code === 0 && String(l.payload).includes('Action Required')).length).toBeGreaterThan(0);
  }, 180_000);
});

describe('Codex 0.169.1: a background job', () => {
  const version = olderVersion('codex@0.169.1');
  const sessions = new AgentSessions<FakeOpenAI, CodexHome>('codex', 'codex-0.169.1', '0.169.1');
  afterEach(() => sessions.teardown());

  // 0.169 has no SessionStart hook: nothing names the rollout until the first turn's notify, which
  // comes at the turn's end, while the job still runs. Found then, the job's start was never read:
  // a false done at the turn end, and none at the job's end. The rollout is found among the files
  // Codex holds open as the turn starts, and read from its start.
  it('is done at the job\'s end in the rollout, not at the turn\'s end', async (ctx) => {
    const bin = version.bin(ctx);
    const api = await startFakeOpenAI({ script: [exec('sleep 6; echo finished', { yieldTimeMs: 500 }), text('Started it in the background.')] });
    const home = createCodexHome({ baseUrl: api.baseUrl });
    const s = sessions.start(api, home, { env: { BELLTOWER_CODEX_BIN: bin }, flags: ['--record-text', '--timing', 'heldReleaseQuietMs=120000'] });
    await s.run.untilRecorded('OSC 7501 idle', (l) => l.type === 'osc' && l.code === 7501 && String(l.payload).startsWith('state=idle'), 60_000);
    await sleep(500);

    const mark = s.run.verdicts.length;
    await s.run.submit('Run it in the background');
    const isRecord = (type: string) => (l: { type: string; record?: unknown }) => l.type === 'transcript' && (l.record as { payload?: { type?: string } }).payload?.type === type;
    const started = await s.run.untilRecorded('the turn start in the rollout', isRecord('task_started'), 60_000);
    const ended = await s.run.untilRecorded('the turn end in the rollout', isRecord('task_complete'), 60_000);
    const finished = await s.run.untilRecorded("the job's completion in the rollout", (l) => isRecord('item_completed')(l) && (l.record as { payload?: { item?: { type?: string } } }).payload?.item?.type === 'CommandExecution' && l.t > ended.t, 60_000);
    await s.run.wait('done', '60s');
    await sleep(1_000);
    const done = s.run.verdicts.slice(mark).filter((v) => v.to === 'done');
    expect(done, s.run.describe(mark)).toHaveLength(1);
    expect(started.t).toBeLessThan(ended.t);
    expect(done[0]!.t, s.run.describe(mark)).toBeGreaterThan(finished.t);

    const lines = await sessions.quitAndCheck(s, 'background-job');
    expect(linesOf(lines, 'hook', (l) => l.event === 'SessionStart')).toEqual([]);
  }, 180_000);
});

describe('Gemini CLI 0.55.1: Esc during a shell command', () => {
  const version = olderVersion('gemini@0.55.1');
  const sessions = new AgentSessions<FakeGemini, GeminiHome>('gemini', 'gemini-0.55.1', '0.55.1');
  afterEach(() => sessions.teardown());

  it("the tool's late AfterTool is the ended turn's: idle stays, and the next prompt ends in one done", async (ctx) => {
    const bin = version.bin(ctx);
    // Gemini runs as a real user would (not root: hooks in root-owned settings are treated apart).
    const who = unprivilegedUser([bin, BELLTOWER_BIN]);
    if (!who.ok) return ctx.skip(who.reason);
    // Long enough for an Esc pressed again (on a loaded machine) to land while it still runs; the Esc
    // ends it, so the test takes no longer.
    const api = await startFakeGemini({ script: [geminiShell('sleep 30'), geminiText('Second answer.')] });
    const home = createGeminiHome({ baseUrl: api.url, allowShell: true });
    const s = sessions.start(api, home, { env: { BELLTOWER_GEMINI_BIN: bin }, flags: ['--record-text'], runAs: who.user });
    await s.run.until('the first idle verdict', () => s.run.verdicts.some((v) => v.to === 'idle'), 60_000);
    await sleep(1_000);

    const mark = s.run.verdicts.length;
    await s.run.submit('Sleep for a while');
    await s.run.untilRecorded('BeforeTool', (l) => l.type === 'hook' && l.event === 'BeforeTool', 60_000);
    // Esc while the turn runs; again only while it still works and nothing says the turn stopped.
    await s.run.until('the tile working on the turn', () => s.run.verdicts.at(-1)?.to === 'working');
    const recordedBefore = s.run.recording().length;
    await s.run.pressUntil(
      'the interrupt',
      () => s.run.type('\x1b'),
      () => s.run.verdicts.slice(mark).some((v) => v.reason === 'interrupted'),
      () => s.run.verdicts.at(-1)?.to === 'working' && !s.run.recording().slice(recordedBefore).some((l) => l.type === 'hook' && l.event === 'AfterAgent'),
      { tries: 3, everyMs: 8_000 },
    );
    const late = await s.run.untilRecorded('the late AfterTool', (l) => l.type === 'hook' && l.event === 'AfterTool', 60_000);
    const interrupted = s.run.recording().find((l) => l.type === 'verdict' && l.reason === 'interrupted');
    expect(late.seq).toBeGreaterThan(interrupted?.seq ?? Infinity);
    await sleep(1_000);
    expect(s.run.verdicts.at(-1)?.to, s.run.describe(mark)).toBe('idle');

    const second = s.run.verdicts.length;
    await s.run.submit('Now answer');
    await s.run.wait('done', '60s');
    await sleep(1_000);
    expect(s.run.verdicts.slice(second).map((v) => v.to), s.run.describe(mark)).toEqual(['working', 'done']);
    expect(s.run.verdicts.slice(mark).filter((v) => v.to === 'done')).toHaveLength(1);
    await sessions.quitAndCheck(s, 'hooks-interrupt-tool');
  }, 240_000);
});
