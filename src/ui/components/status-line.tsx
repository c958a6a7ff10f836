/** The last line: how many tiles are in each state, and the keys that matter now. */
import { Box, Text } from 'ink';
import type { TileStateName } from '../../verdict/state.js';
import { printable } from '../../platform/printable.js';
import { STATE_LOOK } from '../format.js';
import { showKey } from '../keymap.js';

export interface StatusLineProps {
  width: number;
  states: readonly TileStateName[];
  mode: 'grid' | 'focus';
  focusedName: string | null;
  zoomed: boolean;
  escapeKey: string;
  note: string | null;
  color: boolean;
  /** Tiles that rang and were not looked at yet. */
  unseen?: number;
  /** Idle tiles left out of the layout. */
  hidden?: number;
  /** The scroll view: lines up from the bottom, lines kept, the search being typed. */
  scroll?: { offset: number; length: number; typing: string | null } | null;
}

const ORDER: TileStateName[] = ['blocked', 'failed', 'done', 'working', 'starting', 'idle', 'unknown', 'exited'];

export function StatusLine({ width, states, mode, focusedName, zoomed, escapeKey, note, color, unseen = 0, hidden = 0, scroll = null }: StatusLineProps) {
  if (scroll) {
    const where = scroll.offset === 0 ? 'at the bottom' : `↑${scroll.offset} of ${scroll.length} lines`;
    const text = scroll.typing !== null ? ` search up: ${printable(scroll.typing)}▏` : ` SCROLL ${printable(focusedName ?? '')} · ${where}${note ? ` · ${note}` : ''}`;
    const keys = scroll.typing !== null ? 'Enter search · Esc cancel ' : 'PgUp PgDn ↑↓ · g G · / n N · Esc back ';
    return (
      <Box width={width} height={1}>
        <Text inverse bold wrap="truncate">
          {text}
        </Text>
        <Box flexGrow={1} />
        <Text dimColor wrap="truncate">
          {keys}
        </Text>
      </Box>
    );
  }
  const counts = ORDER.map((state) => ({ state, n: states.filter((s) => s === state).length })).filter((c) => c.n > 0);
  const hints =
    mode === 'focus'
      ? `${showKey(escapeKey)} back to the grid`
      : `n next · ⏎ focus · z ${zoomed ? 'unzoom' : 'zoom'} · w why · ? keys · q quit`;
  const left =
    mode === 'focus' ? ` FOCUS ${printable(focusedName ?? '')} ` : ` belltower · ${states.length} ${states.length === 1 ? 'tile' : 'tiles'}`;
  const countsText = counts.map((c) => `${c.n} ${c.state}`).join(' · ');
  const room = width - left.length - hints.length - 2;
  return (
    <Box width={width} height={1}>
      <Text wrap="truncate">
        <Text inverse={mode === 'focus'} bold>
          {left}
        </Text>
        {note ? (
          <Text {...(color ? { color: 'yellow' } : {})}> {note}</Text>
        ) : room >= 8 ? (
          counts.map((c) => (
            <Text key={c.state} {...(color ? { color: STATE_LOOK[c.state].color } : {})}>
              {' · '}
              {c.n} {c.state}
            </Text>
          ))
        ) : null}
        {!note && unseen > 0 ? <Text bold>{` · ${unseen} unseen`}</Text> : null}
        {!note && hidden > 0 ? <Text dimColor>{` · ${hidden} idle hidden`}</Text> : null}
      </Text>
      <Box flexGrow={1} />
      <Text dimColor wrap="truncate">
        {room >= 0 || !countsText ? hints : hints.slice(0, Math.max(0, width - left.length - 1))}{' '}
      </Text>
    </Box>
  );
}
