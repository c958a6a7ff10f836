/**
 * Drives `belltower run --headless --record DIR --capture-output SPEC` (the built CLI) for one
 * agent tile, the way a script would: verdicts from the JSON stream on stdout, input through
 * `belltower send`, states through `belltower wait`. Each run has its own control socket
 * (`--session`), state folder (BELLTOWER_STATE_DIR) and recording folder.
 *
 *   const run = startHeadlessAgent({ spec: 'codex', env: home.env, cwd: home.cwd, dir, session });
 *   await run.until('idle', () => run.verdicts.some((v) => v.to === 'idle'));
 *   await run.submit('hello');
 *   await run.wait('done', '30s');
 *   await run.stop();
 *   const lines = run.recording();
 */
import { execFile, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { request } from '../../src/control/control-client.js';
import type { TileInfo } from '../../src/control/protocol.js';
import { socketPath } from '../../src/control/socket-path.js';
import { Screen } from '../../src/session/screen.js';
import { belltowerDirs } from '../../src/platform/state-dir.js';
import { sleep } from './fake-server.js';
import { chownTree, type RunAs } from './unprivileged-user.js';

const repo = join(import.meta.dirname, '..', '..');
export const BELLTOWER_BIN = join(repo, 'bin', 'belltower.js');

/** One line of the JSON verdict stream, plus when the test read it. */
export interface VerdictLine {
  t: number;
  tile: number;
  name: string;
  from: string;
  to: string;
  source: string;
  reason: string;
  kind?: string;
  /** Date.now() when the line reached the test. */
  readAt: number;
}

/** One line of a recording (header, evidence or verdict), as parsed JSON. */
export interface RecordingLine {
  type: string;
  t: number;
  seq: number;
  [field: string]: unknown;
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface HeadlessAgentOptions {
  /** The SPEC: `codex`, `gemini`, … (with arguments if any). */
  spec: string;
  /** The agent's complete environment (from a home helper); belltower runs with it too. */
  env: Record<string, string>;
  cwd: string;
  /** A private folder: `state/` and `rec/` go under it. */
  dir: string;
  /** Control-socket name, unique per run. */
  session: string;
  /** Extra `run` flags, e.g. ['--no-psp']. */
  flags?: string[];
  /** More tiles after the agent's (tile 1), e.g. one that keeps belltower running. */
  moreSpecs?: string[];
  /** Run belltower (and so the agent) as this user; `dir` (everything in it) is handed to it. */
  runAs?: RunAs | null;
}

export type WaitState = 'done' | 'blocked' | 'idle' | 'exited' | 'finished' | 'any';

export class HeadlessAgent {
  readonly child: ChildProcess;
  readonly verdicts: VerdictLine[] = [];
  readonly recordDir: string;
  readonly startedAt = Date.now();
  readonly exited: Promise<number | null>;
  private readonly env: NodeJS.ProcessEnv;
  private stderrText = '';
  private stdoutRest = '';
  private exitCode: number | null | undefined;

  constructor(private readonly options: HeadlessAgentOptions) {
    const state = join(options.dir, 'state');
    this.recordDir = join(options.dir, 'rec');
    // Private like belltower's own folders (and never group-writable, whatever the umask).
    mkdirSync(state, { recursive: true, mode: 0o700 });
    mkdirSync(this.recordDir, { recursive: true, mode: 0o700 });
    chownTree(options.dir, options.runAs ?? null);
    this.env = { ...options.env, BELLTOWER_STATE_DIR: state };
    const args = [BELLTOWER_BIN, 'run', '--headless', '--session', options.session, '--record', this.recordDir, '--capture-output', ...(options.flags ?? []), options.spec, ...(options.moreSpecs ?? [])];
    const user = options.runAs ? { uid: options.runAs.uid, gid: options.runAs.gid } : {};
    this.child = spawn(process.execPath, args, { cwd: options.cwd, env: this.env, stdio: ['ignore', 'pipe', 'pipe'], ...user });
    this.child.stdout?.setEncoding('utf8').on('data', (chunk: string) => this.read(chunk));
    this.child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (this.stderrText += chunk));
    this.exited = new Promise((resolve) =>
      this.child.once('exit', (code) => {
        this.exitCode = code;
        resolve(code);
      }),
    );
  }

  get stderr(): string {
    return this.stderrText;
  }

  get hasExited(): boolean {
    return this.exitCode !== undefined;
  }

  /** The verdict stream from index `from`, one `t from→to (source[, kind]: reason)` per line. */
  describe(from = 0): string {
    return this.verdicts
      .slice(from)
      .map((v) => `${v.t} ${v.from}→${v.to} (${v.source}${v.kind ? `, ${v.kind}` : ''}: ${v.reason})`)
      .join('\n');
  }

  /** The states the tile went to from verdict index `from`. */
  states(from = 0): string[] {
    return this.verdicts.slice(from).map((v) => v.to);
  }

  /** A control command (`ls`, `send`, `wait`) against this run's socket, as the user belltower runs
   * as: its socket is that user's alone (a client refuses a folder another user owns). */
  cli(...args: string[]): Promise<CliResult> {
    const user = this.options.runAs ? { uid: this.options.runAs.uid, gid: this.options.runAs.gid } : {};
    return new Promise((resolve) => {
      execFile(process.execPath, [BELLTOWER_BIN, ...args, '--session', this.options.session], { cwd: this.options.cwd, env: this.env, ...user }, (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      });
    });
  }

  /** Types `text` into tile 1 without Enter. */
  async type(text: string): Promise<void> {
    const sent = await this.cli('send', '1', text);
    if (sent.code !== 0) throw new Error(`belltower send failed (${sent.code}): ${sent.stderr}`);
  }

  /** `belltower send 1 TEXT --enter` (belltower sends the Enter 150 ms after the text). */
  async submit(text: string): Promise<void> {
    const sent = await this.cli('send', '1', text, '--enter');
    if (sent.code !== 0) throw new Error(`belltower send failed (${sent.code}): ${sent.stderr}`);
  }

  /**
   * Sends to tile 1 over the control socket from this process: no CLI to start, so it lands within
   * milliseconds (for timing-sensitive scenarios; `type` and `submit` are what a script runs).
   */
  async sendNow(text: string, enter: boolean): Promise<void> {
    const path = socketPath(belltowerDirs({ env: this.env }).runtime, this.options.session);
    const reply = await request(path, { op: 'send', tile: '1', text, enter });
    if (!reply.ok) throw new Error(`send over the control socket failed: ${JSON.stringify(reply)}`);
  }

  /** Tile 1's pending request once its dialog is drawn (a moment after it says blocked), read with
   * `ls --json` as a script would. */
  async pendingRequest(timeoutMs = 60_000): Promise<NonNullable<TileInfo['request']>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const [tile] = JSON.parse((await this.cli('ls', '--json')).stdout) as TileInfo[];
      if (tile?.request && tile.request.options.length > 0) return tile.request;
      if (Date.now() > deadline) throw new Error(`no dialog in ls --json after ${timeoutMs} ms: ${JSON.stringify(tile)}`);
      await sleep(200);
    }
  }

  /** Tile 1 as `ls --json` shows it now (undefined once belltower has gone). */
  async tile(): Promise<TileInfo | undefined> {
    const listed = await this.cli('ls', '--json');
    if (listed.code !== 0) return undefined;
    return (JSON.parse(listed.stdout || '[]') as TileInfo[])[0];
  }

  /** `belltower wait 1 --for STATE --timeout T`; throws with the verdict stream when it fails. */
  async wait(state: WaitState, timeout = '60s'): Promise<CliResult> {
    const result = await this.cli('wait', '1', '--for', state, '--timeout', timeout);
    if (result.code !== 0) {
      throw new Error(`belltower wait --for ${state} exited ${result.code}: ${result.stderr.trim()}\nverdicts:\n${this.describe()}\nstderr:\n${this.stderrText}`);
    }
    return result;
  }

  /** Resolves when `probe` holds; fails after `timeoutMs` with the verdict stream so far. A deadline
   * only costs time when the test fails: a loaded machine may take many times a quiet one's. */
  async until<T>(what: string, probe: () => T | undefined | false, timeoutMs = 60_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = probe();
      if (value) return value;
      if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}\nverdicts:\n${this.describe()}\nstderr:\n${this.stderrText}`);
      await sleep(25);
    }
  }

  /**
   * A key the program may miss (pressed before it can take it, or lost under load): `press` it,
   * wait up to `everyMs` for `took`, and press again only while `stillWaiting` says it did not take
   * (the tile still blocked, still working), `tries` presses at most; then `took` has until
   * `timeoutMs`. Returns how many presses it took.
   */
  async pressUntil(
    what: string,
    press: () => Promise<void>,
    took: () => boolean,
    stillWaiting: () => boolean | Promise<boolean>,
    { tries = 5, everyMs = 5_000, timeoutMs = 60_000 }: { tries?: number; everyMs?: number; timeoutMs?: number } = {},
  ): Promise<number> {
    for (let presses = 1; ; presses++) {
      await press();
      const last = presses >= tries;
      try {
        await this.until(what, () => took(), last ? timeoutMs : everyMs);
        return presses;
      } catch (error) {
        if (last) throw await this.withScreen(error, presses);
      }
      if (!(await stillWaiting())) {
        await this.until(what, () => took(), timeoutMs).catch(async (error: unknown) => {
          throw await this.withScreen(error, presses);
        });
        return presses;
      }
    }
  }

  /** The tile's screen (as its recorded output draws it) once `pred` holds; fails after `timeoutMs`
   * with the verdict stream and the screen last seen. */
  async untilScreen(what: string, pred: (screen: string) => boolean, timeoutMs = 60_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const screen = await this.screenText();
      if (pred(screen)) return screen;
      if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} on the screen\nverdicts:\n${this.describe()}\nscreen:\n${screen}`);
      await sleep(200);
    }
  }

  /** A failure's error with how often the key was pressed and the tile's screen added. */
  private async withScreen(error: unknown, presses: number): Promise<Error> {
    const message = error instanceof Error ? error.message : String(error);
    return new Error(`${message}\n(pressed ${presses} time${presses === 1 ? '' : 's'})\nscreen:\n${await this.screenText()}`);
  }

  /** Resolves when the recording has a line matching `pred` (polls the file). */
  untilRecorded(what: string, pred: (line: RecordingLine) => boolean, timeoutMs = 60_000): Promise<RecordingLine> {
    return this.until(`${what} in the recording`, () => this.recording().find(pred), timeoutMs);
  }

  /** Waits for belltower to end (it ends with its only tile); 'timeout' when it has not by then. */
  async ended(timeoutMs = 60_000): Promise<number | null | 'timeout'> {
    return Promise.race([this.exited, sleep(timeoutMs).then(() => 'timeout' as const)]);
  }

  /** Ends the run if it still runs: SIGTERM (belltower ends its tiles), SIGKILL after 5 s. */
  async stop(): Promise<void> {
    if (this.hasExited) return;
    this.child.kill('SIGTERM');
    if ((await this.ended(5_000)) === 'timeout' && !this.hasExited) {
      this.child.kill('SIGKILL');
      await this.exited;
    }
  }

  /** The tile's recording file (the run has one tile). */
  recordingPath(): string {
    const all = readdirSync(this.recordDir).filter((f) => f.endsWith('.jsonl'));
    // With more tiles (moreSpecs), the agent's is tile 1's first run: `STAMP-1-NAME.jsonl`.
    const files = all.length > 1 ? all.filter((f) => /Z-1-/.test(f) && !/-run\d+\.jsonl$/.test(f)) : all;
    if (files.length !== 1) throw new Error(`expected one recording in ${this.recordDir}, found ${files.length}`);
    return join(this.recordDir, files[0] as string);
  }

  /** The tile's screen as its output so far draws it (for a failure's message). */
  async screenText(): Promise<string> {
    const lines = this.recording();
    const header = lines[0] as unknown as { cols?: number; rows?: number } | undefined;
    const screen = new Screen({ cols: header?.cols ?? 80, rows: header?.rows ?? 24, onReply: () => {} });
    for (const line of lines) if (line.type === 'pty') screen.write((line as unknown as { data: string }).data);
    await screen.flush();
    const text = screen.rowTexts().map((row) => row.trimEnd()).join('\n').replace(/\n+$/, '');
    screen.dispose();
    return text;
  }

  /** The recording so far, parsed (a line still being written is skipped). */
  recording(): RecordingLine[] {
    let text: string;
    try {
      text = readFileSync(this.recordingPath(), 'utf8');
    } catch {
      return [];
    }
    const lines: RecordingLine[] = [];
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      try {
        lines.push(JSON.parse(line) as RecordingLine);
      } catch {
        break; // the last line is being written
      }
    }
    return lines;
  }

  private read(chunk: string): void {
    this.stdoutRest += chunk;
    let nl: number;
    while ((nl = this.stdoutRest.indexOf('\n')) >= 0) {
      const line = this.stdoutRest.slice(0, nl);
      this.stdoutRest = this.stdoutRest.slice(nl + 1);
      if (line.trim() === '') continue;
      this.verdicts.push({ ...(JSON.parse(line) as Omit<VerdictLine, 'readAt'>), readAt: Date.now() });
    }
  }
}

