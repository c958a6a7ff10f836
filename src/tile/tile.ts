/**
 * A live tile: owns one agent session (pty + screen), its hook registration and transcript tail,
 * its recording, and the wake-up timer of its verdict pipeline. Everything the agent says flows
 * one way: evidence → pipeline → verdict effects → listeners.
 */
import type { LaunchSpec } from '../agents/launch-spec.js';
import type { AgentProfile, TranscriptTarget } from '../agents/profile.js';
import { profileFor } from '../agents/registry.js';
import type { TileInfo } from '../control/protocol.js';
import type { Logger } from '../platform/logger.js';
import type { Evidence } from '../record/format.js';
import { Recorder } from '../record/recorder.js';
import { RowWatcher } from '../session/row-watcher.js';
import { Session } from '../session/session.js';
import type { HookServer } from '../sources/hooks/hook-server.js';
import { TranscriptTail } from '../sources/transcript/tail.js';
import { CODEX_NOTIFY_EVENT } from '../agents/codex-injection.js';
import type { Effect } from '../verdict/effects.js';
import type { EngineState, Verdict } from '../verdict/state.js';
import type { Timing } from '../verdict/timing.js';
import { inject, InjectionUnavailable, injects } from './agent-injection.js';
import type { Injection } from './agent-injection.js';
import { createBannerReader } from './banner-reader.js';
import { echoed, isSlashCommand, promptInput } from './prompt-box.js';
import { TilePipeline } from './tile-pipeline.js';

export interface TileOptions {
  id: number;
  spec: LaunchSpec;
  name?: string;
  cwd: string;
  env: Record<string, string | undefined>;
  cols: number;
  rows: number;
  timing: Timing;
  /** Answer the OSC 7501 query (default: the profile's choice). */
  answerPsp?: boolean;
  /** Inject belltower's hooks where the agent has them (default true). */
  hooks?: boolean;
  /** The agent's `--version`, when known: what is injected may depend on it. */
  agentVersion?: string | undefined;
  hookServer?: HookServer;
  /** Parent folder of per-tile private folders (hook settings, relay). */
  runtimeDir: string;
  /** Write a recording here (a file path), with pty output when captureOutput. */
  recordPath?: string;
  captureOutput?: boolean;
  logger: Logger;
  /** The tile's clock: milliseconds since an epoch (Date.now by default). */
  now?: () => number;
}

/** How long a submit waits for the box to show what was typed before pressing Enter anyway. */
const ECHO_WAIT_MS = 1_000;

export interface VerdictChange {
  tile: Tile;
  from: Verdict['state'];
  verdict: Verdict;
}

export class Tile {
  readonly id: number;
  readonly name: string;
  readonly profile: AgentProfile;
  readonly session: Session;
  readonly startedAt: number;
  private readonly pipeline: TilePipeline;
  private readonly recorder: Recorder | null;
  private readonly injection: Injection | null;
  /** What the tile could not set up and how it copes (no hooks injected, a hook the agent refused). */
  private notice: string | undefined;
  /** Looks at the screen for a sign that the agent refused what was injected, until the agent reports. */
  private screenCheck: (() => void) | undefined;
  private tail: TranscriptTail | null = null;
  private readonly clock: () => number;
  private readonly changeListeners = new Set<(change: VerdictChange) => void>();
  private readonly ringListeners = new Set<(tile: Tile, state: string) => void>();
  private wakeTimer: NodeJS.Timeout | undefined;
  private exited = false;
  private finished = false;
  private readonly exitWaiters: (() => void)[] = [];

