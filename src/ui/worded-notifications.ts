/**
 * A blocked tile's desktop notification names what the agent asks (`claude: approve Bash: npm
 * test?`). The agent says it on more than one channel, and the first to arrive may not carry the
 * words: Claude Code's OSC 7501 `blocked` can come through its terminal before its
 * PermissionRequest hook does, Codex draws its dialog half a second after saying it is blocked.
 * The bell rings at once; the notification waits for the words, at most `waitMs`, and goes without
 * them after that — never when the tile has stopped asking meanwhile. Owns its timers.
 */
import type { TileInfo } from '../control/protocol.js';
import type { RingState } from '../tile/workspace-view.js';

/** How long a blocked tile's notification waits for the agent's words. */
export const WORDS_WAIT_MS = 1_500;

export interface WordedNotificationsOptions {
  /** The tile as it is now (undefined: it is gone). */
  info(id: number): TileInfo | undefined;
  send(info: TileInfo, state: RingState): void;
  waitMs?: number;
  setTimer?: (run: () => void, ms: number) => () => void;
}

/** What a blocked tile asks, in the agent's words, if it said it yet. */
export function askedWords(info: TileInfo): string | undefined {
  return info.request?.asks || info.says || undefined;
}

export class WordedNotifications {
  private readonly waiting = new Map<number, { state: RingState; cancel: () => void }>();

  constructor(private readonly options: WordedNotificationsOptions) {}

  /** A ring that notifies: now, or once the words came. */
  ring(info: TileInfo, state: RingState): void {
    this.waiting.get(info.id)?.cancel();
    this.waiting.delete(info.id);
    if (state !== 'blocked' || askedWords(info) !== undefined) return this.options.send(info, state);
    const setTimer = this.options.setTimer ?? realTimer;
    const cancel = setTimer(() => this.due(info.id, true), this.options.waitMs ?? WORDS_WAIT_MS);
    this.waiting.set(info.id, { state, cancel });
  }

  /** A tile's info changed: a notification waiting for its words may go now. */
  changed(): void {
    for (const id of [...this.waiting.keys()]) this.due(id, false);
  }

  stop(): void {
    for (const { cancel } of this.waiting.values()) cancel();
    this.waiting.clear();
  }

  private due(id: number, timedOut: boolean): void {
    const waiting = this.waiting.get(id);
    if (!waiting) return;
    const info = this.options.info(id);
    // Answered (or gone) meanwhile: it no longer needs you, so nothing is said.
    if (!info || info.state !== 'blocked') return this.drop(id);
    if (!timedOut && askedWords(info) === undefined) return;
    this.drop(id);
    this.options.send(info, waiting.state);
  }

  private drop(id: number): void {
    this.waiting.get(id)?.cancel();
    this.waiting.delete(id);
  }
}

function realTimer(run: () => void, ms: number): () => void {
  const timer = setTimeout(run, ms);
  timer.unref();
  return () => clearTimeout(timer);
}
