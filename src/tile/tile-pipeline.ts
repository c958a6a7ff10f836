/**
 * One tile's verdict pipeline: evidence in arrival order → sources → engine → effects, with every
 * evidence and verdict line recorded as it is applied. The same pipeline runs live and in replay.
 *
 * Output is parsed asynchronously by the screen, so a pty chunk holds its place in the queue until
 * its parse is done: a hook that arrives meanwhile is applied after the OSCs and banner that the
 * chunk carried, as replay will apply them. Recording order is application order.
 */
import type { AgentProfile } from '../agents/profile.js';
import type { Evidence } from '../record/format.js';
import type { Recorder } from '../record/recorder.js';
import type { Effect } from '../verdict/effects.js';
import { advance, step } from '../verdict/run.js';
import { stampSignal, type LoginPrompt, type SourceSignal } from '../verdict/signals.js';
import { initialState, restoredState } from '../verdict/state.js';
import type { EngineState, RestoredVerdict } from '../verdict/state.js';
import type { Timing } from '../verdict/timing.js';
import { initialInterpreter, interpret } from './interpret.js';
import type { InterpreterState } from './interpret.js';

export interface ScreenEvidence {
  code: number;
  payload: string;
}

export interface PipelineOptions {
  profile: AgentProfile;
  timing: Timing;
  /** Override the profile: false when the agent runs without belltower's hooks. */
  promptsFromHooks?: boolean;
  /** The program runs over ssh (EngineOptions.remote). */
  remote?: boolean;
  recorder?: Recorder | null;
  /** Banners visible in rows changed since the last call (read right after a chunk's parse). */
  readBanners?: () => string[];
  /** A remote tile's ssh login question when it changed (undefined: no change), read with the banners. */
  readLogin?: () => LoginPrompt | null | undefined;
  /** Replay of a recording with pty lines: its osc and banner lines are derived from the output,
   * so the recorded ones are compared, not applied. */
  screenDerived?: boolean;
  onEffects?: (effects: Effect[], state: EngineState) => void;
  /** Start as a restored tile showing this verdict (no edge into it, so no ring). */
  restored?: RestoredVerdict;
  /** Evidence that could not be read, for the log file. */
  onProblem?: (problem: string) => void;
  /** What a recording keeps of evidence (src/record/recorded-form.ts). The engine reads the same
   * form that is recorded, so that replay reproduces every verdict, reasons included. */
  recordedForm?: (evidence: Evidence) => Evidence;
  /** The wall-clock time (ms since 1970) of the tile's clock's zero, where records carry their own
   * time: a record's signal is then placed when the agent wrote it (`stampSignal`). Absent: every
   * signal is as new as its reading. */
  epoch?: number;
}

type Item =
  | { kind: 'evidence'; evidence: Evidence; t: number }
  | { kind: 'pty'; data: string; t: number; oscs: ScreenEvidence[]; banners: string[]; login?: LoginPrompt | null; parsed: boolean }
  | { kind: 'wake'; t: number };

export class TilePipeline {
  private engine: EngineState;
  private interpreter: InterpreterState;
  private readonly queue: Item[] = [];
  private signalSeq = 0;
  /** The sequence number of the last prompt the user submitted (0: none yet). */
  private promptSeq = 0;
  private lastT = 0;
  private pumping = false;

  constructor(private readonly options: PipelineOptions) {
    const engine = {
      timing: options.timing,
      promptsFromHooks: options.promptsFromHooks ?? options.profile.promptsFromHooks,
      titleRestIsDone: options.profile.titleRestIsDone,
      exitIsOutcome: options.profile.exitIsOutcome,
      titleEndsBlocked: options.profile.titleEndsBlocked,
      backgroundEndWakesAgent: options.profile.backgroundEndWakesAgent,
      remote: options.remote ?? false,
      // A remote login shell has no prompt marks from belltower: nothing else would say it is up.
      idleAtSpawn: options.profile.name === 'shell' && options.remote === true,
    };
    this.engine = options.restored ? restoredState(engine, options.restored) : initialState(engine);
    this.interpreter = initialInterpreter(options.profile);
  }

  get state(): EngineState {
    return this.engine;
  }

  /** Evidence from anywhere but the screen (hooks, transcript, notify, user, process). */
  ingest(evidence: Evidence, t: number): void {
    this.queue.push({ kind: 'evidence', evidence, t });
    this.pump();
  }

  /** A pty chunk arrived and was handed to the screen; `ptyParsed` follows when it is parsed. */
  ptyReceived(data: string, t: number): void {
    this.queue.push({ kind: 'pty', data, t, oscs: [], banners: [], parsed: false });
  }

