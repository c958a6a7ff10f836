/**
 * The one bound on a terminal's size, shared by everything that sets one: `--cols`/`--rows`, a
 * resize, the workspace file, and a recording's header and `resize` lines (checked by the format,
 * so live and replay agree).
 *
 * Why a bound: a screen's memory grows with its cells (about 12 bytes per cell, scrollback
 * included), so `--cols 100000` took 1 GB for a trivial command and a recording saying
 * `rows: 2^31` grew replay to 12 GB; and the kernel keeps a size in 16 bits, so a child asked for
 * 65536 columns saw 0. 1000 columns is wider than any screen shows (an 8K display at a 7-pixel
 * font); a 1000×1000 screen with the default scrollback stays under 30 MB.
 */
export const TERMINAL_SIZE = Object.freeze({ minCols: 2, maxCols: 1000, minRows: 1, maxRows: 1000 });

/** Whether `value` is a whole number within [min, max]. */
function within(value: unknown, min: number, max: number): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

export function validCols(cols: unknown): cols is number {
  return within(cols, TERMINAL_SIZE.minCols, TERMINAL_SIZE.maxCols);
}

export function validRows(rows: unknown): rows is number {
  return within(rows, TERMINAL_SIZE.minRows, TERMINAL_SIZE.maxRows);
}

/** Why `cols`×`rows` is not a terminal size belltower accepts, or null. */
export function sizeProblem(cols: unknown, rows: unknown): string | null {
  if (validCols(cols) && validRows(rows)) return null;
  const { minCols, maxCols, minRows, maxRows } = TERMINAL_SIZE;
  return `a terminal is ${minCols}–${maxCols} columns by ${minRows}–${maxRows} rows (got ${String(cols)}×${String(rows)})`;
}
