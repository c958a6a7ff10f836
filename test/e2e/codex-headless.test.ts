/**
 * The real Codex CLI (0.171.0) under `belltower run --headless --record DIR --capture-output
 * codex`, against the fake OpenAI Responses API, driven with `belltower send` and `wait` like a
 * script would. Each scenario is one Codex session: its recording must replay (`replay --check`),
 * and with BELLTOWER_UPDATE_FIXTURES=1 it becomes fixtures/codex-0.171.0/<scenario>.jsonl.
 *
 * Skips (with the reason) when the pinned CLI cannot be installed, e.g. offline.
 *
 * What Codex 0.171.0 did here (see also shared/facts/other-agents.md):
 * - OSC 7501 unasked: `idle` at start-up (sometimes after a 20 ms `working` flash), `working` at
 *   Enter, `done` at turn end, `blocked:kind=permission` at an approval, `error` after an API
 *   error, `clear` at exit. The notify relay (belltower's `-c notify=[…]`) delivers one
 *   `agent-turn-complete` per turn end, plus one for the hidden title thread at the first prompt
 *   (filtered); none for an approval or an API error.
 * - An approval needs `approval_policy = "on-request"`, a sandbox (`workspace-write`) and a
 *   command the model marks `sandbox_permissions: "require_escalated"`; "untrusted" is refused
 *   by 0.171 ("no longer supported") and `danger-full-access` never asks. `y` approves.
 * - belltower's SessionStart hook (marked reviewed on the command line) fires at the first prompt
 *   with the rollout's path; the tile follows the rollout from then on: `task_complete` while a
 *   background job runs is held until the job's `item_completed`, `turn_aborted` is an interrupt.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PINNED_VERSIONS, tryInstallCodex, type InstallResult } from '../support/claude-install.js';
import { codexHookHash } from '../../src/agents/codex-hook-trust.js';
import { createCodexHome, type CodexHome, type CodexHomeOptions } from '../support/codex-home.js';
import { sleep } from '../support/fake-server.js';
import {
  apiError,
  exec,
  functionOutputText,
  lastInputOf,
  startFakeOpenAI,
  text,
  TITLE_REQUEST,
  type FakeOpenAI,
  type Reply,
  type ResponsesRequest,
} from '../support/fake-openai.js';
import { AgentSessions, linesOf, startHeadlessAgent, type AgentSession, type HeadlessAgent, type RecordingLine } from '../support/headless-agent.js';

const AGENT_VERSION = PINNED_VERSIONS.codex;
const FIXTURE_FOLDER = `codex-${AGENT_VERSION}`;
/** States that ring: none may appear before the first prompt. */
const RINGING = ['done', 'blocked', 'failed'];
/** Codex says a turn ended three ways, within ~50 ms: OSC 7501 done, notify, the rollout's task_complete. */
const FIRST_PARTY_ENDS = ['notify', 'psp', 'transcript'];

type Session = AgentSession<FakeOpenAI, CodexHome>;

/** The rollout's record that a command finished (its `item_completed`, CommandExecution). */
const isCommandDone = (record: unknown): boolean => {
  const payload = (record as { payload?: { type?: string; item?: { type?: string } } }).payload;
  return payload?.type === 'item_completed' && payload.item?.type === 'CommandExecution';
};

