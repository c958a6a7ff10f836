/**
 * The workspace state as it is now: every tile (what it runs, where, its conversation, its
 * verdict, whether the user has seen it, its last screen) and the grid around them.
 */
import type { AgentName } from '../agents/profile.js';
import type { Tile } from '../tile/tile.js';
import { MAX_SCREEN_CHARS, STATE_FORMAT, STATE_VERSION } from './workspace-state.js';
import type { Ending, SavedTile, WorkspaceState } from './workspace-state.js';

/** Lines of scrollback saved above each screen (fewer when the screen would not fit). */
export const SAVED_SCROLLBACK = 100;

/** What the workspace file (or the command line) set for a tile besides its SPEC. */
export interface TileExtras {
  bell?: boolean;
  notify?: boolean;
  escapeKey?: string;
  timing?: Record<string, number>;
  remoteHooks?: boolean;
}

/** The grid's part of the state; `unseen` and `muted` are tile ids. */
export interface UiSnapshot {
  selected: number;
  zoomed: boolean;
  layout: 'auto' | 'grid' | 'rows';
  hideIdle: boolean;
  unseen: readonly number[];
  muted: readonly number[];
}

export interface CaptureInput {
  session: string;
  pid: number;
  now: Date;
  ended: Ending | null;
  tiles: readonly Tile[];
  launchOf: (id: number) => { spec: string; cwd: string; env: Record<string, string> } | undefined;
  extras: (id: number) => TileExtras;
  ui: UiSnapshot;
}

export function captureState(input: CaptureInput): WorkspaceState {
  const tiles: SavedTile[] = [];
  for (const tile of input.tiles) {
    const launch = input.launchOf(tile.id);
    if (!launch) continue;
    tiles.push(captureTile(tile, launch, input.extras(tile.id), input.ui));
  }
  return {
    format: STATE_FORMAT,
    version: STATE_VERSION,
    session: input.session,
    savedAt: input.now.toISOString(),
    pid: input.pid,
    ended: input.ended,
    tiles,
    ui: { selected: input.ui.selected, zoomed: input.ui.zoomed, layout: input.ui.layout, hideIdle: input.ui.hideIdle },
  };
}

function captureTile(tile: Tile, launch: { spec: string; cwd: string; env: Record<string, string> }, extras: TileExtras, ui: UiSnapshot): SavedTile {
  const verdict = tile.verdict;
  const end = tile.ended;
  const screen = tile.session.screen;
  const data = snapshotWithin(screen);
  const conversation = tile.conversationToResume;
  // A shell starts again where it was last (its OSC 7 folder), not where it first started; a remote
  // shell's folder is on the other machine.
  const folder = tile.profile.name === 'shell' && tile.info().remote === undefined ? tile.folder : null;
  return {
    name: tile.name,
    spec: launch.spec,
    agent: tile.profile.name as AgentName,
    cwd: folder ?? launch.cwd,
    ...(Object.keys(launch.env).length > 0 ? { env: launch.env } : {}),
    ...(extras.timing && Object.keys(extras.timing).length > 0 ? { timing: extras.timing } : {}),
    ...(extras.bell !== undefined ? { bell: extras.bell } : {}),
    ...(extras.notify !== undefined ? { notify: extras.notify } : {}),
    ...(extras.escapeKey !== undefined ? { escapeKey: extras.escapeKey } : {}),
    ...(extras.remoteHooks !== undefined ? { remoteHooks: extras.remoteHooks } : {}),
    ...(tile.worktree ? { worktree: { ...tile.worktree } } : {}),
    ...(conversation ? { conversation } : {}),
    state: verdict.state,
    reason: verdict.reason.slice(0, 4096),
    source: verdict.source,
    unseen: ui.unseen.includes(tile.id),
    muted: ui.muted.includes(tile.id),
    // Only an end of its own: belltower ending it (quit) is not how the tile finished, and neither
    // is a remote tile's lost connection (a restore reconnects it, resuming its conversation).
    ...(end && !end.closed && !tile.connectionLost ? { exit: { code: end.code, signal: end.signal, ...(end.error !== undefined ? { error: end.error.slice(0, 4096) } : {}) } } : {}),
    ...(data !== null ? { screen: { cols: screen.cols, rows: screen.rows, data } } : {}),
  };
}

type TileScreen = Tile['session']['screen'];

/** The last snapshot of each screen, by its generation: a screen that drew nothing since costs
 * nothing (serialising one busy 120×40 screen with its scrollback takes a few milliseconds). */
const snapshots = new WeakMap<TileScreen, { generation: number; data: string | null }>();

/** The screen with as much scrollback as fits the bound, or null when not even the screen does. */
export function snapshotWithin(screen: TileScreen): string | null {
  const known = snapshots.get(screen);
  if (known && known.generation === screen.generation) return known.data;
  let data: string | null = null;
  for (const lines of [SAVED_SCROLLBACK, 0]) {
    const taken = screen.snapshot(lines);
    if (taken.length <= MAX_SCREEN_CHARS) {
      data = taken;
      break;
    }
  }
  snapshots.set(screen, { generation: screen.generation, data });
  return data;
}
