/**
 * The tile's state as the engine keeps it: the verdict it shows, with provenance, and the
 * bookkeeping the rules need (holds, gates, the quiet latch). Plain data, so a state can be
 * compared, logged and replayed.
 */
import { confidenceOf } from './signals.js';
import type { BlockedKind, Confidence, SignalType, SourceName } from './signals.js';
import type { Timing } from './timing.js';
import { DEFAULT_TIMING } from './timing.js';

export type TileStateName = 'starting' | 'working' | 'blocked' | 'done' | 'idle' | 'exited' | 'failed' | 'unknown';

export const TILE_STATES: readonly TileStateName[] = ['starting', 'working', 'blocked', 'done', 'idle', 'exited', 'failed', 'unknown'];

/** What a tile shows, and who decided it. */
export interface Verdict {
  state: TileStateName;
  /** blocked: permission, question, auth, other. */
  kind?: BlockedKind;
  /** The process ended (exited, or a command tile's done/failed): its code, signal, or why it
   * never started. */
  exit?: { code: number | null; signal: string | null; error?: string };
  source: SourceName;
  confidence: Confidence;
  reason: string;
  /** When the tile entered this state (ms on the tile's clock). */
  since: number;
  /** The sequence number of the signal that decided it. */
  seq: number;
}

/** What the screen (title or OSC 7501 status) reads right now. */
export type ScreenReading = 'none' | 'working' | 'rest' | 'unknown';

/** A verdict the engine is holding back until the rules let it go. */
export interface Hold {
  source: SourceName;
  reason: string;
  /** When the evidence arrived, and its sequence number: anything newer that matters cancels. */
  since: number;
  seq: number;
  /** The verdict's version when the hold began: if the verdict moves, the hold is stale. */
  verdictVersion: number;
  /** Not before this time (conflict window, title stabilisation, quiet after a gate). */
  notBefore: number;
  /** What the hold becomes when released by time alone (a banner always makes it a done). */
  to: 'done' | 'idle';
  /** True once background work held it back: it then needs the long quiet before release. */
  gated: boolean;
  /** When the gate was first seen empty after holding (the quiet is counted from here). */
  quietFrom: number | null;
  /** The gate was emptied by the agent's own record of its last background job's end, from an
   * agent that starts no turn then: only the conflict window is waited, not the quiet period. */
  settledByAgent?: true;
  /** A first-party turn end waits for the screen to read idle, or for the stuck-screen settle. */
  waitsForScreen: boolean;
  /** The turn ended with a prompt queued behind it: the agent goes straight on with that prompt
   * unless it took it into the turn that just ended. Held until that is known (or settled). */
  awaitsQueue: boolean;
}

export interface GateState {
  /** Subagents counted by SubagentStart, by agent id → when they started. */
  subagents: Record<string, number>;
  /** The latest declared background subagent count, and when it was declared. */
  declaredSubagents: { count: number; at: number };
  /** Declared running shells and other hook-less tasks, by id → when declared. */
  shells: Record<string, number>;
  /** OSC 7501 child records still open, by id → when opened. */
  children: Record<string, number>;
  /** Teammates: the declared names (may be empty when only a count is known), the declared count,
   * the distinct names that went idle since, and when teammate evidence was last seen. */
  teammates: { names: string[]; count: number; idle: string[]; at: number };
}

/** One line of the tile's "why?": a signal and what the engine made of it. */
export interface WhyEntry {
  t: number;
  seq: number;
  source: SourceName;
  signal: SignalType;
  note: string;
  /** The same user event this many times in a row (why-log.ts), the last at `lastT`. */
  count?: number;
  lastT?: number;
}

export interface EngineOptions {
  timing: Timing;
  /** The agent reports real prompts through hooks (UserPromptSubmit / BeforeAgent): only those lift
   * the quiet latch. Without hooks, the user's own submit does. */
  promptsFromHooks: boolean;
  /** How many "why?" entries a tile keeps. */
  whyDepth: number;
  /** The most OSC 7501 child records, counted subagents and declared background tasks the gate
   * tracks, each: a new one beyond that expires the oldest (noted in "why?"). Any program can print
   * child ids without end; bounded, each record costs the same. */
  maxTracked: number;
  /** The title's idle glyph after working means a finished turn. False where the agent shows the
   * same glyph at a permission prompt or after an error (Claude's ✳): the title then holds a done
   * only for the banner to confirm, and otherwise settles at idle, which never rings. */
  titleRestIsDone: boolean;
  /** The process's own exit is the outcome the user waits for (a plain command such as `npm
   * test`): it works from start to exit, then is done with status 0 and failed otherwise. Without
   * this, an exit is `exited`. */
  exitIsOutcome: boolean;
  /** The title working again after a blocked verdict means the user answered. For an agent that
   * reports no hook at the answer (Gemini approving a confirmation): the title is the only sign. */
  titleEndsBlocked: boolean;
  /** The tile runs its program on another machine over ssh: ssh's own exit status 255 means the
   * connection failed or dropped, which is never the program's outcome. */
  remote: boolean;
  /** Nothing will report the first prompt (a remote login shell, which belltower's shell
   * integration does not reach): idle from the start, until prompt marks say otherwise. */
  idleAtSpawn: boolean;
  /** The agent starts a turn of its own when background work it left running ends (Claude's task
   * notification): a gate that empties waits the quiet period for that turn. False (Codex): the
   * agent's own record of its last job's end is the end of the work, and the done follows it after
   * the conflict window; a gate emptied by a TTL still waits the quiet period. */
  backgroundEndWakesAgent: boolean;
}

