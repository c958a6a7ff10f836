/**
 * What a front end (the full-screen UI; a detached client later) sees of the running tiles and
 * how it acts on them: the control socket's seam, plus each tile's screen and raw input. The UI
 * depends on this interface only, never on how tiles are run.
 */
import type { ControlTarget } from '../control/control-target.js';
import type { ReadOptions } from '../session/row-reader.js';
import type { InputModes } from '../session/screen.js';
import type { StyledRow } from '../session/styled-row.js';

/** A tile's live screen, read-only. */
export interface TileScreenView {
  readonly cols: number;
  readonly rows: number;
  /** Moves whenever the visible rows may have changed. */
  readonly generation: number;
  readonly cursor: { x: number; y: number };
  readonly cursorVisible: boolean;
  readonly inputModes: InputModes;
  /** Which buffer shows: full-screen programs use the alternate one, which keeps no scrollback. */
  readonly activeBuffer: 'normal' | 'alternate';
  /** Lines in the active buffer (scrollback and viewport), and how often it scrolled so far. */
  readonly bufferLength: number;
  readonly scrolledLines: number;
  styledRow(y: number, options?: ReadOptions): StyledRow;
  /** Row `y` as the screen's own words: the painter reads again only rows whose words changed
   * (session/row-words.ts). */
  rowWords?(y: number): Uint32Array | undefined;
  /** Line `index` of the active buffer (0 = the oldest kept). */
  styledLine(index: number, options?: ReadOptions): StyledRow;
  lineText(index: number): string;
  /** Whether line `index` continues the one above it (a soft wrap): copying joins them again. */
  isWrapped?(index: number): boolean;
}

export type RingState = 'done' | 'blocked' | 'failed';

export interface WorkspaceView extends ControlTarget {
  /** The screen of tile `id` (kept after its process exits, so its last screen stays visible). */
  screenOf(id: number): TileScreenView | undefined;
  /** Keystrokes or a paste for the tile's program, exactly as given. */
  input(id: number, data: string): void;
  /** The descriptor keys for the tile's program may be written to from another thread (its pty
   * master), while the program runs and takes input; undefined where there is none (a replay, an
   * ended tile, a platform without one). */
  keyboardFd?(id: number): number | undefined;
  /** The user submitted a line in the tile (Enter): a prompt, `local` for a slash command. */
  submitted(id: number, local: boolean): void;
  /** The user looked at the tile: an unseen done becomes idle. */
  seen(id: number): void;
  /** Give the tile's program (and its screen) a new size. */
  resize(id: number, cols: number, rows: number): void;
  /** The engine rang for a tile: an edge into done, blocked or failed. */
  onRing(listener: (id: number, state: RingState) => void): () => void;
  /** A tile's screen parsed output (it may look different now). */
  onActivity(listener: (id: number) => void): () => void;
}
