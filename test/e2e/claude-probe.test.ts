/**
 * End-to-end probe: the real Claude Code (2.1.332) in a pseudo-terminal, against the fake
 * Anthropic API, with a headless xterm as its terminal. It proves the test harness works and pins
 * down the behaviour belltower relies on: the OSC 7501 handshake, `state=idle` at start-up,
 * `working` then `done` for a prompt, `/exit` with code 0.
 *
 * Skips (with the reason) when the pinned CLI cannot be installed, e.g. offline.
 *
 * How to drive Claude Code 2.1.332 (found while writing this):
 * - Ready for input: the first `ESC]7501;state=idle` (0.5–0.75 s after spawn here, 2 cores).
 *   Text typed before that is kept, but an Enter in it is lost.
 * - Submit: write the text, wait until it shows on the screen, then write "\r" on its own. Text
 *   and "\r" in one write (or two writes that reach the pty together) read as a paste: the "\r"
 *   becomes a newline in the prompt and nothing is sent (a short text sometimes gets through,
 *   a long one never does).
 * - Slash commands (/exit, /clear, /compact) are typed the same way: "/exit", then "\r".
 * - OSC 7501 `working` is not guaranteed before `done`: the state is sampled when the screen is
 *   rendered, so a very short turn can go straight from idle to done.
 * - Permission dialog: OSC 7501 `blocked:kind=permission` comes ~100–300 ms before the dialog is
 *   painted, and keys are ignored for ~200 ms after it is: wait for "Do you want to proceed?",
 *   press "\r" (on the pre-selected "1. Yes"; "1" works too) and press again while the dialog
 *   stays. Extra Enters are harmless on an empty prompt; an extra "1" is typed into it.
 */
import fs from 'node:fs';
import pty from 'node-pty';
import type { IPty } from 'node-pty';
import xterm from '@xterm/headless';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  apiError,
  lastUserOf,
  permissionBash,
  startFakeAnthropic,
  text,
  toolResultText,
  type FakeAnthropic,
  type MessagesRequest,
} from '../support/fake-anthropic.js';
import { createClaudeHome, type ClaudeHome } from '../support/claude-home.js';
import { tryInstallClaude, type InstallResult } from '../support/claude-install.js';

const { Terminal } = xterm;
type HeadlessTerminal = InstanceType<typeof Terminal>;

const COLS = 120;
const ROWS = 40;

interface OscEvent {
  /** Milliseconds since spawn. */
  t: number;
  payload: string;
}

/** The agent in a pty, its screen in a headless xterm, and predicates to wait on. */
class ClaudeUnderTest {
  readonly started = Date.now();
  readonly osc7501: OscEvent[] = [];
  readonly term: HeadlessTerminal;
  readonly proc: IPty;
  exit: { exitCode: number; signal?: number; t: number } | undefined;
  private readonly listeners = new Set<() => void>();

  constructor(bin: string, home: ClaudeHome, args: string[] = []) {
    this.term = new Terminal({ cols: COLS, rows: ROWS, allowProposedApi: true, scrollback: 1000 });
    this.proc = pty.spawn(bin, args, { name: 'xterm-256color', cols: COLS, rows: ROWS, cwd: home.cwd, env: home.env });
    // Terminal replies (DA1 for the start-up probe, cursor reports, …) go back to the agent.
    this.term.onData((data) => this.proc.write(data));
    this.term.parser.registerOscHandler(7501, (payload) => {
      // The feature query must be echoed before the terminal answers the DA1 that follows it:
      // write it synchronously, from inside the parser.
      if (payload === '?') this.proc.write('\x1b]7501;?\x07');
      this.osc7501.push({ t: this.now(), payload });
      this.notify();
      return true;
    });
    this.proc.onData((data) => this.term.write(data, () => this.notify()));
    this.proc.onExit(({ exitCode, signal }) => {
      this.exit = { exitCode, t: this.now(), ...(signal !== undefined ? { signal } : {}) };
      this.notify();
    });
  }

