/**
 * The whole screen's chrome: every visible tile's frame, the status line, and an overlay or the
 * "too small" message. Pure props in, Ink elements out: the shell renders it once per frame in
 * which something it shows changed.
 */
import { Box, Text } from 'ink';
import { printable } from '../../platform/printable.js';
import { headerSegments } from '../header.js';
import type { HeaderTile } from '../header.js';
import { ROW_LABEL_WIDTH } from '../layout.js';
import type { Layout, Rect } from '../layout.js';
import type { OverlayContent } from '../overlay.js';
import type { StatusFacts } from '../status-line-text.js';
import type { UiState } from '../ui-state.js';
import { CompactRow } from './compact-row.js';
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
  /** How many idle tiles are hidden (H). */
  hidden: number;
  /** Tokens the tiles' agents used this session, by their own logs. */
  tokens?: number;
  /** The scroll view, when one is open. */
  scroll?: StatusFacts['scroll'];
}

export function GridView({ model }: { model: GridModel }) {
  const { cols, rows, layout, tiles, ui, color } = model;
  const selectedTile = tiles[ui.selected];
  return (
    <Box width={cols} height={rows} flexDirection="column">
      {layout.kind === 'grid' ? (
        layout.tiles.map(({ index, outer, kind }) => {
          const tile = tiles[index];
          if (!tile) return null;
          const selected = index === ui.selected;
          if (kind === 'row') {
            return (
              <Box key={tile.id} position="absolute" marginLeft={outer.x} marginTop={outer.y} width={Math.min(outer.width, ROW_LABEL_WIDTH)} height={1}>
                <CompactRow tile={tile} width={Math.min(outer.width, ROW_LABEL_WIDTH)} selected={selected} color={color} />
              </Box>
            );
          }
          const frame = selected ? (ui.mode === 'focus' ? 'double' : 'bold') : 'round';
          const header = headerSegments(tile, { width: outer.width, frame, selected, color });
          return <TileFrame key={kind === 'preview' ? `preview-${tile.id}` : tile.id} header={header} state={tile.state} outer={outer} frame={frame} selected={selected} color={color} />;
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
      {layout.kind === 'grid'
        ? (layout.groups ?? []).map((group) => (
            <Box key={`group-${group.y}`} position="absolute" marginTop={group.y} width={cols} height={1}>
              <Text dimColor wrap="truncate">
                {`── ${printable(group.label)} ${'─'.repeat(Math.max(0, cols - group.label.length - 4))}`}
              </Text>
            </Box>
          ))
        : null}
      {layout.kind === 'grid' && layout.more ? (
        <Box position="absolute" marginTop={layout.more.y} width={cols} height={1}>
          <Text dimColor wrap="truncate">
            {`   ${layout.more.above > 0 ? `↑ ${layout.more.above} more above` : ''}${layout.more.above > 0 && layout.more.below > 0 ? ' · ' : ''}${layout.more.below > 0 ? `↓ ${layout.more.below} more below` : ''}`}
          </Text>
        </Box>
      ) : null}
      {model.overlay ? <OverlayBox content={model.overlay.content} rect={model.overlay.rect} color={color} /> : null}
      <Box position="absolute" marginTop={layout.status.y} width={cols} height={1}>
        <StatusLine
          width={cols}
          states={tiles.map((t) => t.state)}
          unseen={tiles.filter((t) => t.unseen).length}
          hidden={model.hidden}
          tokens={model.tokens ?? 0}
          scroll={model.scroll ?? null}
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
