/**
 * What a tile knows beside its verdict, derived from the same evidence stream the engine reads:
 * one fold per concern (words, facts, conversation, folder), each pure and in its own file. The
 * tile applies each piece of evidence here once, as it takes it in; whoever needs a derivation
 * reads it from the result.
 */
import type { AgentName } from '../../agents/profile.js';
import type { Evidence } from '../../record/format.js';
import type { TileStateName } from '../../verdict/state.js';
import { foldConversation } from './conversation.js';
import type { ConversationState } from './conversation.js';
import { foldFacts } from './facts.js';
import type { SessionFacts } from './facts.js';
import { foldFolder, NO_FOLDER } from './folder.js';
import type { FolderState } from './folder.js';
import { foldWords, NO_WORDS } from './words.js';
import type { TileWords } from './words.js';

export interface Derived {
  words: TileWords;
  facts: SessionFacts;
  conversation: ConversationState;
  folder: FolderState;
}

/** What the evidence is read against: the agent (whose payloads name conversations), whether it runs over ssh,
 * and the tile's verdict as the evidence arrives. */
export interface DeriveContext {
  agent: AgentName;
  remote: boolean;
  state: TileStateName;
}

export function initialDerived(conversation: ConversationState): Derived {
  return { words: NO_WORDS, facts: {}, conversation, folder: NO_FOLDER };
}

export function derive(derived: Derived, evidence: Evidence, context: DeriveContext): Derived {
  return {
    words: foldWords(derived.words, evidence, context.state),
    facts: foldFacts(derived.facts, evidence),
    conversation: foldConversation(context.agent, derived.conversation, evidence),
    folder: foldFolder(derived.folder, evidence, context.remote),
  };
}
