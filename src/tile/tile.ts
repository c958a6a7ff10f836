/**
 * A live tile: owns one agent session (pty + screen), its hook registration and transcript tail,
 * its recording, and the wake-up timer of its verdict pipeline. Everything the agent says flows
 * one way: evidence → pipeline → verdict effects → listeners.
 */
import type { LaunchSpec } from '../agents/launch-spec.js';
import type { AgentProfile } from '../agents/profile.js';
import { profileFor } from '../agents/registry.js';
import type { TileInfo } from '../control/protocol.js';
import type { Logger } from '../platform/logger.js';
import type { Evidence } from '../record/format.js';
import { Recorder } from '../record/recorder.js';
import { Session } from '../session/session.js';
import type { HookServer } from '../sources/hooks/hook-server.js';
import { claudeTranscriptSwitch } from '../sources/hooks/claude-hooks.js';
import { TranscriptTail } from '../sources/transcript/tail.js';
import { CODEX_NOTIFY_EVENT } from '../agents/codex-injection.js';
import type { Effect } from '../verdict/effects.js';
import type { EngineState, Verdict } from '../verdict/state.js';
import type { Timing } from '../verdict/timing.js';
import { inject, InjectionUnavailable, injects } from './agent-injection.js';
import type { Injection } from './agent-injection.js';
import { createBannerReader } from './banner-reader.js';
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
  /** Why the agent reports nothing first-hand here, when belltower could not inject its hooks. */
  private noHooks: string | undefined;
  private readonly tail: TranscriptTail | null;
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
    this.session.onChunkParsed(() => this.pipeline.ptyParsed());
    this.session.onExit((info) => {
      this.ingest({ type: 'exit', code: info.code ?? null, signal: info.signal ?? null, ...(info.error ? { error: info.error } : {}) });
      this.exited = true;
      this.finish();
      for (const waiter of this.exitWaiters.splice(0)) waiter();
    });

    this.tail =
      injection?.transcriptPath !== undefined
        ? new TranscriptTail({
            path: injection.transcriptPath,
            onRecord: (record, path) => this.ingest({ type: 'transcript', path, record }),
            logger: log,
          })
        : null;
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
      ...(this.noHooks ? { notice: this.noHooks } : {}),
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

  /** Type into the agent. With `enter`, the text is submitted: that is a prompt (never recorded). */
  send(text: string, enter: boolean): void {
    if (this.exited) return;
    if (text.length > 0) this.session.write(text);
    if (enter) {
      // TUIs treat a burst ending in CR as a paste; the Enter goes separately, after the text.
      setTimeout(() => {
        if (this.exited) return;
        this.session.write('\r');
        this.ingest(text.trimStart().startsWith('/') ? { type: 'prompt', local: true } : { type: 'prompt' });
      }, text.length > 0 ? 150 : 0);
    }
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
      this.noHooks = error.message;
      return null;
    }
  }

  private hook(event: string, payload: Record<string, unknown>): void {
    // Codex's turn-complete program arrives through the same relay, as event "notify".
    if (event === CODEX_NOTIFY_EVENT && this.profile.notify) return this.ingest({ type: 'notify', payload });
    this.ingest({ type: 'hook', event, payload });
    const next = claudeTranscriptSwitch(event, payload);
    if (next && this.tail) this.tail.switchTo(next);
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
