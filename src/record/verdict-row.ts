/**
 * The verdict line of the command line contract: `{"t","tile","name","from","to","source",
 * "reason"}` (plus `kind` for blocked), in that key order. Headless mode prints it live; replay
 * prints it on the recording's clock. One builder, so the two can never drift apart.
 */
import type { TileStateName } from '../verdict/state.js';

export interface VerdictRow {
  t: number;
  tile: number;
  name: string;
  from: TileStateName;
  to: TileStateName;
  source: string;
  reason: string;
  kind?: string;
}

/** What a row needs of a verdict: a live one, or one read back from a recording. */
export interface VerdictFacts {
  since: number;
  state: TileStateName;
  source: string;
  reason: string;
  kind?: string;
}

export function verdictRow(tile: number, name: string, from: TileStateName, verdict: VerdictFacts): VerdictRow {
  return {
    t: verdict.since,
    tile,
    name,
    from,
    to: verdict.state,
    source: verdict.source,
    reason: verdict.reason,
    ...(verdict.kind ? { kind: verdict.kind } : {}),
  };
}
