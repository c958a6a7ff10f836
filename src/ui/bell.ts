/**
 * Whether a ring effect of the engine (an edge into done, blocked or failed) rings the user's
 * terminal bell. The engine already rings once per edge and never for /clear or /compact; this only
 * applies the user's `--bell` choice.
 */
export type BellMode = 'all' | 'background' | 'off';

export const BELL_MODES: readonly BellMode[] = ['all', 'background', 'off'];

export interface BellContext {
  /** The tile that rang. */
  tileIndex: number;
  /** The tile the user is looking at closely: focused, or zoomed (null in the plain grid). */
  lookingAt: number | null;
  /** Whether the terminal window has focus (focus reporting). */
  windowFocused: boolean;
}

export function shouldRing(mode: BellMode, ctx: BellContext): boolean {
  if (mode === 'off') return false;
  if (mode === 'all') return true;
  // background: the tile in front of you, in a window you are looking at, needs no bell.
  return !(ctx.windowFocused && ctx.lookingAt === ctx.tileIndex);
}

export const BEL = '\x07';