/** A command running at a shell prompt (OSC 133 C … D). */
export interface RunningCommand {
  since: number;
  /** Its command line, when the shell said it. */
  text: string | null;
  /** When the user last dealt with it (its start, a line typed into it, an answer to its read of
   * the terminal, leaving its full screen): only the time it ran alone since then makes it long. */
  lastUser?: number;
  /** It sleeps reading the terminal (blocked: waiting for input). */
  waiting?: boolean;
  /** It shows a full screen of its own (an editor, a pager, top). */
  fullScreen?: boolean;
}

export interface EngineState {
  options: EngineOptions;
  verdict: Verdict;
  /** Counts verdict changes, so a hold can tell whether the state moved under it. */
  verdictVersion: number;
  /** The newest sequence number applied. */
  lastSeq: number;
  /** The sequence number of the newest status claim (anything that cancels a held verdict). */
  lastClaimSeq: number;
  /** What the newest first-party claim said: a banner is dropped while it says working. */
  firstPartyClaim: 'none' | 'working' | 'rest';
  /** Any first-party evidence seen: from then on the title decides nothing. */
  firstPartySeen: boolean;
  /** A real turn is running (a prompt was submitted and no end has been accepted since). */
  turnOpen: boolean;
  /** The last turn was interrupted and no turn started since: its own late end is no done. */
  interrupted: boolean;
  /** Prompts the agent reported (UserPromptSubmit) while a turn was running: queued behind it, not
   * yet started as a turn of their own nor taken into the running one. */
  queuedPrompts: number;
  /** /clear or /compact muted the screen sources, and no turn can end in done, until the next real
   * prompt. */
  latched: boolean;
  /** The screen's latest reading and whether the title showed a spinner since the last rest. */
  screen: ScreenReading;
  titleWorkedSinceRest: boolean;
  /** A banner's early done rang and first-party evidence may take it back: the real done that
   * follows in the same turn does not ring again. */
  rangEarly: boolean;
  /** The last accepted Stop-like turn end from hooks, for the duplicate window. */
  lastStopAt: number | null;
  gate: GateState;
  hold: Hold | null;
  /** The command running at a shell prompt, if any. */
  command: RunningCommand | null;
  /** The process has ended: what it says after that is late, not news. */
  ended: boolean;
  /** The time the engine has asked to be woken at, if any. */
  wakeAt: number | null;
  why: WhyEntry[];
}

export const DEFAULT_MAX_TRACKED = 64;

export function initialState(options: Partial<EngineOptions> = {}): EngineState {
  return {
    options: {
      timing: options.timing ?? { ...DEFAULT_TIMING },
      promptsFromHooks: options.promptsFromHooks ?? false,
      whyDepth: options.whyDepth ?? 16,
      maxTracked: options.maxTracked ?? DEFAULT_MAX_TRACKED,
      titleRestIsDone: options.titleRestIsDone ?? true,
      exitIsOutcome: options.exitIsOutcome ?? false,
      titleEndsBlocked: options.titleEndsBlocked ?? false,
      remote: options.remote ?? false,
      idleAtSpawn: options.idleAtSpawn ?? false,
      backgroundEndWakesAgent: options.backgroundEndWakesAgent ?? true,
    },
    verdict: { state: 'starting', source: 'process', confidence: 'first-party', reason: 'starting', since: 0, seq: 0 },
    verdictVersion: 0,
    lastSeq: 0,
    lastClaimSeq: 0,
    firstPartyClaim: 'none',
    firstPartySeen: false,
    turnOpen: false,
    interrupted: false,
    queuedPrompts: 0,
    latched: false,
    screen: 'none',
    titleWorkedSinceRest: false,
    rangEarly: false,
    lastStopAt: null,
    gate: {
      subagents: {},
      declaredSubagents: { count: 0, at: 0 },
      shells: {},
      children: {},
      teammates: { names: [], count: 0, idle: [], at: 0 },
    },
    hold: null,
    command: null,
    ended: false,
    wakeAt: null,
    why: [],
  };
}

/**
 * What a tile showed before belltower restarted, carried into the new run so that the user's
 * unseen news survives it: an unseen done or failed turn, or the outcome of a process that had
 * already ended (a finished command, shown with its last screen and not run again).
 */
export interface RestoredVerdict {
  state: 'done' | 'failed' | 'exited';
  reason: string;
  source: SourceName;
  exit?: Verdict['exit'];
  /** The process had ended: nothing it says after this is news (it is not running). */
  ended: boolean;
}

/**
 * The engine as it starts for a restored tile: showing the restored verdict from its first
 * instant, with no edge into it — so it does not ring again. What follows is judged by the usual
 * rules: an "at rest" from the resumed agent keeps a done (as it keeps any done), the user looking
 * at it makes it idle, a new turn makes it working.
 */
export function restoredState(options: Partial<EngineOptions>, restored: RestoredVerdict): EngineState {
  const state = initialState(options);
  return {
    ...state,
    verdict: {
      state: restored.state,
      ...(restored.exit ? { exit: restored.exit } : {}),
      source: restored.source,
      confidence: confidenceOf(restored.source),
      reason: `restored: ${restored.reason}`,
      since: 0,
      seq: 0,
    },
    ended: restored.ended,
  };
}
