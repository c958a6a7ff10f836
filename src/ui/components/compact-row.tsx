/**
 * One tile as a single line, for the rows layout: number, name, state, source and age; the rest
 * of the line (the body writer's) shows the last line of its screen.
 */
import { memo } from 'react';
import { Text } from 'ink';
import { printable } from '../../platform/printable.js';
import { age, provenance, showsAge, stateWords, STATE_LOOK } from '../format.js';
import type { ChromeColor } from '../format.js';
import type { HeaderTile } from '../header.js';
import { displayWidth } from '../display-width.js';
import { ellipsized, MARK } from '../header.js';
import { requestWords } from '../../agents/permission-choices.js';

/** What a compact row draws: its texts and their styles. */
interface RowLook {
  label: string;
  /** The state's glyph and words, in the state's colour. */
  state: string;
  /** Where the state came from, its age, muted: dim. */
  detail: string;
  stateColor: ChromeColor | undefined;
  unseen: boolean;
  selected: boolean;
  color: boolean;
}

export function CompactRow({ tile, width, selected, color }: { tile: HeaderTile; width: number; selected: boolean; color: boolean }) {
  const look = STATE_LOOK[tile.state];
  const label = fit(`${selected ? '▸' : ' '} ${tile.id} ${printable(tile.name)}${tile.marked ? ` ${MARK}` : ''}`, 18);
  const detail = [provenance(tile.source, tile.state), ...(showsAge(tile.state) ? [age(tile.sinceMs)] : []), ...(tile.muted ? ['muted'] : [])].join(' · ');
  const stateText = `${look.glyph} ${tile.state === 'blocked' && tile.asks ? requestWords(tile.asks) : stateWords(tile.state, tile.kind)}`;
  const rest = fit(` ${stateText} · ${detail}`, Math.max(0, width - 18 - 1));
  const words = stateText.length + 1;
  return (
    <CompactRowText
      row={{ label, state: rest.slice(0, words), detail: rest.slice(words), stateColor: color ? look.color : undefined, unseen: tile.unseen ?? false, selected, color }}
    />
  );
}

// Memoised on what it draws: a row whose texts did not change (most of them, when one tile's
// state moves or the selection does) is not rendered again.
const CompactRowText = memo(
  function CompactRowText({ row }: { row: RowLook }) {
    return (
      <Text wrap="truncate">
        <Text bold={row.selected} inverse={row.selected && !row.color}>
          {row.label}
        </Text>
        <Text {...(row.stateColor ? { color: row.stateColor } : {})} {...(row.unseen ? { inverse: true, bold: true } : {})}>
          {row.state}
        </Text>
        <Text dimColor>{row.detail}</Text>
        <Text dimColor>│</Text>
      </Text>
    );
  },
  (a, b) =>
    a.row.label === b.row.label &&
    a.row.state === b.row.state &&
    a.row.detail === b.row.detail &&
    a.row.stateColor === b.row.stateColor &&
    a.row.unseen === b.row.unseen &&
    a.row.selected === b.row.selected &&
    a.row.color === b.row.color,
);

/** `text` padded, or cut with an ellipsis, to exactly `width` display columns (the header's
 * measure: a CJK letter is two). */
function fit(text: string, width: number): string {
  const shown = ellipsized(text, width);
  return shown + ' '.repeat(Math.max(0, width - displayWidth(shown)));
}
