/**
 * A restored tile whose resumed agent gave up at once could not resume its conversation (an id
 * the agent no longer knows, a deleted session): the set starts it again with a new one, and
 * says so with this note (above what it prints, and in its info).
 */
import { printable } from '../platform/printable.js';
import type { TileEnd } from './tile-end.js';

/** Exiting by itself this soon, and not with 0, is a resume that failed. */
export const RESUME_GRACE_MS = 15_000;

export interface ResumedTile {
  readonly ended: TileEnd | undefined;
  t(): number;
  /** A remote agent that never got its connection did not refuse the conversation: `r` reconnects. */
  readonly connectionLost: boolean;
  readonly conversation: string | null;
  readonly session: { readonly screen: { rowTexts(): string[] } };
}

/** The note of a resume that failed, or null when the tile's end is no such failure. */
export function resumeFailure(tile: ResumedTile): string | null {
  const end = tile.ended;
  if (!end || end.closed || end.code === 0 || tile.t() > RESUME_GRACE_MS) return null;
  if (tile.connectionLost) return null;
  const said = tile.session.screen.rowTexts().map((row) => row.trim()).filter((row) => row !== '').slice(-2).join(' ');
  const how = end.code !== null ? `it exited with code ${end.code}` : (end.error ?? `it ended by ${end.signal ?? 'itself'}`);
  return `could not resume the conversation ${tile.conversation ?? ''} (${how}${said ? `: ${printable(said).slice(0, 200)}` : ''}); started a new one`;
}