  constructor(private readonly options: TileOptions) {
    this.id = options.id;
    this.name = options.name ?? options.spec.name;
    this.profile = profileFor(options.spec.agent);
    this.clock = options.now ?? Date.now;
    this.startedAt = this.clock();
    const log = options.logger;
    const tileKey = `tile-${process.pid}-${options.id}`;

    let args = options.spec.args;
    let env: Record<string, string | undefined> = { ...options.env };
    let injection: Injection | null = null;
    if (options.hooks !== false && injects(this.profile.name) && options.hookServer) {
      injection = this.tryInject({
        agent: this.profile.name,
        server: options.hookServer,
        runtimeDir: options.runtimeDir,
        tileKey,
        cwd: options.cwd,
        env,
        version: options.agentVersion,
        onHook: (_key, event, payload) => this.hook(event, payload),
      });
      if (injection) {
        args = [...injection.args, ...args];
        env = { ...env, ...injection.env };
      }
    }
    this.injection = injection;
    // Claim hooks only where they were injected: the quiet latch waits for a hook prompt otherwise.
    const hooksOn = injection !== null;

    const answerPsp = options.answerPsp ?? this.profile.answerPsp;
    this.recorder = options.recordPath
      ? new Recorder(
          options.recordPath,
          {
            agent: this.profile.name,
            cols: options.cols,
            rows: options.rows,
            ...(options.agentVersion ? { agentVersion: options.agentVersion } : {}),
            startedAt: new Date(this.startedAt).toISOString(),
            timing: { ...options.timing },
            name: this.name,
            psp: answerPsp,
            hooks: hooksOn,
          },
          { captureOutput: options.captureOutput ?? false },
        )
      : null;

    this.session = Session.start({
      file: options.spec.file,
      args,
      cwd: options.cwd,
      env,
      cols: options.cols,
      rows: options.rows,
      answerPspQuery: answerPsp,
    });
    this.pipeline = new TilePipeline({
      profile: this.profile,
      timing: options.timing,
      promptsFromHooks: this.profile.promptsFromHooks && hooksOn,
      recorder: this.recorder,
      readBanners: this.profile.banner ? createBannerReader(this.session.screen) : () => [],
      onEffects: (effects) => this.effects(effects),
      onProblem: (problem) => log('warn', `tile ${this.id}: ${problem}`),
    });
    this.session.onOutput((data) => this.pipeline.ptyReceived(data, this.t()));
    this.session.onOsc((code, payload) => this.pipeline.oscParsed(code, payload));
    this.session.onChunkParsed(() => {
      this.pipeline.ptyParsed();
      this.screenCheck?.();
    });
    if (injection?.refusedOnScreen) this.watchForRefusal(injection.refusedOnScreen);
    this.session.onExit((info) => {
      this.ingest({ type: 'exit', code: info.code ?? null, signal: info.signal ?? null, ...(info.error ? { error: info.error } : {}) });
      this.exited = true;
      this.finish();
      for (const waiter of this.exitWaiters.splice(0)) waiter();
    });

    if (injection?.transcriptPath !== undefined) this.follow({ path: injection.transcriptPath });
  }

  /** Milliseconds since the tile started: the clock of its recording and its verdicts. */
  t(): number {
    return Math.max(0, Math.round(this.clock() - this.startedAt));
  }

  get verdict(): Verdict {
    return this.pipeline.state.verdict;
  }

  get engine(): EngineState {
    return this.pipeline.state;
  }

  get hasExited(): boolean {
    return this.exited;
  }

  info(): TileInfo {
    const v = this.verdict;
    return {
      id: this.id,
      name: this.name,
      agent: this.profile.name,
      state: v.state,
      ...(v.kind ? { kind: v.kind } : {}),
      source: v.source,
      confidence: v.confidence,
      reason: v.reason,
      sinceMs: Math.max(0, this.t() - v.since),
      ...(this.notice ? { notice: this.notice } : {}),
    };
  }