  now(): number {
    return Date.now() - this.started;
  }

  private notify(): void {
    for (const l of [...this.listeners]) l();
  }

  /** The visible rows, trailing blanks trimmed. */
  screen(): string {
    const buf = this.term.buffer.active;
    const rows: string[] = [];
    for (let i = 0; i < this.term.rows; i++) rows.push(buf.getLine(buf.viewportY + i)?.translateToString(true) ?? '');
    return rows.join('\n').replace(/\s+$/, '');
  }

  /** Resolves when `pred` holds (checked on every output, OSC and exit), or fails after `timeoutMs`. */
  waitFor<T>(what: string, pred: () => T | undefined | false, timeoutMs = 15_000): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const check = (): boolean => {
        const value = pred();
        if (value === undefined || value === false) return false;
        cleanup();
        resolve(value);
        return true;
      };
      const timer = setTimeout(() => {
        cleanup();
        const states = this.osc7501.map((e) => `${e.t}ms ${e.payload.split(':')[0]}`).join(', ');
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}\nOSC 7501: ${states}\nscreen:\n${this.screen()}`));
      }, timeoutMs);
      const cleanup = (): void => {
        clearTimeout(timer);
        this.listeners.delete(listener);
      };
      const listener = (): void => {
        check();
      };
      if (!check()) this.listeners.add(listener);
    });
  }

  /** The first OSC 7501 event at index ≥ `from` whose state is `state`. */
  waitForState(state: string, from = 0, timeoutMs = 15_000): Promise<OscEvent> {
    return this.waitFor(`OSC 7501 state=${state} (after event #${from})`, () =>
      this.osc7501.slice(from).find((e) => e.payload === `state=${state}` || e.payload.startsWith(`state=${state}:`)),
    timeoutMs);
  }

  /** How often `needle` occurs on the visible rows. */
  count(needle: string): number {
    return this.screen().split(needle).length - 1;
  }

  /** Types `line` and submits it: the text, then (once it is on screen) a lone "\r". */
  async submit(line: string): Promise<void> {
    const probe = line.slice(0, 40);
    const before = this.count(probe);
    this.proc.write(line);
    await this.waitFor(`the typed text ${JSON.stringify(probe)} on screen`, () => this.count(probe) > before, 30_000);
    this.proc.write('\r');
  }

  /**
   * Approves a permission dialog ("1. Yes" is pre-selected). Claude Code ignores keys for about
   * 200 ms after the dialog is painted (a guard against typed-ahead keys), so: wait for the
   * dialog on screen, press Enter, and press it again every 500 ms while the dialog stays.
   * Enter, not "1": a press that lands after the dialog closed (the screen and OSC 7501 lag the
   * key under load) is a no-op on the empty prompt, where a "1" would be typed into it.
   */
  async approve(timeoutMs = 5_000): Promise<number> {
    const dialog = 'Do you want to proceed?';
    await this.waitFor('the permission dialog on screen', () => this.screen().includes(dialog), timeoutMs);
    const mark = this.osc7501.length;
    const answered = (): boolean =>
      !this.screen().includes(dialog) || this.osc7501.slice(mark).some((e) => !e.payload.startsWith('state=blocked'));
    const deadline = Date.now() + timeoutMs;
    for (let presses = 1; ; presses++) {
      this.proc.write('\r');
      try {
        await this.waitFor('the permission dialog to close', answered, 500);
        return presses;
      } catch (err) {
        if (Date.now() > deadline) throw err;
      }
    }
  }

  /**
   * Ends the process if it still runs and waits for it, so that it writes nothing into a HOME
   * that is about to be removed: SIGTERM, then SIGKILL after 3 s.
   */
  async dispose(): Promise<void> {
    for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
      if (this.exit !== undefined) break;
      try {
        this.proc.kill(signal);
      } catch {
        break; // already gone
      }
      await this.waitFor(`exit after ${signal}`, () => this.exit, 3_000).catch(() => undefined);
    }
    this.term.dispose();
  }
}

