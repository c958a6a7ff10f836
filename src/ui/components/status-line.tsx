/** The last line: how many tiles are in each state, and the keys that matter now. What fits at a
 * width, and what gives way first, is decided in status-line-text.ts; this only paints it. */
import { Box, Text } from 'ink';
import { STATE_LOOK } from '../format.js';
import { statusLineText } from '../status-line-text.js';
import type { StatusFacts, StatusPart } from '../status-line-text.js';

export interface StatusLineProps extends StatusFacts {
  color: boolean;
}

export function StatusLine({ color, ...facts }: StatusLineProps) {
  const line = statusLineText(facts);
  return (
    <Box width={facts.width} height={1}>
      <Text wrap="truncate">
        <Text inverse={line.labelStyle === 'inverse'} bold>
          {line.label}
        </Text>
        {line.parts.map((part, i) => (
          <Text key={`${part.kind}-${i}`} {...partStyle(part, color)}>
            {part.lead}
            {part.text}
          </Text>
        ))}
        {' '.repeat(line.gap)}
        <Text dimColor>{line.hints}</Text>
        {line.tail}
      </Text>
    </Box>
  );
}

function partStyle(part: StatusPart, color: boolean): { color?: string; bold?: boolean; dimColor?: boolean } {
  switch (part.kind) {
    case 'count':
      return color ? { color: STATE_LOOK[part.state].color } : {};
    case 'note':
      return color ? { color: 'yellow' } : {};
    case 'unseen':
      return { bold: true };
    case 'hidden':
    case 'tokens':
      return { dimColor: true };
  }
}
