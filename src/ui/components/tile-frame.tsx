/**
 * One tile's chrome: the header in its top border and the other three borders, in the colour of
 * its state. The body is left empty: the body writer paints the agent's screen there.
 *
 * Memoised on what it draws (its header's segments, its rectangle, its frame and colours): a frame
 * in which one tile's header changes re-renders that tile, not every tile — a tile's object is
 * new in every model, and an idle tile's age moves without showing.
 */
import { memo } from 'react';
import { Box } from 'ink';
import type { Rect } from '../layout.js';
import type { FrameStyle, Segment } from '../header.js';
import { STATE_LOOK } from '../format.js';
import type { TileStateName } from '../../verdict/state.js';
import { Segments } from './segments.js';

export interface TileFrameProps {
  /** Its header, as `headerSegments` made it for this rectangle and frame. */
  header: readonly Segment[];
  state: TileStateName;
  outer: Rect;
  frame: FrameStyle;
  selected: boolean;
  color: boolean;
}

function TileFrameView({ header, state, outer, frame, selected, color }: TileFrameProps) {
  const look = STATE_LOOK[state];
  return (
    <Box position="absolute" marginLeft={outer.x} marginTop={outer.y} width={outer.width} height={outer.height} flexDirection="column">
      <Segments segments={header} />
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

export const TileFrame = memo(TileFrameView, sameFrame);

/** Whether two tiles' frames draw the same. */
function sameFrame(a: TileFrameProps, b: TileFrameProps): boolean {
  return (
    a.state === b.state &&
    a.frame === b.frame &&
    a.selected === b.selected &&
    a.color === b.color &&
    a.outer.x === b.outer.x &&
    a.outer.y === b.outer.y &&
    a.outer.width === b.outer.width &&
    a.outer.height === b.outer.height &&
    a.header.length === b.header.length &&
    a.header.every((s, i) => sameSegment(s, b.header[i]!))
  );
}

function sameSegment(a: Segment, b: Segment): boolean {
  return a.text === b.text && a.color === b.color && a.bold === b.bold && a.dim === b.dim && a.inverse === b.inverse;
}
