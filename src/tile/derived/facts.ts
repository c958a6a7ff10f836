/**
 * Model, context and tokens, from the agent's own log: a fold over the tile's transcript
 * evidence (the record reader is src/sources/transcript/session-facts.ts). Pure.
 */
import type { TileInfo } from '../../control/protocol.js';
import type { Evidence } from '../../record/format.js';
import { readFacts } from '../../sources/transcript/session-facts.js';
import type { SessionFacts } from '../../sources/transcript/session-facts.js';

export type { SessionFacts } from '../../sources/transcript/session-facts.js';

export function foldFacts(facts: SessionFacts, evidence: Evidence): SessionFacts {
  return evidence.type === 'transcript' ? readFacts(facts, evidence.record) : facts;
}

/** The facts a tile's info shows, once there is one worth showing (the dedupe keys stay inside). */
export function shownFacts(facts: SessionFacts): TileInfo['facts'] | undefined {
  if (!facts.model && facts.contextTokens === undefined) return undefined;
  const { counted: _counted, ...shown } = facts;
  return shown;
}
