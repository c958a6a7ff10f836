/**
 * Dirty rows: which visible rows of a screen read differently since this watcher last looked.
 *
 * Each reader (the banner source, a renderer) keeps its own watcher, so one reader taking the
 * changes never hides them from another. Rows are compared by their rendered text — what a
 * program drew, however it drew it (cursor moves, partial redraws) — and a screen that parsed
 * nothing since the last look costs nothing (its generation did not move).
 */

/** What a watcher needs from a screen (Screen implements it). */
export interface RowSource {
  readonly generation: number;
  readonly rows: number;
  rowText(y: number): string;
}

export interface ChangedRow {
  /** 0 = the top visible row. */
  readonly y: number;
  readonly text: string;
}

export class RowWatcher {
  private texts: string[] = [];
  private seenGeneration = -1;

  constructor(private readonly screen: RowSource) {}

  /** Every visible row's text as of the last `changed()` call (no second read of the screen). */
  get rows(): readonly string[] {
    return this.texts;
  }

  /** Rows whose text changed since the previous call (every row on the first call). */
  changed(): ChangedRow[] {
    const generation = this.screen.generation;
    if (generation === this.seenGeneration) return [];
    this.seenGeneration = generation;
    const rows = this.screen.rows;
    if (this.texts.length > rows) this.texts.length = rows;
    const changed: ChangedRow[] = [];
    for (let y = 0; y < rows; y++) {
      const text = this.screen.rowText(y);
      if (this.texts[y] !== text) {
        this.texts[y] = text;
        changed.push({ y, text });
      }
    }
    return changed;
  }
}
