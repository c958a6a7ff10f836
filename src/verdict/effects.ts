/** What the engine asks the imperative shell to do. Effects are data; the reducer performs none. */
import type { TileStateName, Verdict } from './state.js';

export type Effect =
  /** The tile's verdict changed: show it, record it, tell `wait` and the headless stream. */
  | { type: 'verdict'; from: TileStateName; to: TileStateName; verdict: Verdict }
  /** Ring the bell (and notify): the tile just became done, blocked or failed. */
  | { type: 'ring'; state: 'done' | 'blocked' | 'failed'; verdict: Verdict }
  /** Call the reducer again with a `wake` signal at this time (null: cancel the wake-up). */
  | { type: 'wakeAt'; t: number | null };
