/**
 * The whole screen's chrome: every visible tile's frame, the status line, and an overlay or the
 * "too small" message. Pure props in, Ink elements out: the shell renders it once per frame in
 * which something it shows changed.
 */
import { Box, Text } from 'ink';
import type { HeaderTile } from '../header.js';
import type { Layout, Rect } from '../layout.js';
import type { OverlayContent } from '../overlay.js';
import type { UiState } from '../ui-state.js';
import { OverlayBox } from './overlay-box.js';
import { StatusLine } from './status-line.js';
import { TileFrame } from './tile-frame.js';

export interface GridModel {
  cols: number;
  rows: number;
  layout: Layout;
  tiles: readonly HeaderTile[];
  ui: UiState;
  color: boolean;
  escapeKey: string;
  overlay: { content: OverlayContent; rect: Rect } | null;
  /** The status line's note, if one is showing. */
  note: string | null;
}

export function GridView({ model }: { model: GridModel }) {
  const { cols, rows, layout, tiles, ui, color } = model;
  const selectedTile = tiles[ui.selected];
  return (
    <Box width={cols} height={rows} flexDirection="column">
      {layout.kind === 'grid' ? (
        layout.tiles.map(({ index, outer }) => {
          const tile = tiles[index];
          if (!tile) return null;
          const selected = index === ui.selected;
          const frame = selected ? (ui.mode === 'focus' ? 'double' : 'bold') : 'round';
          return <TileFrame key={tile.id} tile={tile} outer={outer} frame={frame} selected={selected} color={color} />;
        })
      ) : (
        <Box position="absolute" width={cols} height={Math.max(1, rows - 1)} alignItems="center" justifyContent="center" flexDirection="column">
          <Text bold wrap="truncate">
            belltower needs a larger terminal
          </Text>
          <Text wrap="wrap">
            {tiles.length} {tiles.length === 1 ? 'tile needs' : 'tiles need'} at least {layout.need.cols}×{layout.need.rows}; this one is {cols}×{rows}.
          </Text>
          <Text dimColor wrap="wrap">
            Make the window larger, or press z to zoom one tile.
          </Text>
        </Box>
      )}
      {model.overlay ? <OverlayBox content={model.overlay.content} rect={model.overlay.rect} color={color} /> : null}
      <Box position="absolute" marginTop={layout.status.y} width={cols} height={1}>
        <StatusLine
          width={cols}
          states={tiles.map((t) => t.state)}
          mode={ui.mode}
          focusedName={selectedTile ? `${selectedTile.id} ${selectedTile.name}` : null}
          zoomed={ui.zoomed}
          escapeKey={model.escapeKey}
          note={model.note}
          color={color}
        />
      </Box>
    </Box>
  );
}
