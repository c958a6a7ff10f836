/**
 * An agent profile: what belltower knows about one kind of agent — which evidence it speaks and
 * how to read it. Adding an agent is adding a profile. Launch details (settings files, hook
 * injection) live beside each profile; this interface is what the verdict pipeline needs, the
 * same live and in replay.
 */
import type { NotificationRule } from '../sources/notification.js';
import type { SourceName, SourceSignal } from '../verdict/signals.js';

/** Reads an agent's session log one record at a time; the reader's state is plain data. */
export interface TranscriptReader<S = unknown> {
  initial(): S;
  read(state: S, record: unknown): { state: S; signals: SourceSignal[] };
  /** The record as a recording keeps it: what `read` looks at, never the conversation's text. */
  forRecording(record: unknown): unknown;
}

/** An agent's session log to follow, and whether what it holds already is news. */
export interface TranscriptTarget {
  path: string;
  /** false: only records appended from now on (a resumed session's history is not news). */
  fromStart?: boolean;
}

/** The log a SessionStart hook names (`transcript_path`): a resumed session's file holds its past
 * turns, so then only what is appended from now on is news. */
export function sessionStartTarget(payload: Record<string, unknown>): TranscriptTarget | undefined {
  const file = payload.transcript_path;
  return typeof file === 'string' && file !== '' ? { path: file, fromStart: payload.source !== 'resume' } : undefined;
}

export interface TitleReader {
  /** Classify one OSC 0/2 title: working, at rest, unknown, or no evidence at all. */
  classify(title: string): SourceSignal[];
  /** The title as a recording keeps it: one that classifies the same, without its free text. */
  forRecording(title: string): string;
}

/** `shell`: an interactive shell; `command`: any other command line (`npm test`). */
export type AgentName = 'claude' | 'codex' | 'gemini' | 'shell' | 'command';

/** The coding agents: a SPEC names them, and belltower gives each its hooks. */
export const CODING_AGENTS = ['claude', 'codex', 'gemini'] as const;
export type CodingAgent = (typeof CODING_AGENTS)[number];

export function isCodingAgent(name: string): name is CodingAgent {
  return (CODING_AGENTS as readonly string[]).includes(name);
}

export interface AgentProfile {
  name: AgentName;
  /** The evidence this agent speaks, for the README's table and for "why?". */
  evidence: readonly SourceName[];
  /** Real prompts are reported by hooks (UserPromptSubmit, BeforeAgent): only those lift the quiet
   * latch. Otherwise the user's own submit counts as the real prompt. */
  promptsFromHooks: boolean;
  /** Answer the OSC 7501 feature query (on by default; the agent then reports its own status). */
  answerPsp: boolean;
  title: TitleReader | null;
  /** The title's idle glyph after working is a finished turn (false: it also shows at prompts and
   * errors, so only a banner makes it a done). */
  titleRestIsDone: boolean;
  /** The title working again after a blocked verdict means the user answered (an agent that fires
   * no hook at the answer). */
  titleEndsBlocked: boolean;
  /** The agent starts a turn of its own when background work it left running ends (Claude's task
   * notification), so a done waits the quiet period after its gate empties. False where the
   * agent's record of its last job's end is the end of the work (Codex 0.171). */
  backgroundEndWakesAgent: boolean;
  /** Read the completion banner from rendered rows (Claude's `✻ Worked for 7s`). */
  banner: boolean;
  /** Listen to OSC 133 prompt marks (a shell, or a command that runs one). */
  promptMarks: boolean;
  /** The process's exit is the outcome: working from the start, done with 0, failed otherwise. */
  exitIsOutcome: boolean;
  /** Input starting with `/` is the agent's own slash command (/clear, /model): no turn of yours.
   * In a shell, `/usr/bin/make` is just a command. */
  slashCommands: boolean;
  /** What is typed goes into the agent's prompt box: a line sent (a reply, a broadcast) goes as one
   * bracketed paste where it asked for that. A shell's foreground program may read a line as keys
   * (vim's `:q`), so a shell gets keys. */
  promptBox: boolean;
  hooks: ((event: string, payload: Record<string, unknown>) => SourceSignal[]) | null;
  /** A hook payload as a recording keeps it (the fields `hooks` reads, no free text). */
  hooksForRecording: ((event: string, payload: Record<string, unknown>) => Record<string, unknown>) | null;
  transcript: TranscriptReader | null;
  notify: ((payload: Record<string, unknown>) => SourceSignal[]) | null;
  /** A notify payload as a recording keeps it. */
  notifyForRecording: ((payload: Record<string, unknown>) => Record<string, unknown>) | null;
  /** What the agent's in-band desktop notifications (OSC 9, 777, 99) mean. */
  notifications: readonly NotificationRule[];
}
