/**
 * One tile as a single line, for the rows layout: number, name, state, source and age; the rest
 * of the line (the body writer's) shows the last line of its screen.
 */
import { Text } from 'ink';
import { printable } from '../../platform/printable.js';
import { age, provenance, showsAge, stateWords, STATE_LOOK } from '../format.js';
import type { HeaderTile } from '../header.js';
import { displayWidth } from '../display-width.js';
import { ellipsized, MARK } from '../header.js';
import { requestWords } from '../../agents/permission-choices.js';

export function CompactRow({ tile, width, selected, color }: { tile: HeaderTile; width: number; selected: boolean; color: boolean }) {
  const look = STATE_LOOK[tile.state];
  const label = fit(`${selected ? '▸' : ' '} ${tile.id} ${printable(tile.name)}${tile.marked ? ` ${MARK}` : ''}`, 18);
  const detail = [provenance(tile.source, tile.state), ...(showsAge(tile.state) ? [age(tile.sinceMs)] : []), ...(tile.muted ? ['muted'] : [])].join(' · ');
  const stateText = `${look.glyph} ${tile.state === 'blocked' && tile.asks ? requestWords(tile.asks) : stateWords(tile.state, tile.kind)}`;
  const rest = fit(` ${stateText} · ${detail}`, Math.max(0, width - 18 - 1));
  const words = stateText.length + 1;
  return (
    <Text wrap="truncate">
      <Text bold={selected} inverse={selected && !color}>
        {label}
      </Text>
      <Text {...(color ? { color: look.color } : {})} {...(tile.unseen ? { inverse: true, bold: true } : {})}>
        {rest.slice(0, words)}
      </Text>
      <Text dimColor>{rest.slice(words)}</Text>
      <Text dimColor>│</Text>
    </Text>
  );
}

/** `text` padded, or cut with an ellipsis, to exactly `width` display columns (the header's
 * measure: a CJK letter is two). */
function fit(text: string, width: number): string {
  const shown = ellipsized(text, width);
  return shown + ' '.repeat(Math.max(0, width - displayWidth(shown)));
}
