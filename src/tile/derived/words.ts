/**
 * The agent's latest words per state it explains (what a permission asks, what a finished turn
 * said, why a turn failed), from the current turn only: a fold over the tile's evidence. Read by
 * the tile's info (its notification, its compact row, `ls`), never by the engine. Pure.
 */
import type { Evidence } from '../../record/format.js';
import { agentWords } from '../agent-words.js';
import type { WordsFor } from '../agent-words.js';
import { startsTurn } from './turn-start.js';
import type { TileStateName } from '../../verdict/state.js';

export type TileWords = Readonly<Partial<Record<WordsFor, string>>>;

export const NO_WORDS: TileWords = {};

/** `state`: the tile's verdict as this evidence arrives. */
export function foldWords(words: TileWords, evidence: Evidence, state: TileStateName): TileWords {
  // A new turn makes the last one's words stale. The agent's OSC 7501 `working` while it works or
  // asks is no new turn: Claude Code says it again before a permission dialog, and under load its
  // terminal's bytes can be read after the hook that named the request.
  const blocked = state === 'blocked';
  const renewed = evidence.type === 'osc' && (state === 'working' || blocked);
  const current = startsTurn(evidence) && !renewed ? NO_WORDS : words;
  const said = agentWords(evidence);
  if (!said) return current;
  // "Claude needs your permission" seconds after the dialog must not replace what it asks.
  if (said.reminder === true && blocked && current.blocked !== undefined) return current;
  return { ...current, [said.for]: said.text };
}
