/**
 * The scroll view's state and what it reads, as types: shared by the scroll keys (scroll.ts) and
 * copy mode (copy-mode.ts) without either importing the other's module.
 */

/** A cell of the buffer: a line (0 = the oldest kept) and a column. */
export interface Point {
  readonly line: number;
  readonly col: number;
}

/** A selection from `anchor` to the cursor: characters, or whole lines. `mouse`: made by a press
 * that has not been released yet. */
export interface Selection {
  readonly kind: 'char' | 'line';
  readonly anchor: Point;
  readonly mouse?: boolean;
}

/** What is copied: from `from` to `to`, both included (columns matter only for `char`). */
export interface CopyRange {
  readonly kind: 'char' | 'line';
  readonly from: Point;
  readonly to: Point;
}

export interface ScrollState {
  readonly tileId: number;
  /** Lines above the live bottom (0 = the live screen). */
  readonly offset: number;
  /** The buffer's scroll count and length when the offset was last set: new output moves the
   * view with it. */
  readonly scrolledAt: number;
  readonly lengthAt: number;
  /** The search being typed (after `/`), or null. */
  readonly typing: string | null;
  /** The last search, and the line and columns of its current match. */
  readonly query: string | null;
  readonly match: { readonly line: number; readonly from: number; readonly to: number } | null;
  /** Copy mode's cursor: the keys move it, the view follows it (copy-mode.ts). */
  readonly cursor: Point;
  /** The selection from its anchor to the cursor, or null. */
  readonly selection: Selection | null;
}

/** What the scroll keys need of the tile's screen. */
export interface ScrollSource {
  readonly rows: number;
  readonly bufferLength: number;
  readonly scrolledLines: number;
  lineText(index: number): string;
}

export type ScrollKeyResult = { state: ScrollState } | { exit: true; copy?: CopyRange } | { note: string; state: ScrollState };
