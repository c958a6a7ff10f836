/**
 * Claude's transcript as a source: a TranscriptTail, the pure reader's state, and the quiet timer
 * that settles an end_turn in transcripts without turn_duration markers. Owns the tail (a watcher)
 * and one timer; the meaning stays in claude-transcript.ts.
 *
 * Replay reproduces the quiet rule from record times: a quiet call falls `quietMs` after a
 * record when no other record follows within that time.
 */
import type { Logger } from '../../platform/logger.js';
import type { SourceSignal } from '../../verdict/signals.js';
import { INITIAL_CLAUDE_TRANSCRIPT, claudeTranscriptQuiet, readClaudeRecord, type ClaudeTranscriptState } from './claude-transcript.js';
import { TranscriptTail } from './tail.js';

export const DEFAULT_TRANSCRIPT_QUIET_MS = 2_000;

export interface ClaudeTranscriptSourceOptions {
  path: string;
  /** Each raw record as read (for the recorder), before its meaning. */
  onRecord?: (record: unknown, path: string) => void;
  /** The signals a record (or a quiet spell) means; never called with an empty list. */
  onSignals: (signals: SourceSignal[]) => void;
  logger?: Logger;
  /** How long the file must stay quiet before an unsettled end_turn counts. */
  quietMs?: number;
  /** false for a resumed session: its history is not news. */
  fromStart?: boolean;
}

export class ClaudeTranscriptSource {
  private state: ClaudeTranscriptState = INITIAL_CLAUDE_TRANSCRIPT;
  /** The file the state belongs to. */
  private current: string | undefined;
  private quietTimer: NodeJS.Timeout | undefined;
  private readonly tail: TranscriptTail;
  private readonly quietMs: number;

  constructor(private readonly options: ClaudeTranscriptSourceOptions) {
    this.quietMs = options.quietMs ?? DEFAULT_TRANSCRIPT_QUIET_MS;
    this.tail = new TranscriptTail({
      path: options.path,
      logger: options.logger,
      fromStart: options.fromStart,
      onRecord: (record, path) => this.onRecord(record, path),
    });
  }

  get path(): string {
    return this.tail.path;
  }

  /** /clear started a new transcript: follow it with a fresh reading. */
  switchTo(path: string): void {
    this.tail.switchTo(path);
  }

  /** Reads whatever the file holds now (tests, shutdown). */
  flush(): Promise<void> {
    return this.tail.flush();
  }

  async close(): Promise<void> {
    clearTimeout(this.quietTimer);
    await this.tail.close();
  }

  private onRecord(record: unknown, path: string): void {
    if (path !== this.current) {
      this.current = path;
      this.state = INITIAL_CLAUDE_TRANSCRIPT; // a new file is a new conversation
    }
    this.options.onRecord?.(record, path);
    this.apply(readClaudeRecord(this.state, record));
    clearTimeout(this.quietTimer);
    if (this.state.pendingEndTurn) {
      this.quietTimer = setTimeout(() => this.apply(claudeTranscriptQuiet(this.state)), this.quietMs);
    }
  }

  private apply(read: { state: ClaudeTranscriptState; signals: SourceSignal[] }): void {
    this.state = read.state;
    if (read.signals.length > 0) this.options.onSignals(read.signals);
  }
}