function decodeField(payload: string, field: string): string | undefined {
  const m = new RegExp(`(?:^|:)${field}=([^:]*)`).exec(payload);
  return m?.[1] === undefined ? undefined : Buffer.from(m[1], 'base64').toString('utf8');
}

describe('real Claude Code against the fake Anthropic API', () => {
  let install: InstallResult = { ok: false, reason: 'not attempted' };
  let api: FakeAnthropic | undefined;
  let home: ClaudeHome | undefined;
  let claude: ClaudeUnderTest | undefined;

  beforeAll(async () => {
    install = await tryInstallClaude({ log: (line) => console.error(`[claude-install] ${line}`) });
    if (!install.ok) console.warn(`[claude-probe] skipping: ${install.reason}`);
  }, 15 * 60_000);

  afterEach(async () => {
    await claude?.dispose();
    claude = undefined;
    await api?.close();
    api = undefined;
    home?.cleanup();
    home = undefined;
  });

  it('answers the OSC 7501 probe, reports working then done for a prompt, and exits 0 on /exit', async (ctx) => {
    if (!install.ok) {
      ctx.skip(install.reason);
      return;
    }
    const answer = 'Belltower probe answer.';
    // OSC 7501 reports the state at render time: a turn that starts and ends between two frames
    // goes idle → done with no `working` at all (seen for an instant reply under load). Holding
    // the reply for a second makes `working` certain.
    api = await startFakeAnthropic({ script: [text(answer, { firstByteDelayMs: 1_000 })] });
    home = createClaudeHome({ baseUrl: api.url, allowBash: ['sleep:*'] });
    const c = new ClaudeUnderTest(install.bin, home);
    claude = c;

    // Start-up: the probe, then idle. OSC 7501 idle is the "ready for input" signal.
    const idle = await c.waitForState('idle', 0, 30_000);
    expect(c.osc7501[0]?.payload).toBe('?');
    expect(c.osc7501.slice(0, c.osc7501.indexOf(idle)).map((e) => e.payload)).toEqual(['?']);

    // One prompt.
    const prompt = 'Say something short for the belltower probe';
    const mark = c.osc7501.length;
    const typedAt = c.now();
    await c.submit(prompt);
    const submittedAt = c.now();
    const working = await c.waitForState('working', mark, 15_000);
    const done = await c.waitForState('done', mark, 15_000);
    expect(working.t).toBeLessThan(done.t);
    const turn = c.osc7501.slice(mark, c.osc7501.indexOf(done) + 1).map((e) => e.payload);
    expect(turn.every((p) => /^state=(working|done):app=claude-code/.test(p))).toBe(true);
    await c.waitFor('the answer on screen', () => c.screen().includes(answer), 30_000);

    // The fake API saw exactly one main-loop request, carrying the prompt as the last user text.
    const main = api.mainRequests();
    expect(main).toHaveLength(1);
    const body = main[0]?.body as MessagesRequest;
    expect(body.stream).toBe(true);
    expect(main[0]?.path).toBe('/v1/messages');
    expect(main[0]?.url).toContain('beta=true');
    expect(lastUserOf(body).text).toBe(prompt);
    expect(api.unknownRequests.map((r) => `${r.method} ${r.url}`)).toEqual([]);
    expect(api.exhausted).toBe(0);

    // /exit: OSC 7501 clear, exit code 0.
    const exitMark = c.osc7501.length;
    await c.submit('/exit');
    const exit = await c.waitFor('the process to exit', () => c.exit, 15_000);
    expect(exit.exitCode).toBe(0);
    expect(c.osc7501.slice(exitMark).map((e) => e.payload)).toContain('state=clear');

    // The transcript landed where claude-home says it does.
    expect(fs.readdirSync(home.transcriptDir).some((f) => f.endsWith('.jsonl'))).toBe(true);

    const requestAt = (main[0]?.t ?? 0) + api.startedAt - c.started;
    console.log(
      `[claude-probe] ms from spawn: idle ${idle.t} · typed ${typedAt} · Enter ${submittedAt} · request ${requestAt} · ` +
        `working ${working.t} · done ${done.t} · exit ${exit.t} · requests: ${api.requests.map((r) => `${r.kind}:${r.url}`).join(', ')}`,
    );
    expect(decodeField(done.payload, 'msg')).toBeUndefined();
  }, 90_000);

  it('a Bash call outside the allow rules: blocked kind=permission, approved by keystroke, then done', async (ctx) => {
    if (!install.ok) {
      ctx.skip(install.reason);
      return;
    }
    const command = 'touch belltower-approved.txt';
    api = await startFakeAnthropic({ script: [permissionBash(command), text('File created.')] });
    home = createClaudeHome({ baseUrl: api.url, allowBash: ['sleep:*'] });
    const c = new ClaudeUnderTest(install.bin, home);
    claude = c;
    await c.waitForState('idle', 0, 30_000);

    const mark = c.osc7501.length;
    await c.submit('Create the file');
    const blocked = await c.waitForState('blocked', mark, 15_000);
    expect(blocked.payload).toContain(':kind=permission');
    expect(decodeField(blocked.payload, 'msg')).toBe(`approve Bash: ${command}`);

    const afterBlock = c.osc7501.length;
    const presses = await c.approve();
    const done = await c.waitForState('done', afterBlock, 15_000);
    await c.waitFor('the final answer on screen', () => c.screen().includes('File created.'), 30_000);
    expect(fs.existsSync(`${home.cwd}/belltower-approved.txt`)).toBe(true);

    const main = api.mainRequests();
    expect(main).toHaveLength(2);
    const results = lastUserOf(main[1]?.body as MessagesRequest).toolResults;
    expect(results).toHaveLength(1);
    expect(results[0]?.is_error).not.toBe(true);
    console.log(
      `[claude-probe] permission: blocked ${blocked.t} ms · approved after ${presses} press(es) · done ${done.t} ms · ` +
        `tool result ${JSON.stringify(results[0] ? toolResultText(results[0]) : '')}`,
    );

    await c.submit('/exit');
    expect((await c.waitFor('the process to exit', () => c.exit, 15_000)).exitCode).toBe(0);
  }, 90_000);

  it('an API error (HTTP 400) ends the turn in state=error after the CLI has retried it', async (ctx) => {
    if (!install.ok) {
      ctx.skip(install.reason);
      return;
    }
    api = await startFakeAnthropic({ script: [apiError(400, 'belltower probe error')] });
    home = createClaudeHome({ baseUrl: api.url });
    const c = new ClaudeUnderTest(install.bin, home);
    claude = c;
    await c.waitForState('idle', 0, 30_000);

    const mark = c.osc7501.length;
    await c.submit('This will fail');
    const error = await c.waitForState('error', mark, 15_000);
    expect(decodeField(error.payload, 'msg')).toBe('API Error: 400 belltower probe error');
    expect(c.osc7501.slice(mark).some((e) => e.payload.startsWith('state=done'))).toBe(false);
    // One turn, several attempts: each 400 is retried with fewer beta features. The fake answers
    // the retries with the same reply without consuming the script.
    const main = api.mainRequests();
    expect(main.length).toBeGreaterThan(1);
    expect(main.slice(1).every((r) => r.retryOf === main[0]?.seq)).toBe(true);
    expect(api.exhausted).toBe(0);
    console.log(`[claude-probe] error: ${main.length} attempts, state=error at ${error.t} ms`);

    await c.submit('/exit');
    expect((await c.waitFor('the process to exit', () => c.exit, 15_000)).exitCode).toBe(0);
  }, 90_000);
});
