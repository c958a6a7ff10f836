/**
 * A tile's header, drawn into its top border: `╭ 1 api ───── ● working · hook · 2m10s ╮`. Pure:
 * segments with styles that add up to exactly the tile's width, dropping detail (age, then source,
 * then the state's words) before the name is cut.
 */
import { printable } from '../platform/printable.js';
import type { TileStateName } from '../verdict/state.js';
import { age, provenance, showsAge, stateWords, STATE_LOOK } from './format.js';
import type { ChromeColor } from './format.js';

export interface Segment {
  text: string;
  color?: ChromeColor;
  bold?: boolean;
  dim?: boolean;
  inverse?: boolean;
}

export interface HeaderTile {
  id: number;
  name: string;
  state: TileStateName;
  kind?: string;
  source: string;
  sinceMs: number;
  /** Rang and not looked at yet. */
  unseen?: boolean;
  muted?: boolean;
  /** Shows its screen from before belltower restarted (its program has not drawn yet). */
  restored?: boolean;
  /** Scrolled back this many lines in the scroll view. */
  scrolled?: number;
  /** From the agent's log, e.g. `opus-5-5 · 12% context`: shown when there is room. */
  facts?: string;
  /** The host it runs on over ssh: `remote · devbox`, shown when there is room. */
  remote?: string;
  /** Its ssh connection failed or dropped: said instead of where the exit came from. */
  lost?: boolean;
  /** Blocked: what the agent asks, in its own words (`approve Bash \`npm test\``). */
  asks?: string;
}

/** What a blocked tile asks, as its header and row say it: `approve Bash: npm test`. */
export function requestWords(asks: string): string {
  const approve = /^approve (\S+) `(.*)`$/s.exec(asks);
  return printable(approve ? `approve ${approve[1]}: ${approve[2]}` : asks);
}

export type FrameStyle = 'round' | 'bold' | 'double';

export const FRAME_CHARS: Readonly<Record<FrameStyle, { left: string; right: string; line: string }>> = {
  round: { left: '╭', right: '╮', line: '─' },
  bold: { left: '┏', right: '┓', line: '━' },
  double: { left: '╔', right: '╗', line: '═' },
};

export interface HeaderOptions {
  width: number;
  frame: FrameStyle;
  selected: boolean;
  color: boolean;
}

export function headerSegments(tile: HeaderTile, { width, frame, selected, color }: HeaderOptions): Segment[] {
  const chars = FRAME_CHARS[frame];
  const look = STATE_LOOK[tile.state];
  const border = color ? look.color : undefined;
  const label = `${tile.id} ${printable(tile.name)}`;
  // A tile named for its host (a remote login shell) says the host once.
  const where = tile.remote === undefined ? [] : tile.remote === tile.name ? ['remote'] : [`remote · ${printable(tile.remote)}`];
  const extra = [...where, ...(tile.facts ? [printable(tile.facts)] : [])];
  const withFacts = extra.length > 0 ? `${label} · ${extra.join(' · ')}` : null;
  const words = stateWords(tile.state, tile.kind);
  const request = tile.state === 'blocked' && tile.asks ? requestWords(tile.asks) : null;
  const detail = [
    ...(tile.restored ? ['restored'] : []),
    tile.lost && tile.state === 'exited' ? 'connection lost' : provenance(tile.source, tile.state),
    ...(showsAge(tile.state) ? [age(tile.sinceMs)] : []),
    ...(tile.muted ? ['muted'] : []),
    ...(tile.scrolled !== undefined ? [tile.scrolled > 0 ? `scrolled ↑${tile.scrolled}` : 'scroll view'] : []),
  ];
  // Most detail first; each later candidate drops something.
  // A request is what a user wants to read first: whole with the detail, whole alone, then cut
  // to the room a 12-column name leaves, before the plain state words.
  // The frame, glyph and spaces take 9 columns around the name and the request (fill ≥ 1).
  const roomForRequest = width - Math.min(label.length, 12) - 9;
  const cutRequest = request && request.length > roomForRequest && roomForRequest >= 12 ? `${request.slice(0, roomForRequest - 1)}…` : null;
  const candidates: string[][] = [
    ...(request ? [[request, ...detail], [request, showsAge(tile.state) ? age(tile.sinceMs) : ''], [request], ...(cutRequest ? [[cutRequest]] : [])] : []),
    [words, ...detail],
    [words, detail[0] ?? ''],
    [words],
    [],
  ].map((parts) => parts.filter((p) => p !== ''));
  const fixed = 2 + 2; // corner + space on each side
  // With the agent's facts first, while the whole header then still fits without cutting.
  const tries: [string, string[]][] = [...(withFacts ? [[withFacts, candidates[0]!] as [string, string[]]] : []), ...candidates.map((c) => [label, c] as [string, string[]])];
  for (const [text, parts] of tries) {
    const right = [look.glyph, parts.length > 0 ? ` ${parts.join(' · ')}` : ''].join('');
    const room = width - fixed - right.length - 1; // one space between name and the line
    if (text === withFacts && text.length + 1 > room) continue;
    if (room < Math.min(text.length, 3)) continue;
    const name = text.length <= room ? text : `${text.slice(0, Math.max(1, room - 1))}…`;
    const fill = width - fixed - name.length - 1 - right.length - 1;
    if (fill < 1) continue;
    return [
      { text: `${chars.left} `, ...(border ? { color: border } : {}) },
      { text: name, bold: selected, ...(selected && !color ? { inverse: true } : {}) },
      { text: ` ${chars.line.repeat(fill)} `, ...(border ? { color: border } : {}), dim: !selected && !color },
      { text: look.glyph, ...(color ? { color: look.color } : {}), bold: true },
      // Unseen: the state's words stand out (inverse) until the user looks at the tile.
      ...(parts.length > 0 ? [{ text: ' ' }, { text: parts[0]!, ...(color ? { color: look.color } : {}), ...(tile.unseen ? { inverse: true, bold: true } : {}) }] : []),
      ...(parts.length > 1 ? [{ text: ` · ${parts.slice(1).join(' · ')}`, dim: true }] : []),
      { text: ` ${chars.right}`, ...(border ? { color: border } : {}) },
    ];
  }
  // Narrower than any tile the layout draws: the plain frame.
  return [{ text: `${chars.left}${chars.line.repeat(Math.max(0, width - 2))}${chars.right}`.slice(0, Math.max(0, width)), ...(border ? { color: border } : {}) }];
}

export function segmentsWidth(segments: readonly Segment[]): number {
  return segments.reduce((n, s) => n + Array.from(s.text).length, 0);
}
