/**
 * Signals: typed evidence, the only input of the verdict engine.
 *
 * A source (title, psp, shell, banner, hooks, transcript, process) turns raw evidence into signals and
 * never decides a tile's state. Every signal carries the source it came from, the time it was
 * observed (`t`, milliseconds on the tile's clock) and a sequence number (`seq`, strictly
 * increasing per tile: the order of truth when two signals share a millisecond).
 */

/** Where a piece of evidence came from (recordings and the workspace state name them too). */
export const SOURCE_NAMES = [
  'hook', // the agent's own hook calls (HTTP or the command relay)
  'psp', // OSC 7501, the Program Status Protocol
  'shell', // OSC 133 prompt marks: shell integration, or any program that prints them
  'transcript', // the agent's own session log
  'notify', // the agent's turn-complete callback (Codex notify)
  'notification', // a desktop notification the agent printed in-band (OSC 9, 777, 99)
  'title', // OSC 0/2 title glyphs
  'banner', // the completion banner's shape on rendered rows
  'process', // spawn, exit code, signal
  'user', // what the user did in belltower (submitted input, looked at the tile)
  'engine', // the engine's own timers (a held verdict released, a gate expired)
  'ssh', // ssh's own login questions, on the row the cursor waits on (a remote tile)
] as const;
export type SourceName = (typeof SOURCE_NAMES)[number];

/** How much a verdict can be trusted, by the kind of source that decided it. */
export type Confidence = 'first-party' | 'fallback' | 'accelerator';

export function confidenceOf(source: SourceName): Confidence {
  switch (source) {
    case 'title':
    case 'ssh':
      return 'fallback';
    case 'banner':
      return 'accelerator';
    default:
      return 'first-party';
  }
}

/** First-party sources are the agent speaking for itself (DESIGN: precedence). */
export function isFirstParty(source: SourceName): boolean {
  return source === 'hook' || source === 'psp' || source === 'shell' || source === 'transcript' || source === 'notify' || source === 'notification';
}

/** A background task the agent declared on Stop / SubagentStop (Claude's `background_tasks`). */
export interface BackgroundTask {
  id: string;
  type: 'shell' | 'subagent' | 'teammate' | 'other';
  /** A teammate's or agent's name, when the agent gives one. */
  name?: string;
}

export type BlockedKind = 'permission' | 'question' | 'auth' | 'input' | 'other';

/** ssh's exit status for its own errors (ssh(1): "or 255 if an error occurred"). */
export const SSH_FAILED = 255;

/** Over ssh, an end that is the connection's (it failed or dropped), not the remote program's:
 * ssh's 255, or ssh itself killed by a signal (the remote program's own signal comes back as an
 * exit status, never as ssh's: a `killed by SIGKILL` was the local ssh killed — issue 28), unless
 * belltower ended it or it never started. */
export function sshConnectionLost(end: { code: number | null; signal?: string | null; closed?: boolean; error?: string }): boolean {
  return (end.code === SSH_FAILED || (end.signal ?? null) !== null) && !end.closed && !end.error;
}

/** The remote shell's "not found" (127) for a remote agent or shell: its program is not on the PATH
 * that a non-interactive ssh command gets (the README's "Remote agents" says where to set it). */
export function remoteNotFound(end: { code: number | null; closed?: boolean; error?: string }): boolean {
  return end.code === 127 && !end.closed && !end.error;
}

/** A question ssh asks while it logs in (src/sources/ssh-login.ts). */
export const LOGIN_PROMPTS = ['host-key', 'password', 'passphrase', 'code'] as const;
export type LoginPrompt = (typeof LOGIN_PROMPTS)[number];

