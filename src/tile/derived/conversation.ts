/**
 * The agent's conversation as the tile knows it: its id (given at launch, or the one the agent
 * last reported: Claude's new session after /clear, Codex's thread) and whether it holds a
 * prompt yet — a conversation without one does not exist for the agent, and resuming it would
 * fail. A fold over the tile's evidence. Pure.
 */
import { reportedConversation, reportedWhenUsed } from '../../agents/conversation.js';
import type { AgentName } from '../../agents/profile.js';
import type { Evidence } from '../../record/format.js';
import { startsTurn } from './turn-start.js';

export interface ConversationState {
  id: string | null;
  /** It has something to resume: it was resumed at launch, or a turn began in it. */
  used: boolean;
}

export function foldConversation(agent: AgentName, state: ConversationState, evidence: Evidence): ConversationState {
  let next = state;
  const reported = reportedConversation(agent, evidence);
  // A new conversation (Claude after /clear) has nothing in it until its first prompt; a Codex
  // thread is only ever reported once it has one.
  if (reported !== null && reported !== state.id) next = { id: reported, used: reportedWhenUsed(agent) };
  if (startsTurn(evidence) && !next.used) next = { ...next, used: true };
  return next;
}

/** The conversation a restore resumes: none until it holds something. */
export function toResume(state: ConversationState): string | null {
  return state.used ? state.id : null;
}
