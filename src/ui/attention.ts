/**
 * Attention: which tiles have something the user has not looked at yet (an "unseen" done, blocked
 * or failed), which the user muted, and whether a ring edge from the engine reaches the user as a
 * bell and a notification. Pure: time and the user's choices are inputs.
 */
import { shouldRing } from './bell.js';
import type { BellMode } from './bell.js';

export interface Attention {
  /** Tile ids with a ring edge the user has not looked at since. */
  readonly unseen: readonly number[];
  /** Tile ids the user muted (no bell, no notification; still shown). */
  readonly muted: readonly number[];
  /** When each tile last rang the user, for the quiet period. */
  readonly lastRing: Readonly<Record<number, number>>;
}

export const NO_ATTENTION: Attention = { unseen: [], muted: [], lastRing: {} };

/** A tile rang again this soon after its last ring (and the user did not look in between) is
 * shown but not rung twice. */
export const DEFAULT_QUIET_PERIOD_MS = 30_000;

export interface RingContext {
  now: number;
  bell: BellMode;
  notify: boolean;
  quietPeriodMs: number;
  /** The tile's own settings (the workspace file's `bell` / `notify`). */
  tileBell: boolean;
  tileNotify: boolean;
  /** The index of the rung tile, and of the tile the user is looking at closely (focused or
   * zoomed), and whether the terminal window has focus. */
  tileIndex: number;
  lookingAt: number | null;
  windowFocused: boolean;
}

export interface RingOutcome {
  attention: Attention;
  bell: boolean;
  notify: boolean;
  /** Why not, for the log. */
  why: string;
}

export function ringArrived(attention: Attention, id: number, ctx: RingContext): RingOutcome {
  // The tile the user is focused on or zoomed into is in front of them: it never becomes unseen
  // (it may still ring, per --bell).
  const lookedAt = ctx.lookingAt === ctx.tileIndex;
  const unseen = attention.unseen.includes(id) || lookedAt ? attention.unseen : [...attention.unseen, id];
  const last = attention.lastRing[id];
  const inFront = ctx.windowFocused && lookedAt;
  const base = { ...attention, unseen };
  if (attention.muted.includes(id)) return { attention: base, bell: false, notify: false, why: 'muted' };
  if (last !== undefined && ctx.now - last < ctx.quietPeriodMs) return { attention: base, bell: false, notify: false, why: `quiet period (rang ${Math.round((ctx.now - last) / 1000)}s ago)` };
  const bell = ctx.tileBell && shouldRing(ctx.bell, { tileIndex: ctx.tileIndex, lookingAt: ctx.lookingAt, windowFocused: ctx.windowFocused });
  // A notification is for what you are not looking at: never the tile in front of you.
  const notify = ctx.tileNotify && ctx.notify && !inFront;
  const rang = bell || notify;
  return {
    attention: rang ? { ...base, lastRing: { ...attention.lastRing, [id]: ctx.now } } : base,
    bell,
    notify,
    why: rang ? 'rang' : !ctx.tileBell ? 'bell off for this tile' : `--bell ${ctx.bell}`,
  };
}

/** Rings that came while nobody was looking (no client attached to the session): each tile is
 * unseen, with no bell now — the news is old — and its next ring is news again. */
export function missed(attention: Attention, ids: readonly number[]): Attention {
  const fresh = ids.filter((id, i) => !attention.unseen.includes(id) && ids.indexOf(id) === i);
  return fresh.length === 0 ? attention : { ...attention, unseen: [...attention.unseen, ...fresh] };
}

/** The user looked at the tile (focused, zoomed, typed into it): nothing unseen, and its next
 * ring is news again. */
export function looked(attention: Attention, id: number): Attention {
  if (!attention.unseen.includes(id) && attention.lastRing[id] === undefined) return attention;
  const { [id]: _dropped, ...lastRing } = attention.lastRing;
  return { ...attention, unseen: attention.unseen.filter((u) => u !== id), lastRing };
}

export function toggleMute(attention: Attention, id: number): Attention {
  return { ...attention, muted: attention.muted.includes(id) ? attention.muted.filter((m) => m !== id) : [...attention.muted, id] };
}

/** Forget a tile that is gone. */
export function forget(attention: Attention, id: number): Attention {
  return { ...looked(attention, id), muted: attention.muted.filter((m) => m !== id) };
}
