/**
 * A live tile's pipeline: each piece of evidence, once, to the derivations (derived/: words,
 * facts, conversation, folder) and to the TilePipeline (the same as replay's: sources → engine →
 * recording), and the timer of the wake-ups its engine asks for. Owns the timer and the recording
 * file. Verdict and ring effects go on to the tile, in the order the engine made them; wake-ups
 * stay here.
 */
import type { AgentProfile } from '../agents/profile.js';
import type { ConversationState } from './derived/conversation.js';
import { derive, initialDerived } from './derived/derived.js';
import type { Derived } from './derived/derived.js';
import type { Evidence } from '../record/format.js';
import { recordedForm } from '../record/recorded-form.js';
import { Recorder } from '../record/recorder.js';
import type { Session } from '../session/session.js';
import { MAX_DURATION_MS } from '../verdict/duration.js';
import type { Effect } from '../verdict/effects.js';
import type { EngineState } from '../verdict/state.js';
import { createBannerReader } from './banner-reader.js';
import { ForegroundWatch } from './foreground-watch.js';
import { createLoginReader } from './login-reader.js';
import { TilePipeline } from './tile-pipeline.js';
import type { TileSetup } from './tile-options.js';

/** The recording of a tile, when it asks for one: opened before its program starts, so a file
 * that cannot be written stops the tile before anything runs. */
export function openRecording(options: TileSetup, how: { profile: AgentProfile; startedAt: number; name: string; answerPsp: boolean; hooksOn: boolean }): Recorder | null {
  if (!options.recordPath || options.restored?.finished) return null;
  const { restored, spec } = options;
  return new Recorder(
    options.recordPath,
    {
      agent: how.profile.name,
      cols: options.cols,
      rows: options.rows,
      ...(options.agentVersion ? { agentVersion: options.agentVersion } : {}),
      startedAt: new Date(how.startedAt).toISOString(),
      timing: { ...options.timing },
      name: how.name,
      psp: how.answerPsp,
      hooks: how.hooksOn,
      ...(spec.remote ? { remote: spec.remote.host } : {}),
      ...(options.recordText ? { text: true } : {}),
      ...(restored?.verdict ? { restored: restored.verdict } : {}),
    },
    { captureOutput: options.captureOutput ?? false },
  );
}

export interface LivePipelineOptions {
  setup: TileSetup;
  profile: AgentProfile;
  session: Session;
  recorder: Recorder | null;
  /** Hooks were injected (the quiet latch waits for a hook prompt only then). */
  hooksOn: boolean;
  /** The session shows a screen from before belltower restarted. */
  showingRestored: boolean;
  /** The conversation as launched. */
  conversation: ConversationState;
  /** The tile's clock: milliseconds since it started. */
  t(): number;
  /** When that clock started, in wall-clock time, if it is the wall clock (TilePipeline's epoch). */
  epoch?: number;
  /** The program wrote (before the chunk goes to the engine). */
  onOutput(): void;
  /** The screen parsed a chunk (after the engine had its turn with it). */
  onParsed(): void;
  onEffect(effect: Exclude<Effect, { type: 'wakeAt' }>): void;
  onProblem(problem: string): void;
}

export class LivePipeline {
  private readonly pipeline: TilePipeline;
  private wakeTimer: NodeJS.Timeout | undefined;
  private stopped = false;
  private known: Derived;
  private foreground: ForegroundWatch | null = null;

  constructor(private readonly options: LivePipelineOptions) {
    const { setup, profile, session, recorder } = options;
    this.known = initialDerived(options.conversation);
    const remote = setup.spec.remote !== undefined;
    const readBanners = profile.banner ? createBannerReader(session.screen) : () => [];
    // The old screen's banners are history: the reader takes them as seen before the program speaks.
    if (options.showingRestored) void session.restored.then(() => readBanners());
    this.pipeline = new TilePipeline({
      profile,
      timing: setup.timing,
      ...(setup.restored?.verdict ? { restored: setup.restored.verdict } : {}),
      promptsFromHooks: profile.promptsFromHooks && options.hooksOn,
      remote,
      recorder,
      ...(recorder && !setup.recordText ? { recordedForm: recordedForm(profile, { rawOsc: setup.captureOutput ?? false }) } : {}),
      readBanners,
      ...(remote ? { readLogin: createLoginReader(session.screen) } : {}),
      ...(options.epoch !== undefined ? { epoch: options.epoch } : {}),
      onEffects: (effects) => {
        for (const effect of effects) {
          if (effect.type === 'wakeAt') this.schedule(effect.t);
          // The foreground is watched only while a command runs: an idle shell wakes nothing.
          if (effect.type === 'verdict') this.foreground?.sync();
          if (effect.type !== 'wakeAt') options.onEffect(effect);
        }
      },
      onProblem: options.onProblem,
    });
    session.onOutput((data) => {
      options.onOutput();
      this.pipeline.ptyReceived(data, options.t());
    });
    // The derivations read an OSC as it is parsed; the engine, in its chunk's turn.
    session.onOsc((code, payload) => {
      this.derive({ type: 'osc', code, payload });
      this.pipeline.oscParsed(code, payload);
    });
    session.onChunkParsed(() => {
      this.pipeline.ptyParsed();
      options.onParsed();
    });
  }

  get state(): EngineState {
    return this.pipeline.state;
  }

  /** The last prompt submitted is not answered by the verdict yet (TilePipeline.promptUnanswered). */
  get promptUnanswered(): boolean {
    return this.pipeline.promptUnanswered;
  }

  /** What the evidence so far says beside the verdict. */
  get derived(): Derived {
    return this.known;
  }

  /** Evidence from anywhere but the screen (hooks, transcript, the user, the process). */
  ingest(evidence: Evidence): void {
    this.derive(evidence);
    this.pipeline.ingest(evidence, this.options.t());
  }

  /** A shell's command asleep reading the terminal waits for the user; a full screen is theirs. */
  watchForeground(shellPid: number, exited: () => boolean): void {
    const { screen } = this.options.session;
    this.foreground = new ForegroundWatch({
      shellPid,
      busy: () => !exited() && this.pipeline.state.command !== null,
      fullScreen: () => screen.activeBuffer === 'alternate',
      onChange: (reading, fullScreen) => this.ingest({ type: 'foreground', reading, fullScreen }),
    });
  }

  /** No more wake-ups or foreground reads: the tile has exited or is being freed. */
  stop(): void {
    this.stopped = true;
    if (this.wakeTimer) clearTimeout(this.wakeTimer);
    this.foreground?.stop();
  }

  /** Let the engine's time reach now, and end the recording (its end line) and close it. */
  finish(): void {
    this.pipeline.finish(this.options.t());
    this.options.recorder?.close();
  }

  private derive(evidence: Evidence): void {
    const context = { agent: this.options.profile.name, remote: this.options.setup.spec.remote !== undefined, state: this.pipeline.state.verdict.state };
    this.known = derive(this.known, evidence, context);
  }

  private schedule(at: number | null): void {
    if (this.wakeTimer) clearTimeout(this.wakeTimer);
    this.wakeTimer = undefined;
    if (at === null || this.stopped) return;
    // A timer holds at most MAX_DURATION_MS; a wake-up further away re-arms until it is due.
    const delay = Math.max(0, at - this.options.t());
    if (delay > MAX_DURATION_MS) this.wakeTimer = setTimeout(() => this.schedule(at), MAX_DURATION_MS);
    else this.wakeTimer = setTimeout(() => this.pipeline.wake(at), delay);
  }
}
