/** A small driver for reducer scenarios: signals at times, then what the tile showed and rang. */
import { advance, initialState, restoredState, step } from '../../src/verdict/index.js';
import type { Effect, EngineOptions, EngineState, RestoredVerdict, SignalBody, SourceName, TileStateName, Timing } from '../../src/verdict/index.js';
import { DEFAULT_TIMING } from '../../src/verdict/index.js';

export interface ScenarioOptions {
  promptsFromHooks?: boolean;
  titleRestIsDone?: boolean;
  exitIsOutcome?: boolean;
  titleEndsBlocked?: boolean;
  /** The tile runs over ssh. */
  remote?: boolean;
  idleAtSpawn?: boolean;
  /** The agent starts a turn of its own when background work it left running ends (Claude). */
  backgroundEndWakesAgent?: boolean;
  timing?: Partial<Timing>;
  /** Start as a restored tile showing this verdict. */
  restored?: RestoredVerdict;
}

export class Scenario {
  state: EngineState;
  readonly effects: (Effect & { at: number })[] = [];
  private seq = 0;
  private clock = 0;

  constructor(options: ScenarioOptions = {}) {
    const engine: Partial<EngineOptions> = {
      timing: { ...DEFAULT_TIMING, ...options.timing },
      promptsFromHooks: options.promptsFromHooks ?? true,
      titleRestIsDone: options.titleRestIsDone ?? true,
      exitIsOutcome: options.exitIsOutcome ?? false,
      titleEndsBlocked: options.titleEndsBlocked ?? false,
      remote: options.remote ?? false,
      idleAtSpawn: options.idleAtSpawn ?? false,
      backgroundEndWakesAgent: options.backgroundEndWakesAgent ?? true,
    };
    this.state = options.restored ? restoredState(engine, options.restored) : initialState(engine);
  }

  /** Feed a signal at time t (ms). Sequence numbers follow the call order unless given. */
  at(t: number, source: SourceName, body: SignalBody, seq?: number): this {
    this.seq = seq ?? this.seq + 1;
    this.clock = Math.max(this.clock, t);
    const result = step(this.state, { ...body, source, t, seq: this.seq });
    this.record(result.effects, t);
    this.state = result.state;
    return this;
  }

  /** Let time pass to t, delivering the wake-ups the engine asked for. */
  until(t: number): this {
    const result = advance(this.state, t);
    this.record(result.effects, t);
    this.state = result.state;
    this.clock = Math.max(this.clock, t);
    return this;
  }

  get now(): TileStateName {
    return this.state.verdict.state;
  }

  /** The states the tile moved through, in order (the first one it left is not listed). */
  get states(): TileStateName[] {
    return this.effects.flatMap((e) => (e.type === 'verdict' ? [e.to] : []));
  }

  get rings(): string[] {
    return this.effects.flatMap((e) => (e.type === 'ring' ? [e.state] : []));
  }

  count(state: TileStateName): number {
    return this.states.filter((s) => s === state).length;
  }

  /** When (ms) the tile entered a state, every time it did. */
  times(state: TileStateName): number[] {
    return this.effects.flatMap((e) => (e.type === 'verdict' && e.to === state ? [e.verdict.since] : []));
  }

  private record(effects: Effect[], fallback: number): void {
    for (const effect of effects) {
      const at = effect.type === 'verdict' || effect.type === 'ring' ? effect.verdict.since : fallback;
      this.effects.push({ ...effect, at });
    }
  }
}

export const prompt = { type: 'turn-start', real: true } as const;
export const stop = (background: { id: string; type: 'shell' | 'subagent' | 'teammate' | 'other'; name?: string }[] = []): SignalBody => ({
  type: 'turn-end',
  background,
});