  /** The screen parsed an OSC: it belongs to the oldest chunk still being parsed. */
  oscParsed(code: number, payload: string): void {
    const chunk = this.parsing();
    if (chunk) chunk.oscs.push({ code, payload });
    else this.ingest({ type: 'osc', code, payload }, this.lastT);
  }

  /** The oldest chunk being parsed is done: read its banners now, while the screen shows them. */
  ptyParsed(): void {
    const chunk = this.parsing();
    if (!chunk) return;
    chunk.banners = this.options.readBanners?.() ?? [];
    const login = this.options.readLogin?.();
    if (login !== undefined) chunk.login = login;
    chunk.parsed = true;
    this.pump();
  }

  /** A wake-up the engine asked for came due. */
  wake(t: number): void {
    this.queue.push({ kind: 'wake', t });
    this.pump();
  }

  /**
   * The tile is over: apply what is waiting (output still being parsed never will be now: what it
   * carried so far counts), let the engine's time reach `t` as replay will, and end the recording.
   */
  finish(t: number): void {
    for (const item of this.queue) if (item.kind === 'pty') item.parsed = true;
    this.pump();
    const at = Math.max(this.lastT, t);
    this.lastT = at;
    this.emit(advance(this.engine, at));
    this.options.recorder?.end(at);
  }

  /** True while evidence waits (a chunk still parsing). */
  get pending(): boolean {
    return this.queue.length > 0;
  }

  /** The last prompt submitted is not answered by the verdict yet: it waits behind output still
   * being parsed, or no verdict was decided after it (what the tile shows is from before it). */
  get promptUnanswered(): boolean {
    if (this.queue.some((item) => item.kind === 'evidence' && item.evidence.type === 'prompt')) return true;
    return this.promptSeq > 0 && this.engine.verdict.seq <= this.promptSeq;
  }

  private parsing(): Extract<Item, { kind: 'pty' }> | undefined {
    for (const item of this.queue) if (item.kind === 'pty' && !item.parsed) return item;
    return undefined;
  }

  private pump(): void {
    if (this.pumping) return;
    this.pumping = true;
    try {
      for (let item = this.queue[0]; item && (item.kind !== 'pty' || item.parsed); item = this.queue[0]) {
        this.queue.shift();
        this.process(item);
      }
    } finally {
      this.pumping = false;
    }
  }

  private process(item: Item): void {
    const t = Math.max(this.lastT, item.t);
    this.lastT = t;
    // Time passes for the engine before anything at `t` is recorded or applied, even evidence that
    // says nothing: wake-ups due by then land first, and the file's times stay in order.
    this.emit(advance(this.engine, item.kind === 'wake' ? item.t : t));
    switch (item.kind) {
      case 'wake':
        return;
      case 'pty':
        this.options.recorder?.evidence({ type: 'pty', data: item.data }, t);
        for (const osc of item.oscs) this.apply({ type: 'osc', code: osc.code, payload: osc.payload }, t);
        for (const text of item.banners) this.apply({ type: 'banner', text }, t);
        if (item.login !== undefined) this.apply({ type: 'login', prompt: item.login }, t);
        return;
      case 'evidence': {
        const derived = item.evidence.type === 'osc' || item.evidence.type === 'banner' || item.evidence.type === 'login';
        if (derived && this.options.screenDerived) return;
        return this.apply(item.evidence, t);
      }
    }
  }

  private apply(received: Evidence, t: number): void {
    const evidence = this.options.recordedForm?.(received) ?? received;
    this.options.recorder?.evidence(evidence, t);
    const read = interpret(this.options.profile, this.interpreter, evidence);
    this.interpreter = read.state;
    if (read.problem) this.options.onProblem?.(read.problem);
    for (const signal of read.signals) this.signal(signal, t);
  }

  private signal(signal: SourceSignal, t: number): void {
    this.signalSeq += 1;
    if (signal.type === 'prompt') this.promptSeq = this.signalSeq;
    this.emit(step(this.engine, stampSignal(signal, t, this.signalSeq, this.options.epoch)));
  }

  private emit(result: { state: EngineState; effects: Effect[] }): void {
    this.engine = result.state;
    if (result.effects.length === 0) return;
    for (const effect of result.effects) {
      if (effect.type !== 'verdict') continue;
      const v = effect.verdict;
      this.options.recorder?.verdict({ from: effect.from, to: effect.to, source: v.source, reason: v.reason, ...(v.kind ? { kind: v.kind } : {}) }, v.since);
    }
    this.options.onEffects?.(result.effects, this.engine);
  }
}
