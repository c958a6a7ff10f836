/**
 * What a tile says of itself to the control socket and the grid (TileInfo): its verdict, what
 * the evidence derivations hold (words, facts, folder), how its process ended, and what it could
 * not set up. Pure: the tile's parts in (read, never changed), the info out.
 */
import type { TileInfo } from '../control/protocol.js';
import { remoteNotFound, sshConnectionLost } from '../verdict/signals.js';
import type { EngineState } from '../verdict/state.js';
import type { Derived } from './derived/derived.js';
import { shownFacts } from './derived/facts.js';
import { remoteFolder } from './derived/folder.js';
import { pendingRequest } from './pending-request.js';
import type { TileEnd } from './tile-end.js';
import type { Worktree } from '../worktree/worktree-create.js';
import type { ChangesSummary } from './tile-changes.js';

/** What the info is read from: the tile's own facts and the parts it is made of (only what is read here). */
export interface TileParts {
  id: number;
  name: string;
  /** The process's exit is its outcome (a command), so a 127 is no missing program. */
  profile: { readonly name: string; readonly exitIsOutcome: boolean };
  spec: { readonly remote?: { readonly host: string } | undefined };
  /** The folder belltower started it in. */
  cwd: string;
  /** The git worktree that folder is, when belltower made one for the tile. */
  worktree: Worktree | undefined;
  /** The tile's clock now. */
  t: number;
  note: string | undefined;
  showingRestored: boolean;
  live: { readonly state: EngineState; readonly derived: Derived; readonly promptUnanswered: boolean };
  link: { readonly notice: string | undefined; remoteHooksState(exited: boolean): 'connecting' | 'on' | 'off' };
  exit: { readonly hasExited: boolean; readonly ended: TileEnd | undefined };
  input: { readonly pending: boolean };
  /** What its folder changed (tile-changes.ts), once counted. */
  changes: ChangesSummary | undefined;
  /** Read only when the tile is blocked (to see what its dialog offers). */
  screen: { readonly rows: number; rowText(y: number): string };
}

/** A remote tile whose ssh ended with 255: the connection failed or dropped (not the agent). */
export function connectionLost(remote: boolean, end: TileEnd | undefined): boolean {
  return remote && end !== undefined && sshConnectionLost(end);
}

export function tileInfo(tile: TileParts): TileInfo {
  const { live, exit, screen } = tile;
  const v = live.state.verdict;
  const derived = live.derived;
  const end = exit.ended;
  const remote = tile.spec.remote ? { host: tile.spec.remote.host, hooks: tile.link.remoteHooksState(exit.hasExited) } : null;
  const says = v.state === 'done' || v.state === 'blocked' || v.state === 'failed' ? derived.words[v.state] : undefined;
  const facts = shownFacts(derived.facts);
  const folder = derived.folder.folder;
  const remoteCwd = remote ? remoteFolder(derived.folder) : null;
  const rows = (): string[] => Array.from({ length: screen.rows }, (_, y) => screen.rowText(y));
  return {
    id: tile.id,
    name: tile.name,
    agent: tile.profile.name,
    state: v.state,
    ...(v.kind ? { kind: v.kind } : {}),
    source: v.source,
    confidence: v.confidence,
    reason: v.reason,
    sinceMs: Math.max(0, tile.t - v.since),
    // A remote tile's folder is on the other machine: the one it reports, else none (belltower's
    // own folder, where the local ssh runs, is not the agent's: issue 28).
    ...(remote ? (remoteCwd ? { cwd: remoteCwd } : {}) : { cwd: tile.cwd }),
    ...(tile.worktree ? { worktree: { ...tile.worktree } } : {}),
    ...(tile.changes ? { changes: { ...tile.changes } } : {}),
    ...(says ? { says } : {}),
    ...(v.state === 'blocked' ? { request: pendingRequest(tile.id, v.since, derived.words.blocked, rows(), v.kind) } : {}),
    ...(end ? { exit: { code: end.code, signal: end.signal, ...(end.error ? { error: end.error } : {}), closed: end.closed } } : {}),
    ...(folder ? { folder } : {}),
    ...(facts ? { facts } : {}),
    ...(tile.link.notice ? { notice: tile.link.notice } : {}),
    ...(tile.showingRestored ? { restored: true } : {}),
    ...(tile.note ? { note: tile.note } : {}),
    ...(tile.input.pending || live.promptUnanswered ? { inputPending: true as const } : {}),
    ...(remote
      ? {
          remote: {
            host: remote.host,
            hooks: remote.hooks,
            ...(connectionLost(true, end) ? { lost: true as const } : {}),
            ...(!tile.profile.exitIsOutcome && end !== undefined && remoteNotFound(end) ? { notFound: true as const } : {}),
          },
        }
      : {}),
  };
}