describe('real Codex 0.171.0 under belltower run --headless', () => {
  let install: InstallResult = { ok: false, reason: 'not attempted' };
  const sessions = new AgentSessions<FakeOpenAI, CodexHome>('codex', FIXTURE_FOLDER, AGENT_VERSION);
  /** Runs whose start-up showed the known misjudgment: never saved as fixtures. */
  const misjudgedStart = new WeakSet<HeadlessAgent>();

  beforeAll(async () => {
    install = await tryInstallCodex({ log: (line) => console.error(`[codex-install] ${line}`) });
    if (!install.ok) console.warn(`[codex-headless] skipping: ${install.reason}`);
  }, 15 * 60_000);

  afterEach(() => sessions.teardown());

  /** A fake API with `script`, a private CODEX_HOME, and belltower running `codex` in it. */
  async function start(script: Reply[], options: Omit<CodexHomeOptions, 'baseUrl'> = {}): Promise<Session> {
    if (!install.ok) throw new Error(install.reason);
    const api = await startFakeOpenAI({ script });
    const home = createCodexHome({ ...options, baseUrl: api.baseUrl });
    return sessions.start(api, home, { env: { BELLTOWER_CODEX_BIN: install.bin } });
  }

  /**
   * Start-up: Codex takes keys once it has said OSC 7501 `idle`; the prompt follows at once.
   *
   * belltower 0.1 misjudges some Codex start-ups (a known bug in the engine): Codex writes a
   * spinner title and the rest title in one chunk (`⠋ folder`, `folder`), then OSC 7501 `idle`.
   * The spinner makes the tile `working` (title); the rest title starts the 1.5 s title
   * stabilisation hold, and the first-party `idle` neither ends the working verdict nor cancels
   * the hold, which releases a false `done` ~1.5 s later if no prompt came (4 of 32 starts here
   * read `working`; waited out, such a start became `done` 2.2 s after spawn). Prompting at once
   * cancels the hold, so the scenarios test the turns; `turnStates` allows for the tile already
   * reading `working`.
   */
  async function settle(run: HeadlessAgent): Promise<void> {
    await run.untilRecorded('OSC 7501 idle', (l) => l.type === 'osc' && l.code === 7501 && String(l.payload).startsWith('state=idle'), 60_000);
    await sleep(200);
    expect(run.states().filter((s) => RINGING.includes(s)), `no ringing state before the first prompt:\n${run.describe()}`).toEqual([]);
  }

  /**
   * The states a turn should produce from verdict index `mark` (taken just before the prompt):
   * without the leading `working` when the start-up flash above left the tile reading working.
   */
  function turnStates(run: HeadlessAgent, mark: number, expected: string[]): string[] {
    const before = run.verdicts[mark - 1];
    if (before?.to !== 'working') return expected;
    expect(before.source, `the tile read working before the prompt:\n${run.describe()}`).toBe('title');
    console.warn(`[codex-headless] start-up misjudged: the tile read "working" (title spinner flash) at Codex's idle prompt:\n${run.describe(0)}`);
    misjudgedStart.add(run);
    return expected[0] === 'working' ? expected.slice(1) : expected;
  }

  /** "/quit", exited 0, the recording replays; never saved as a fixture after a misjudged start-up. */
  function quitAndCheck(s: Session, scenario: string): Promise<RecordingLine[]> {
    return sessions.quitAndCheck(s, scenario, () => {
      if (misjudgedStart.has(s.run) && process.env.BELLTOWER_UPDATE_FIXTURES === '1') {
        throw new Error(`not saved as fixtures/${FIXTURE_FOLDER}/${scenario}.jsonl: its start-up has the known misjudgment; run again`);
      }
    });
  }

  /** Notify payloads in the recording whose first input message is `first`. A recording keeps of
   * it only whether it is the title request (docs/recording-format.md): the user's turn reads "". */
  function notifiesFor(lines: RecordingLine[], first: (input: string) => boolean): RecordingLine[] {
    return linesOf(lines, 'notify', (l) => {
      const inputs = (l.payload as { 'input-messages'?: unknown[] })['input-messages'] ?? [];
      return typeof inputs[0] === 'string' && first(inputs[0]);
    });
  }

  it('a plain prompt: working, then exactly one done (notify or psp); /quit → exited', async (ctx) => {
    if (!install.ok) return ctx.skip(install.reason);
    const answer = 'Belltower codex answer.';
    const s = await start([text(answer, { firstByteDelayMs: 300 })]);
    await settle(s.run);

    const prompt = 'Say something short for the belltower codex test';
    const mark = s.run.verdicts.length;
    await s.run.submit(prompt);
    await s.run.wait('done', '60s');
    await sleep(1_000); // a second done (the other channel) would land here
    const turn = s.run.verdicts.slice(mark);
    expect(turn.map((v) => v.to), s.run.describe()).toEqual(turnStates(s.run, mark, ['working', 'done']));
    expect(FIRST_PARTY_ENDS).toContain(turn.at(-1)?.source);

    const main = s.api.mainRequests();
    expect(main).toHaveLength(1);
    expect(lastInputOf(main[0]?.body as ResponsesRequest).userText).toBe(prompt);
    expect(s.api.requests.filter((r) => r.kind === 'title')).toHaveLength(1);
    expect(s.api.unknownRequests.map((r) => `${r.method} ${r.url}`)).toEqual([]);
    expect(s.api.exhausted).toBe(0);

    const lines = await quitAndCheck(s, 'plain');
    // belltower's notify relay delivered Codex's turn-complete: one for the turn, one for the
    // hidden title thread (which must not have made a verdict of its own).
    const own = notifiesFor(lines, (first) => first === '');
    expect(own).toHaveLength(1);
    expect(own[0]?.payload).toMatchObject({ type: 'agent-turn-complete', 'last-assistant-message': answer.length });
    expect(JSON.stringify(linesOf(lines, 'notify'))).not.toContain(prompt);
    expect(notifiesFor(lines, (first) => first.startsWith(TITLE_REQUEST))).toHaveLength(1);
    const psp = linesOf(lines, 'osc', (l) => l.code === 7501).map((l) => l.payload);
    expect(psp).toContain('state=working:app=codex');
    expect(psp).toContain('state=done:app=codex');
    expect(psp.at(-1)).toBe('state=clear');
  }, 180_000);

  it('a shell-command turn (exec_command): working through the tool, then one done', async (ctx) => {
    if (!install.ok) return ctx.skip(install.reason);
    const s = await start([exec('sleep 2'), text('Slept.')]);
    await settle(s.run);

    const mark = s.run.verdicts.length;
    await s.run.submit('Sleep for two seconds');
    await s.run.wait('done', '60s');
    await sleep(1_000);
    const turn = s.run.verdicts.slice(mark);
    expect(turn.map((v) => v.to), s.run.describe()).toEqual(turnStates(s.run, mark, ['working', 'done']));
    expect(FIRST_PARTY_ENDS).toContain(turn.at(-1)?.source);
    // The done came after the command: not before 2 s past the working verdict (or the prompt).
    const working = turn.length === 2 ? (turn[0]?.t ?? 0) : (s.run.recording().find((l) => l.type === 'prompt')?.t ?? 0);
    expect((turn.at(-1)?.t ?? 0) - working).toBeGreaterThanOrEqual(2_000);

    // The second request carried the command's result.
    const main = s.api.mainRequests();
    expect(main).toHaveLength(2);
    const outputs = lastInputOf(main[1]?.body as ResponsesRequest).functionOutputs;
    expect(outputs).toHaveLength(1);
    expect(functionOutputText(outputs[0] as NonNullable<(typeof outputs)[0]>)).toMatch(/exit(ed)? (with )?code:? 0/i);

    const lines = await quitAndCheck(s, 'shell');
    expect(notifiesFor(lines, (first) => first === '')).toHaveLength(1);
  }, 180_000);

  /** The tile still blocked, its dialog still up: a key meant for the dialog did not take. */
  async function stillAsks(run: HeadlessAgent): Promise<boolean> {
    if (run.verdicts.at(-1)?.to !== 'blocked') return false;
    return (await run.tile())?.request !== undefined;
  }

  it('an approval prompt: blocked (psp, kind permission); "y" approves; working, then done', async (ctx) => {
    if (!install.ok) return ctx.skip(install.reason);
    const file = 'belltower-approved.txt';
    const s = await start([exec(`touch ${file}`, { sandboxPermissions: 'require_escalated', justification: 'Create the file?' }), text('File created.')], {
      approvalPolicy: 'on-request',
      sandboxMode: 'workspace-write',
    });
    await settle(s.run);

    const mark = s.run.verdicts.length;
    await s.run.submit('Create the file');
    await s.run.wait('blocked', '60s');
    const blocked = s.run.verdicts.find((v, i) => i >= mark && v.to === 'blocked');
    expect(blocked).toMatchObject({ source: 'psp', kind: 'permission' });

    // The dialog takes keys once painted (ls --json shows its options then); "y" is "Yes, proceed".
    // Again only while the tile is still blocked on that dialog: a "y" after it was answered would
    // be typed into the prompt.
    await s.run.pendingRequest();
    await s.run.pressUntil('the approval to land', () => s.run.type('y'), () => s.run.verdicts.slice(mark).some((v) => v.from === 'blocked'), () => stillAsks(s.run), { tries: 4, everyMs: 10_000 });
    await s.run.wait('done', '60s');
    await sleep(1_000);
    expect(s.run.states(mark), s.run.describe()).toEqual(turnStates(s.run, mark, ['working', 'blocked', 'working', 'done']));
    expect(fs.existsSync(path.join(s.home.cwd, file))).toBe(true);
    expect(s.api.mainRequests()).toHaveLength(2);

    const lines = await quitAndCheck(s, 'permission');
    const psp = linesOf(lines, 'osc', (l) => l.code === 7501).map((l) => l.payload);
    expect(psp).toContain('state=blocked:app=codex:kind=permission');
    // The title alternates "[ . ] / [ ! ] Action Required" while blocked: never a verdict of its own.
    expect(linesOf(lines, 'osc', (l) => l.code === 0 && String(l.payload).includes('Action Required')).length).toBeGreaterThan(0);
    expect(linesOf(lines, 'verdict').every((v) => v.source !== 'title' || !String(v.reason).includes('Action Required'))).toBe(true);
    // Codex's notify fires at the turn's end, never at the approval.
    expect(notifiesFor(lines, (first) => first === '')).toHaveLength(1);
  }, 180_000);

  it('belltower answer: ls --json shows the request and its options; allow picks "Yes, proceed"; the command runs; done', async (ctx) => {
    if (!install.ok) return ctx.skip(install.reason);
    const file = 'belltower-answered.txt';
    const s = await start([exec(`touch ${file}`, { sandboxPermissions: 'require_escalated', justification: 'Create the file?' }), text('File created.')], {
      approvalPolicy: 'on-request',
      sandboxMode: 'workspace-write',
    });
    await settle(s.run);
    await s.run.submit('Create the file');
    await s.run.wait('blocked', '60s');
    // The dialog is drawn a moment after OSC 7501 says blocked: ls shows its options once it is.
    const request = await s.run.pendingRequest();
    expect(request.options.map((o) => o.answer)).toEqual(['allow', 'always', 'deny']);
    const answered = await s.run.cli('answer', '1', 'allow', '--request', request.id);
    expect(answered.stderr).toBe('');
    expect(answered.code).toBe(0);
    expect(answered.stdout).toMatch(/^Yes, proceed/);
    await s.run.wait('done', '60s');
    expect(fs.existsSync(path.join(s.home.cwd, file))).toBe(true);
    expect(s.api.mainRequests()).toHaveLength(2);
    await quitAndCheck(s, 'answer');
  }, 180_000);

  it('belltower answer deny --message: the command never runs, and the words reach the model as the next prompt', async (ctx) => {
    if (!install.ok) return ctx.skip(install.reason);
    const file = 'belltower-denied.txt';
    const s = await start([exec(`touch ${file}`, { sandboxPermissions: 'require_escalated', justification: 'Create the file?' }), text('Understood.')], {
      approvalPolicy: 'on-request',
      sandboxMode: 'workspace-write',
    });
    await settle(s.run);
    await s.run.submit('Create the file');
    await s.run.wait('blocked', '60s');
    const request = await s.run.pendingRequest();
    const denied = await s.run.cli('answer', '1', 'deny', '--message', 'leave the files alone', '--request', request.id);
    expect(denied.stderr).toBe('');
    expect(denied.code).toBe(0);
    await s.api.waitForRequest((r) => r.kind === 'main' && JSON.stringify(r.body).includes('leave the files alone'), 60_000);
    await s.run.wait('done', '60s');
    expect(fs.existsSync(path.join(s.home.cwd, file))).toBe(false);
    await quitAndCheck(s, 'answer-deny');
  }, 180_000);

  it('an API error (HTTP 400): failed from OSC 7501 error, no done, no notify', async (ctx) => {
    if (!install.ok) return ctx.skip(install.reason);
    const s = await start([apiError(400, 'belltower codex test error')]);
    await settle(s.run);

    const mark = s.run.verdicts.length;
    await s.run.submit('This will fail');
    await s.run.until('the failed verdict', () => s.run.verdicts.slice(mark).find((v) => v.to === 'failed'), 60_000);
    await sleep(1_500);
    expect(s.run.states(mark), s.run.describe()).toEqual(turnStates(s.run, mark, ['working', 'failed']));
    expect(s.run.verdicts.at(-1)?.source).toBe('psp');
    expect(s.api.mainRequests()).toHaveLength(1); // request_max_retries = 0

    const lines = await quitAndCheck(s, 'api-error');
    expect(linesOf(lines, 'osc', (l) => l.code === 7501).map((l) => l.payload)).toContain('state=error:app=codex');
    expect(notifiesFor(lines, (first) => first === '')).toHaveLength(0);
  }, 180_000);

  /** The rollout the tile followed: the path of its transcript lines (one file per tile). */
  /** The rollout file of that name under CODEX_HOME/sessions (YYYY/MM/DD/…). */
  function findRollout(codexHome: string, name: string): string {
    const walk = (dir: string): string[] => fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : e.name === name ? [path.join(dir, e.name)] : []));
    const found = walk(path.join(codexHome, 'sessions'));
    if (found.length !== 1) throw new Error(`expected one rollout named ${name}, found ${found.length}`);
    return found[0]!;
  }

  function rolloutPaths(lines: RecordingLine[]): string[] {
    return [...new Set(linesOf(lines, 'transcript').map((l) => String(l.path)))];
  }

  it('a background job: the turn ends while it runs; the done waits for its completion in the rollout, and no longer', async (ctx) => {
    if (!install.ok) return ctx.skip(install.reason);
    const api = await startFakeOpenAI({ script: [exec('sleep 6; echo finished', { yieldTimeMs: 500 }), text('Started it in the background.')] });
    const home = createCodexHome({ baseUrl: api.baseUrl });
    // A quiet period far longer than the test waits: Codex starts no turn when its job ends, so its
    // own record of that end is the done (after the conflict window), never the quiet period.
    const s = sessions.start(api, home, { env: { BELLTOWER_CODEX_BIN: install.bin }, flags: ['--timing', 'heldReleaseQuietMs=120000'] });
    await settle(s.run);
    const mark = s.run.verdicts.length;
    await s.run.submit('Run it in the background');
    const ended = await s.run.untilRecorded('the turn end in the rollout', (l) => l.type === 'transcript' && (l.record as { payload?: { type?: string } }).payload?.type === 'task_complete', 60_000);
    const finished = await s.run.untilRecorded('the job\'s completion in the rollout', (l) => l.type === 'transcript' && isCommandDone(l.record), 60_000);
    await s.run.wait('done', '60s');
    await sleep(1_000);
    const done = s.run.verdicts.slice(mark).filter((v) => v.to === 'done');
    expect(done, s.run.describe(mark)).toHaveLength(1);
    // Codex said done (OSC 7501, notify) when the turn ended, ~6 s before the job finished.
    expect(finished.t - ended.t).toBeGreaterThan(4_000);
    // After the job's end, by the conflict window on the tile's clock; not the quiet period.
    expect(done[0]!.t - finished.t).toBeGreaterThanOrEqual(750);
    expect(done[0]!.t - finished.t).toBeLessThan(120_000);
    expect(s.run.states(mark), s.run.describe(mark)).toEqual(turnStates(s.run, mark, ['working', 'done']));

    const lines = await quitAndCheck(s, 'background-job');
    // The rollout came from belltower's SessionStart hook, reviewed on the command line: no dialog.
    const start = linesOf(lines, 'hook', (l) => l.event === 'SessionStart')[0]?.payload as { source?: string; transcript_path?: string } | undefined;
    expect(start).toMatchObject({ source: 'startup' });
    // A recording keeps the rollout's file name (never its folder, which names the user).
    expect(rolloutPaths(lines)).toEqual([start?.transcript_path]);
    expect(linesOf(lines, 'osc', (l) => l.code === 7501).map((l) => l.payload)).toContain('state=done:app=codex');
  }, 180_000);

  it("the user's own reviewed hook keeps running beside belltower's, and the user's config is not written", async (ctx) => {
    if (!install.ok) return ctx.skip(install.reason);
    const api = await startFakeOpenAI({ script: [text('Hello there.')] });
    const home = createCodexHome({ baseUrl: api.baseUrl });
    // The user's UserPromptSubmit hook in hooks.json, reviewed by them (its record in config.toml).
    const out = path.join(home.home, 'user-hook.json');
    const command = `cat > ${out}`;
    fs.writeFileSync(path.join(home.codexHome, 'hooks.json'), JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command }] }] } }));
    const key = `${path.join(home.codexHome, 'hooks.json')}:user_prompt_submit:0:0`;
    fs.appendFileSync(home.configPath, `\n[hooks.state.${JSON.stringify(key)}]\ntrusted_hash = ${JSON.stringify(codexHookHash('user_prompt_submit', [{ command }]))}\n`);
    const config = fs.readFileSync(home.configPath, 'utf8');
    const s = sessions.start(api, home, { env: { BELLTOWER_CODEX_BIN: install.bin } });
    await settle(s.run);
    await s.run.submit('Say hello');
    await s.run.wait('done', '60s');
    expect(JSON.parse(fs.readFileSync(out, 'utf8'))).toMatchObject({ hook_event_name: 'UserPromptSubmit', prompt: 'Say hello' });
    expect(linesOf(s.run.recording(), 'hook', (l) => l.event === 'SessionStart')).toHaveLength(1);
    await quitAndCheck(s, 'user-hook');
    // Codex writes its own notes to config.toml ([tui], notices); nothing of belltower's is there,
    // and the user's review record is as it was.
    const after = fs.readFileSync(home.configPath, 'utf8');
    expect(after.startsWith(config)).toBe(true);
    expect(after).not.toMatch(/session-flags|relay\.sh/);
  }, 180_000);

  it('an interrupt (Esc) mid-command: idle from the rollout\'s turn_aborted, never done', async (ctx) => {
    if (!install.ok) return ctx.skip(install.reason);
    const s = await start([exec('sleep 30', { yieldTimeMs: 60_000 })]);
    await settle(s.run);
    const mark = s.run.verdicts.length;
    await s.run.submit('Sleep for a long time');
    await s.api.waitForRequest((r) => r.kind === 'main', 60_000);
    await s.run.untilRecorded('the command running', (l) => l.type === 'transcript' && (l.record as { payload?: { type?: string } }).payload?.type === 'function_call', 60_000);
    await s.run.until('the tile working on the turn', () => s.run.verdicts.at(-1)?.to === 'working');
    const beforeEsc = s.run.verdicts.length;
    const recordedBefore = s.run.recording().length;
    // At rest after the Esc: the rollout's turn_aborted says "interrupted", unless OSC 7501's idle
    // came first on a loaded machine (the tile is idle either way, and the abort is in the rollout).
    // Esc again only while nothing says the turn stopped (a second Esc at rest would start Codex's
    // "edit the previous message").
    const stopped = (l: RecordingLine): boolean =>
      (l.type === 'transcript' && (l.record as { payload?: { type?: string } }).payload?.type === 'turn_aborted') || (l.type === 'osc' && l.code === 7501 && !String(l.payload).startsWith('state=working'));
    await s.run.pressUntil(
      'the interrupt',
      () => s.run.type('\x1b'),
      () => s.run.verdicts.slice(beforeEsc).some((v) => v.to === 'idle'),
      () => s.run.verdicts.at(-1)?.to === 'working' && !s.run.recording().slice(recordedBefore).some(stopped),
      { tries: 3, everyMs: 10_000 },
    );
    await sleep(1_500);
    const interrupted = s.run.verdicts.slice(mark).find((v) => v.reason === 'interrupted');
    if (interrupted) expect(interrupted, s.run.describe(mark)).toMatchObject({ to: 'idle', source: 'transcript' });
    expect(s.run.verdicts.at(-1)?.to, s.run.describe(mark)).toBe('idle');
    expect(s.run.states(mark)).not.toContain('done');

    const lines = await quitAndCheck(s, 'interrupt');
    const aborted = linesOf(lines, 'transcript', (l) => (l.record as { payload?: { type?: string } }).payload?.type === 'turn_aborted');
    expect(aborted.map((l) => (l.record as { payload: { reason?: string } }).payload.reason)).toEqual(['interrupted']);
  }, 180_000);

  it('two tiles started in the same folder at the same moment each follow their own rollout', async (ctx) => {
    if (!install.ok) return ctx.skip(install.reason);
    const bin = install.bin;
    const api = await startFakeOpenAI({ script: (c) => text(`Answer to: ${c.last.userText}`) });
    const home = createCodexHome({ baseUrl: api.baseUrl });
    const dirs = [0, 1].map(() => fs.mkdtempSync(path.join(os.tmpdir(), 'belltower-codex-e2e-')));
    const runs = dirs.map((dir, i) => startHeadlessAgent({ spec: 'codex', env: { ...home.env, BELLTOWER_CODEX_BIN: bin }, cwd: home.cwd, dir, session: `codex-twins-${process.pid}-${i}` }));
    try {
      await Promise.all(runs.map((run) => settle(run)));
      const prompts = ['First twin prompt', 'Second twin prompt'];
      await Promise.all(runs.map((run, i) => run.submit(prompts[i] as string)));
      await Promise.all(runs.map((run) => run.wait('done', '60s')));
      const files = runs.map((run) => {
        const lines = run.recording();
        const paths = rolloutPaths(lines);
        expect(paths, run.describe()).toHaveLength(1);
        return { path: paths[0] as string, lines };
      });
      expect(files[0]!.path).not.toBe(files[1]!.path);
      for (const [i, file] of files.entries()) {
        // Each tile read its own thread: its own prompt, and never the other's. (A recording keeps
        // the rollout file's name, not its text: the file itself says whose thread it is.)
        const onDisk = fs.readFileSync(findRollout(home.codexHome, file.path), 'utf8');
        expect(onDisk).toContain(prompts[i] as string);
        expect(onDisk).not.toContain(prompts[1 - i] as string);
      }
    } finally {
      await Promise.all(runs.map((run) => run.stop()));
      await api.close();
      home.cleanup();
      for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);

  it('when Codex asks to review the hook anyway: the tile says so, and the rollout is found from the first turn\'s notify', async (ctx) => {
    if (!install.ok) return ctx.skip(install.reason);
    const api = await startFakeOpenAI({ script: [text('First.'), exec('sleep 5; echo finished', { yieldTimeMs: 500 }), text('Started it in the background.')] });
    const home = createCodexHome({ baseUrl: api.baseUrl });
    // A review record that does not match (as a Codex with another hash rule would see ours): the dialog shows.
    const wrong = `codex -c 'hooks.state={"/<session-flags>/config.toml:session_start:0:0"={trusted_hash="sha256:${'0'.repeat(64)}"}}'`;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'belltower-codex-e2e-'));
    const run = startHeadlessAgent({ spec: wrong, env: { ...home.env, BELLTOWER_CODEX_BIN: install.bin }, cwd: home.cwd, dir, session: `codex-review-${process.pid}`, flags: ['--timing', 'heldReleaseQuietMs=2000'] });
    try {
      let notice: string | undefined;
      for (const deadline = Date.now() + 60_000; notice === undefined && Date.now() < deadline; ) {
        await sleep(250);
        notice = (await run.tile())?.notice;
      }
      expect(notice, run.describe()).toMatch(/Codex asks to review hooks/);
      // "Continue without trusting (hooks won't run)", then Enter; again only while the dialog is
      // still on the screen and Codex has not said idle.
      const idle = (l: RecordingLine): boolean => l.type === 'osc' && l.code === 7501 && String(l.payload).startsWith('state=idle');
      await run.pressUntil(
        'Codex past the review dialog (OSC 7501 idle)',
        async () => {
          await run.type('3');
          await run.submit('');
        },
        () => run.recording().some(idle),
        async () => !run.recording().some(idle) && /^\s*Hooks need review\s*$/m.test(await run.screenText()),
        { tries: 3, everyMs: 15_000 },
      );
      await sleep(300);
      await run.submit('Say something first');
      await run.wait('done', '60s');
      // No SessionStart ran; the first turn's notify named the thread, and its rollout is followed
      // from there on: the second turn's background job holds its done.
      await run.untilRecorded("the first turn's notify", (l) => notifiesFor([l], (first) => first === '').length > 0);
      const mark = run.verdicts.length;
      await run.submit('Run it in the background');
      const finished = await run.untilRecorded('the job\'s completion in the rollout', (l) => l.type === 'transcript' && isCommandDone(l.record), 60_000);
      await run.wait('done', '60s');
      const done = run.verdicts.slice(mark).filter((v) => v.to === 'done');
      expect(done, run.describe()).toHaveLength(1);
      expect(done[0]!.t).toBeGreaterThan(finished.t);
      expect(linesOf(run.recording(), 'hook', (l) => l.event === 'SessionStart')).toEqual([]);
    } finally {
      await run.stop();
      await api.close();
      home.cleanup();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 240_000);
});
