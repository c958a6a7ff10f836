/**
 * How a tile's state reads at a glance: glyph, colour, words a user understands for the source
 * that decided it, and how long it has been so. Pure data and functions.
 */
import type { TileStateName } from '../verdict/state.js';

export type ChromeColor = 'blue' | 'yellow' | 'green' | 'red' | 'gray' | 'cyan' | 'magenta' | 'white';

export const STATE_LOOK: Readonly<Record<TileStateName, { glyph: string; color: ChromeColor }>> = {
  starting: { glyph: '…', color: 'gray' },
  working: { glyph: '●', color: 'blue' },
  blocked: { glyph: '◆', color: 'yellow' },
  done: { glyph: '✓', color: 'green' },
  idle: { glyph: '○', color: 'gray' },
  exited: { glyph: '■', color: 'gray' },
  failed: { glyph: '✗', color: 'red' },
  unknown: { glyph: '?', color: 'gray' },
};

/** `blocked: permission`, `done`, … */
export function stateWords(state: TileStateName, kind?: string): string {
  if (state === 'blocked' && kind === 'input') return 'blocked: waiting for input';
  return state === 'blocked' && kind ? `blocked: ${kind}` : state;
}

/** Which source decided, in words a user understands. */
export function provenance(source: string, state: TileStateName): string {
  switch (source) {
    case 'psp':
      return 'OSC 7501';
    case 'process':
      // An exit decides only an ended tile; a blocked one is its foreground reading the terminal;
      // anything else is the start (a remote shell's idle).
      return state === 'exited' || state === 'done' || state === 'failed' ? 'exit' : state === 'blocked' ? 'terminal' : 'start';
    case 'user':
      return 'you';
    case 'engine':
      return 'timer';
    default:
      return source;
  }
}

/** States whose age is worth a glance: how long it has worked, or waited for you. Idle and
 * exited tiles show none, so a resting grid has nothing that ticks. */
export function showsAge(state: TileStateName): boolean {
  return state === 'working' || state === 'blocked' || state === 'done' || state === 'failed';
}

/** `45s`, `2m10s` (under ten minutes), `12m`, `3h05m`. */
export function age(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 10) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  if (m < 60) return `${m}m`;
  const h = Math.floor(m / 60);
  return `${h}h${String(m % 60).padStart(2, '0')}m`;
}

/** Milliseconds until `age(ms)` reads differently: when a shown age next needs a repaint. */
export function nextAgeChange(ms: number): number {
  const s = Math.max(0, Math.floor(ms / 1000));
  const unit = s < 600 ? 1000 : 60_000;
  return unit - (ms % unit);
}

/**
 * The age a header shows at `now`: ages move on the clock's whole second, all together, as a
 * status line's clock does. Each tile ticking on the phase of its own state's start repainted the
 * chrome once per working tile each second (twenty agents started at different moments: twenty
 * renders a second where one says the same); a shown age lags the exact one by under a second.
 */
export function tickedAge(sinceMs: number, now: number): number {
  return Math.max(0, sinceMs - (now % 1000));
}

/** Milliseconds from `now` until `age(tickedAge(sinceMs, …))` reads differently: a whole-second
 * boundary of the clock, the first at which the shown age has crossed its next change. */
export function nextTickedAgeChange(sinceMs: number, now: number): number {
  const lag = now % 1000;
  const shown = tickedAge(sinceMs, now);
  const changesAt = shown + nextAgeChange(shown);
  // At the k-th whole second from now the shown age is sinceMs − lag + k·1000.
  const ticks = Math.max(1, Math.ceil((changesAt - sinceMs + lag) / 1000));
  return ticks * 1000 - lag;
}