/** The body of a signal: what the evidence means, without the bookkeeping. */
export type SignalBody =
  /** A turn began: UserPromptSubmit, a transcript user prompt, Codex task_started, Gemini BeforeAgent.
   * `real` is false for prompts the agent made itself (a `<task-notification>` from a background task).
   * `begins`: the agent reports the prompt as it starts the turn on it, never as it is typed (Gemini
   * fires BeforeAgent when the prompt goes to the model; a message typed mid-turn waits in its own
   * queue until then), so it is never queued behind a running turn: a turn still open then ended
   * without a word. */
  | { type: 'turn-start'; real: boolean; begins?: true }
  /** The agent is working: a tool started or finished, OSC 7501 working, a title spinner. */
  | { type: 'working'; detail?: string }
  /** The agent's main loop stopped: Stop, transcript turn_duration, OSC 7501 done, Codex notify,
   * Gemini AfterAgent. Background work it declares (or counts) gates the done. */
  | {
      type: 'turn-end';
      /** The declared background tasks still running, when the evidence carries the list
       * (Claude's Stop always does; absent means "this evidence does not say"). */
      background?: BackgroundTask[];
      /** A declared count of pending background agents without ids (transcript). */
      pendingAgents?: number;
      detail?: string;
    }
  /** At rest without claiming a finished turn: OSC 7501 idle, the title's idle glyph. */
  | { type: 'at-rest'; detail?: string }
  /** Needs the user: a permission request, a question, a dialog. */
  | {
      type: 'blocked';
      kind?: BlockedKind;
      detail?: string;
      /** Only a reminder of a request (Claude's Notification, seconds after its dialog): it says
       * nothing new about a request already standing. */
      reminder?: true;
    }
  /** The turn ended in an agent error: StopFailure, OSC 7501 error. */
  | { type: 'failed'; detail?: string }
  /** A prompt typed while the agent worked was taken into the running turn instead of starting a
   * turn of its own (Claude's `queued_command` transcript attachment). */
  | { type: 'queue-absorbed' }
  /** The user interrupted the turn (transcript "[Request interrupted by user]", Codex turn_aborted). */
  | { type: 'interrupted' }
  /** /clear or /compact began or ended: SessionEnd(clear), PreCompact, SessionStart(clear|compact),
   * PostCompact. `phase: 'begin'` while the compaction model call runs, `'end'` once at rest. */
  | { type: 'quiet-latch'; why: 'clear' | 'compact' | 'command'; phase: 'begin' | 'end' }
  /** A subagent started or stopped, by agent id. A stop may carry the declared background list. */
  | { type: 'subagent-start'; id: string }
  | { type: 'subagent-stop'; id: string; background?: BackgroundTask[] }
  /** A teammate went idle (drained by count, clamped by known names). */
  | { type: 'teammate-idle'; name: string }
  /** An OSC 7501 child record opened (`id=…` with a live state) or cleared (`state=clear:id=…`). */
  | { type: 'child'; id: string; open: boolean; detail?: string }
  /** The completion banner's shape appeared on the screen. */
  | { type: 'banner'; text: string }
  /** A title glyph belltower does not know: the title says nothing it can trust. */
  | { type: 'unknown'; detail?: string }
  /** The user submitted input in belltower (never what was typed). `local` when it was a slash
   * command (/clear, /compact, /model…): the agent handles it itself, it starts no turn of yours. */
  | { type: 'prompt'; local?: boolean }
  /** The user looked at the tile: an unseen done becomes idle. */
  | { type: 'seen' }
  /** A command began at a shell prompt (OSC 133 C), with its command line when the shell gives it. */
  | { type: 'command-start'; command?: string }
  /** The command finished (OSC 133 D), with its exit status when the shell gives it. */
  | { type: 'command-end'; code: number | null }
  /** What runs in the foreground of a shell tile's terminal while a command runs (a probe of the
   * process table): whether it sleeps reading the terminal, and whether it shows a full screen of
   * its own (the alternate screen). */
  | { type: 'foreground'; reading: boolean; fullScreen: boolean }
  /** The process started. */
  | { type: 'spawned' }
  /** ssh asks a login question (a host key, a password…), or (null) no longer does. */
  | { type: 'login'; prompt: LoginPrompt | null }
  /** The process ended, or never started (`error` holds why). `closed`: belltower ended it (the
   * user closed the tile or quit), so its code is no verdict on the work. `remaining`: processes
   * of the tile still running when the leader ended. `detached`: processes that left the tile's
   * session (daemons) and run on. */
  | { type: 'exit'; code: number | null; signal: string | null; error?: string; closed?: boolean; remaining?: number; detached?: number }
  /** The session ended in the agent's own words (SessionEnd other than clear). */
  | { type: 'session-end'; reason: string }
  /** A wake-up the engine asked for (`wakeAt`). Carries no evidence. */
  | { type: 'wake' };

export type SignalType = SignalBody['type'];

/** A signal: its meaning, where it came from, when, and its place in the order of truth. */
export type Signal = SignalBody & {
  source: SourceName;
  /** Milliseconds on the tile's clock (since the recording started): when belltower read it. */
  t: number;
  /** Strictly increasing per tile; orders signals that share a millisecond. */
  seq: number;
  /** When the agent wrote the record this came from, on the tile's clock (≤ t), when the record
   * says so: a log is read after it is written, sometimes after newer evidence from a live channel
   * (OSC 7501, a hook). Absent for live evidence, which is read as it is produced. */
  producedAt?: number;
};

/** What a source hands over before the session stamps `t` and `seq`. `wall`: when the agent wrote
 * the record, in ms since the Unix epoch, from the record's own timestamp; the stamping turns it
 * into `producedAt` on the tile's clock (`wall − the tile's epoch`, at most `t`). */
export type SourceSignal = SignalBody & { source: SourceName; wall?: number };

/**
 * A source's signal stamped for the engine: read at `t` with sequence number `seq`. A record's own
 * time (`wall`) becomes `producedAt` on the tile's clock, given the tile's epoch (ms since the Unix
 * epoch at its clock's zero: the recording header's `startedAt`); never after `t`, so a clock step
 * cannot put a record in the future.
 */
export function stampSignal(signal: SourceSignal, t: number, seq: number, epoch?: number): Signal {
  const { wall, ...rest } = signal;
  // Dropping one optional field keeps each member of the union as it was.
  const body = rest as SignalBody & { source: SourceName };
  if (wall === undefined || epoch === undefined || !Number.isFinite(wall)) return { ...body, t, seq };
  return { ...body, t, seq, producedAt: Math.min(t, wall - epoch) };
}