export function startHeadlessAgent(options: HeadlessAgentOptions): HeadlessAgent {
  return new HeadlessAgent(options);
}

/** `node bin/belltower.js replay FILE --check`. */
export function replayCheck(file: string): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BELLTOWER_BIN, 'replay', file, '--check'], { maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** Recording lines of one type (`osc` with a code, `hook` with an event, …) from `lines`. */
export function linesOf(lines: readonly RecordingLine[], type: string, pred: (line: RecordingLine) => boolean = () => true): RecordingLine[] {
  return lines.filter((l) => l.type === type && pred(l));
}

export const FIXTURES_DIR = join(repo, 'fixtures');

/**
 * With BELLTOWER_UPDATE_FIXTURES=1, copies a fresh recording to `fixtures/<folder>/<scenario>.jsonl`
 * (e.g. folder "codex-0.171.0") with the agent's version in the header (belltower does not know
 * it; replay ignores it), and returns the path written; otherwise does nothing.
 */
export function saveFixture(recording: string, folder: string, scenario: string, agentVersion: string): string | undefined {
  if (process.env.BELLTOWER_UPDATE_FIXTURES !== '1') return undefined;
  const dir = join(FIXTURES_DIR, folder);
  mkdirSync(dir, { recursive: true });
  const target = join(dir, `${scenario}.jsonl`);
  const text = readFileSync(recording, 'utf8');
  const nl = text.indexOf('\n');
  const header = JSON.parse(text.slice(0, nl)) as Record<string, unknown>;
  // Recordings are private (0600); fixtures are part of the repo.
  writeFileSync(target, `${JSON.stringify({ ...header, agentVersion })}${text.slice(nl)}`, { mode: 0o644 });
  return target;
}

/** One e2e scenario against a real agent: the fake API, the agent's home, belltower, its folder. */
export interface AgentSession<Api, Home> {
  api: Api;
  home: Home;
  run: HeadlessAgent;
  dir: string;
}

export interface AgentSessionOptions {
  /** Added to the home's environment (e.g. the agent's binary: BELLTOWER_CODEX_BIN). */
  env: Record<string, string>;
  /** Parent of the run's folder (state, recordings); default the temp folder. */
  parent?: string | undefined;
  /** Extra `run` flags. */
  flags?: string[] | undefined;
  /** Run belltower and the agent as this user (see unprivileged-user.ts): the run's folder, the
   * home and the project folder are handed to it. */
  runAs?: RunAs | null | undefined;
}

/**
 * What the e2e suites of the real agents (codex-headless, gemini-headless) share, one session at a
 * time: `start` runs belltower headless for the agent in a fresh folder, `teardown` (afterEach)
 * ends and removes it all, `quitAndCheck` quits the agent and checks that the recording replays.
 */
export class AgentSessions<Api extends { close(): Promise<void> }, Home extends { env: Record<string, string>; cwd: string; cleanup(): void; folders?: string[] }> {
  private current: AgentSession<Api, Home> | undefined;
  private count = 0;

  /**
   * `agent` is the SPEC and names the folders, sessions and log lines; recordings are saved as
   * `fixtures/<fixtureFolder>/<scenario>.jsonl` with BELLTOWER_UPDATE_FIXTURES=1.
   */
  constructor(
    private readonly agent: string,
    private readonly fixtureFolder: string,
    private readonly agentVersion: string,
  ) {}

  /** belltower running the agent from `home`, against `api`; ended by `teardown`. */
  start(api: Api, home: Home, options: AgentSessionOptions): AgentSession<Api, Home> {
    const dir = mkdtempSync(join(options.parent ?? tmpdir(), `belltower-${this.agent}-e2e-`));
    for (const folder of home.folders ?? []) chownTree(folder, options.runAs ?? null);
    const run = startHeadlessAgent({
      spec: this.agent,
      env: { ...home.env, ...options.env },
      cwd: home.cwd,
      dir,
      session: `${this.agent}-e2e-${process.pid}-${++this.count}`,
      flags: options.flags,
      runAs: options.runAs ?? null,
    });
    this.current = { api, home, run, dir };
    return this.current;
  }

  /** For afterEach: stops belltower, closes the API, removes the home and the run's folder. */
  async teardown(): Promise<void> {
    if (!this.current) return;
    const { run, api, home, dir } = this.current;
    this.current = undefined;
    await run.stop();
    await api.close();
    home.cleanup();
    // BELLTOWER_E2E_KEEP=1 keeps the recordings (and belltower's log) for a look after a failure.
    if (process.env.BELLTOWER_E2E_KEEP === '1') console.warn(`[${this.agent}-headless] kept ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }

  /**
   * "/quit": the tile goes exited with code 0, belltower ends, and the recording replays; then
   * `beforeSave` (which may refuse by throwing) and saveFixture. Returns the recording.
   */
  async quitAndCheck(s: AgentSession<Api, Home>, scenario: string, beforeSave?: () => void): Promise<RecordingLine[]> {
    await s.run.submit('/quit');
    const code = await s.run.ended(60_000);
    expect(code, code === 'timeout' ? `still running after /quit:\n${s.run.describe()}\nscreen:\n${await s.run.screenText()}` : undefined).toBe(0);
    expect(s.run.verdicts.at(-1), s.run.describe()).toMatchObject({ to: 'exited', source: 'process', reason: 'exited with code 0' });
    const file = s.run.recordingPath();
    const replay = await replayCheck(file);
    expect(replay.code, `replay --check ${file}:\n${replay.stdout}\n${replay.stderr}`).toBe(0);
    beforeSave?.();
    const saved = saveFixture(file, this.fixtureFolder, scenario, this.agentVersion);
    const lines = s.run.recording();
    console.log(
      `[${this.agent}-headless] ${scenario}: ${s.run.states().join(' → ')} · ${statSync(file).size} bytes, ${lines.length} lines${saved ? ` → ${saved}` : ''}`,
    );
    return lines;
  }
}