  onChange(listener: (change: VerdictChange) => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  onRing(listener: (tile: Tile, state: string) => void): () => void {
    this.ringListeners.add(listener);
    return () => this.ringListeners.delete(listener);
  }

  /**
   * Type into the agent. With `enter`, the box is submitted: that is a prompt (never recorded), a
   * slash command when the box — read from the screen, not what was sent last — starts with `/`.
   */
  send(text: string, enter: boolean): void {
    if (this.exited) return;
    if (text.length > 0) this.session.write(text);
    if (!enter) return;
    const started = this.clock();
    const press = () => {
      if (this.exited) return;
      const input = this.promptInput();
      // Wait (a little) for the box to show the text: only then does it say what will be sent.
      if (!echoed(input, text) && this.clock() - started < ECHO_WAIT_MS) return void setTimeout(press, 25);
      this.session.write('\r');
      this.ingest(isSlashCommand(input, text) ? { type: 'prompt', local: true } : { type: 'prompt' });
    };
    // TUIs treat a burst ending in CR as a paste; the Enter goes separately, after the text.
    setTimeout(press, text.length > 0 ? 150 : 0);
  }

  /** The agent's prompt box as the screen shows it (the cursor's row). */
  private promptInput(): string | undefined {
    const screen = this.session.screen;
    const { x, y } = screen.cursor;
    return promptInput(screen.rowText(y), x);
  }

  /** The user looked at the tile: an unseen done becomes idle. */
  seen(): void {
    this.ingest({ type: 'seen' });
  }

  resize(cols: number, rows: number): void {
    this.session.resize(cols, rows);
    this.ingest({ type: 'resize', cols, rows });
  }

  /** End the agent (SIGHUP, as a closing terminal would; SIGKILL after `graceMs`). */
  async stop(graceMs = 3_000): Promise<void> {
    if (!this.exited) {
      const gone = new Promise<void>((resolve) => this.exitWaiters.push(resolve));
      this.session.kill('SIGHUP');
      const timer = setTimeout(() => this.session.kill('SIGKILL'), graceMs);
      await gone;
      clearTimeout(timer);
    }
    this.dispose();
  }

  dispose(): void {
    this.finish();
    this.session.dispose();
  }

  private tryInject(input: Parameters<typeof inject>[0]): Injection | null {
    try {
      return inject(input);
    } catch (error) {
      if (!(error instanceof InjectionUnavailable)) throw error;
      this.options.logger('warn', `tile ${this.id}: ${error.message}`);
      this.notice = error.message;
      return null;
    }
  }

  private watchForRefusal(refused: (rows: readonly string[]) => string | undefined): void {
    const watcher = new RowWatcher(this.session.screen);
    this.screenCheck = () => {
      if (watcher.changed().length === 0) return;
      const notice = refused(watcher.rows);
      if (!notice) return;
      this.notice = notice;
      this.options.logger('warn', `tile ${this.id}: ${notice}`);
      this.screenCheck = undefined;
    };
  }

  private hook(event: string, payload: Record<string, unknown>): void {
    // The agent reports: whatever it could have refused at start-up, it is past that.
    this.screenCheck = undefined;
    // Codex's turn-complete program arrives through the same relay, as event "notify".
    if (event === CODEX_NOTIFY_EVENT && this.profile.notify) this.ingest({ type: 'notify', payload });
    else this.ingest({ type: 'hook', event, payload });
    const next = this.injection?.transcriptFor?.(event, payload, this.tail !== null);
    if (next) this.follow(next);
  }

  /** Follow the agent's session log: from now on, or switch to another one (a /clear, a /new). */
  private follow(target: TranscriptTarget): void {
    if (this.finished) return;
    if (this.tail) return this.tail.switchTo(target.path);
    this.tail = new TranscriptTail({
      path: target.path,
      ...(target.fromStart === false ? { fromStart: false } : {}),
      onRecord: (record, path) => this.ingest({ type: 'transcript', path, record }),
      logger: this.options.logger,
    });
  }

  private ingest(evidence: Evidence): void {
    this.pipeline.ingest(evidence, this.t());
  }

  private effects(effects: Effect[]): void {
    for (const effect of effects) {
      if (effect.type === 'verdict') {
        for (const listener of this.changeListeners) listener({ tile: this, from: effect.from, verdict: effect.verdict });
      } else if (effect.type === 'ring') {
        for (const listener of this.ringListeners) listener(this, effect.state);
      } else {
        this.schedule(effect.t);
      }
    }
  }

  private schedule(at: number | null): void {
    if (this.wakeTimer) clearTimeout(this.wakeTimer);
    this.wakeTimer = undefined;
    if (at === null || this.exited) return;
    this.wakeTimer = setTimeout(() => this.pipeline.wake(at), Math.max(0, at - this.t()));
  }

  private finish(): void {
    if (this.finished) return;
    this.finished = true;
    if (this.wakeTimer) clearTimeout(this.wakeTimer);
    this.tail?.close();
    this.injection?.dispose();
    this.recorder?.close();
  }
}
