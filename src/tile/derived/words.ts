/**
 * The agent's latest words per state it explains (what a permission asks, what a finished turn
 * said, why a turn failed), from the current turn only: a fold over the tile's evidence. Read by
 * the tile's info (its notification, its compact row, `ls`), never by the engine. Pure.
 */
import type { Evidence } from '../../record/format.js';
import { agentWords } from '../agent-words.js';
import type { WordsFor } from '../agent-words.js';
import { startsTurn } from './turn-start.js';

export type TileWords = Readonly<Partial<Record<WordsFor, string>>>;

export const NO_WORDS: TileWords = {};

/** `blocked`: the tile's verdict is blocked as this evidence arrives. */
export function foldWords(words: TileWords, evidence: Evidence, blocked: boolean): TileWords {
  // A new turn makes the last one's words stale.
  const current = startsTurn(evidence) ? NO_WORDS : words;
  const said = agentWords(evidence);
  if (!said) return current;
  // "Claude needs your permission" seconds after the dialog must not replace what it asks.
  if (said.reminder === true && blocked && current.blocked !== undefined) return current;
  return { ...current, [said.for]: said.text };
}
