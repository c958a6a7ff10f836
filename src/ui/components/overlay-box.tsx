/**
 * An overlay drawn over the grid: a bordered box with a title, lines and a footer. Every inner
 * cell is written (blanks included), so nothing of the tiles beneath shows through.
 */
import { Box, Text } from 'ink';
import stringWidth from 'string-width';
import type { Rect } from '../layout.js';
import { keyColumn } from '../overlay.js';
import type { OverlayContent, OverlayLine } from '../overlay.js';

/** The colours a line's tone takes on a colour terminal (a diff's as git colours them). */
const TONE_COLORS: Readonly<Record<string, string>> = { warn: 'yellow', add: 'green', remove: 'red', hunk: 'cyan' };

export function OverlayBox({ content, rect, color }: { content: OverlayContent; rect: Rect; color: boolean }) {
  const inner = Math.max(0, rect.width - 4);
  const keyWidth = keyColumn(content);
  const bodyRows = Math.max(0, rect.height - 4);
  const offset = content.offset ?? 0;
  const shown: (OverlayLine | null)[] = content.lines.slice(offset, offset + bodyRows);
  while (shown.length < bodyRows) shown.push(null);
  const pad = (text: string, width: number) => {
    const w = stringWidth(text);
    return w >= width ? text : text + ' '.repeat(width - w);
  };
  return (
    <Box position="absolute" marginLeft={rect.x} marginTop={rect.y} width={rect.width} height={rect.height} borderStyle="round" {...(color ? { borderColor: 'cyan' } : {})} flexDirection="column">
      <Text bold wrap="truncate">
        {` ${pad(content.title, inner)} `}
      </Text>
      {shown.map((line, i) =>
        line === null ? (
          <Text key={i}>{' '.repeat(inner + 2)}</Text>
        ) : (
          <Text key={i} wrap="truncate">
            {' '}
            {keyWidth > 0 && line.key !== undefined ? (
              <Text bold {...(color ? { color: 'cyan' } : {})}>
                {pad(line.key, keyWidth)}
              </Text>
            ) : null}
            <Text bold={line.tone === 'title' || line.tone === 'file'} dimColor={line.tone === 'dim'} inverse={line.mark === true} {...(color && TONE_COLORS[line.tone ?? ''] ? { color: TONE_COLORS[line.tone ?? ''] } : {})}>
              {pad(line.text, keyWidth > 0 && line.key !== undefined ? inner - keyWidth : inner)}
            </Text>{' '}
          </Text>
        ),
      )}
      <Text dimColor wrap="truncate">
        {` ${pad(content.footer, inner)} `}
      </Text>
    </Box>
  );
}
