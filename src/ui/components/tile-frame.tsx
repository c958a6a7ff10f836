/**
 * One tile's chrome: the header in its top border and the other three borders, in the colour of
 * its state. The body is left empty: the body writer paints the agent's screen there.
 */
import { Box } from 'ink';
import type { Rect } from '../layout.js';
import { headerSegments } from '../header.js';
import type { FrameStyle, HeaderTile } from '../header.js';
import { STATE_LOOK } from '../format.js';
import { Segments } from './segments.js';

export interface TileFrameProps {
  tile: HeaderTile;
  outer: Rect;
  frame: FrameStyle;
  selected: boolean;
  color: boolean;
}

export function TileFrame({ tile, outer, frame, selected, color }: TileFrameProps) {
  const look = STATE_LOOK[tile.state];
  return (
    <Box position="absolute" marginLeft={outer.x} marginTop={outer.y} width={outer.width} height={outer.height} flexDirection="column">
      <Segments segments={headerSegments(tile, { width: outer.width, frame, selected, color })} />
      <Box
        width={outer.width}
        height={outer.height - 1}
        borderStyle={frame}
        borderTop={false}
        {...(color ? { borderColor: look.color } : {})}
        borderDimColor={!selected && !color}
      />
    </Box>
  );
}
