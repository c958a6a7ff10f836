/**
 * Whether a piece of evidence begins a new turn: the user's submit, the agent's prompt hook
 * (Claude's UserPromptSubmit, Gemini's BeforeAgent), or an OSC 7501 `working` of the main agent
 * (one with an `id` is a subagent's). What the last turn said no longer describes the tile after
 * it, and a conversation that saw one has something to resume. Pure.
 */
import type { Evidence } from '../../record/format.js';

export function startsTurn(evidence: Evidence): boolean {
  if (evidence.type === 'prompt') return true;
  if (evidence.type === 'hook') return evidence.event === 'UserPromptSubmit' || evidence.event === 'BeforeAgent';
  if (evidence.type === 'osc') return evidence.code === 7501 && /^state=working(?::|$)/.test(evidence.payload) && !/(^|:)id=/.test(evidence.payload);
  return false;
}
