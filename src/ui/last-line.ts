/**
 * A tile's screen seen through one line: its last row that shows anything (where agents put
 * their status and the latest output). A compact row paints it with the body writer, live and in
 * colour, without re-rendering the chrome.
 */
import type { ReadOptions } from '../session/row-reader.js';
import type { StyledRow } from '../session/styled-row.js';
import type { TileScreenView } from '../tile/workspace-view.js';
import type { PaintableScreen } from './body-writer.js';

export function lastLineOf(screen: TileScreenView): PaintableScreen {
  let cachedGeneration = -1;
  let cachedRow = 0;
  const lastRow = (): number => {
    if (screen.generation === cachedGeneration) return cachedRow;
    cachedGeneration = screen.generation;
    cachedRow = 0;
    for (let y = screen.rows - 1; y >= 0; y--) {
      if (screen.styledRow(y).runs.some((run) => run.text.trim() !== '')) {
        cachedRow = y;
        break;
      }
    }
    return cachedRow;
  };
  return {
    get cols() {
      return screen.cols;
    },
    rows: 1,
    get generation() {
      return screen.generation;
    },
    styledRow(_y: number, options?: ReadOptions): StyledRow {
      return screen.styledRow(lastRow(), options);
    },
  };
}
