/**
 * A tile's header, drawn into its top border: `╭ 1 api ───── ● working · hook · 2m10s ╮`. Pure:
 * segments with styles that add up to exactly the tile's width, dropping detail (age, then source,
 * then the state's words) before the name is cut.
 */
import { displayWidth } from './display-width.js';
import { printable } from '../platform/printable.js';
import type { TileStateName } from '../verdict/state.js';
import { age, provenance, showsAge, stateWords, STATE_LOOK } from './format.js';
import type { ChromeColor } from './format.js';
import { requestWords } from '../agents/permission-choices.js';
import type { TileInfo } from '../control/protocol.js';
import { changesWords } from '../worktree/worktree-changes.js';

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
  /** Marked (`v`) for a line sent to several tiles: ◉ after its name. */
  marked?: boolean;
  /** Shows its screen from before belltower restarted (its program has not drawn yet). */
  restored?: boolean;
  /** Scrolled back this many lines in the scroll view. */
  scrolled?: number;
  /** From the agent's log, e.g. `opus-5-5 · 12% context`: shown when there is room. */
  facts?: string;
  /** What its folder changed, `feat-login +120 −8 · 4 files`: shown before the facts, when there is room. */
  changes?: string;
  /** The host it runs on over ssh: `remote · devbox`, shown when there is room. */
  remote?: string;
  /** Its ssh connection failed or dropped: said instead of where the exit came from. */
  lost?: boolean;
  /** Remote: the remote shell did not find its program (exit 127). */
  notFound?: boolean;
  /** Blocked: what the agent asks, in its own words (`approve Bash \`npm test\``). */
  asks?: string;
}


/** The header's words for what a tile's folder changed: a worktree says its branch even before it
 * changed anything, any other folder only once it has changes (a clean checkout's header stays
 * as it was). */
export function changesLabel(tile: Pick<TileInfo, 'changes' | 'worktree'>): string | undefined {
  const { changes } = tile;
  if (!changes || (changes.files === 0 && !tile.worktree)) return undefined;
  return changesWords(changes.branch, changes);
}

/** After a marked tile's name, in its header and its row. */
export const MARK = '◉';

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
  const label = `${tile.id} ${printable(tile.name)}${tile.marked ? ` ${MARK}` : ''}`;
  // A tile named for its host (a remote login shell) says the host once.
  const where = tile.remote === undefined ? [] : tile.remote === tile.name ? ['remote'] : [`remote · ${printable(tile.remote)}`];
  const changes = tile.changes ? [printable(tile.changes)] : [];
  // The label with what there is room for: where it runs, its changes, the agent's facts; then
  // without the facts (its changes are what a user reviews first).
  const extras = [[...where, ...changes, ...(tile.facts ? [printable(tile.facts)] : [])], [...where, ...changes]];
  const labels = [...new Set(extras.filter((extra) => extra.length > 0).map((extra) => `${label} · ${extra.join(' · ')}`))];
  const words = stateWords(tile.state, tile.kind);
  const request = tile.state === 'blocked' && tile.asks ? requestWords(tile.asks) : null;
  const detail = [
    ...(tile.restored ? ['restored'] : []),
    tile.lost && tile.state === 'exited' ? 'connection lost' : tile.notFound && tile.state === 'exited' ? 'not on the remote PATH' : provenance(tile.source, tile.state),
    ...(showsAge(tile.state) ? [age(tile.sinceMs)] : []),
    ...(tile.muted ? ['muted'] : []),
    ...(tile.scrolled !== undefined ? [tile.scrolled > 0 ? `scrolled ↑${tile.scrolled}` : 'scroll view'] : []),
  ];
  // Most detail first; each later candidate drops something.
  // A request is what a user wants to read first: whole with the detail, whole alone, then cut
  // to the room a 12-column name leaves, before the plain state words.
  // The frame, glyph and spaces take 9 columns around the name and the request (fill ≥ 1).
  // Widths are display columns (a CJK letter is two), never characters: see displayWidth.
  const roomForRequest = width - Math.min(displayWidth(label), 12) - 9;
  const cutRequest = request && displayWidth(request) > roomForRequest && roomForRequest >= 12 ? ellipsized(request, roomForRequest) : null;
  const candidates: string[][] = [
    ...(request ? [[request, ...detail], [request, showsAge(tile.state) ? age(tile.sinceMs) : ''], [request], ...(cutRequest ? [[cutRequest]] : [])] : []),
    [words, ...detail],
    [words, detail[0] ?? ''],
    [words],
    [],
  ].map((parts) => parts.filter((p) => p !== ''));
  const fixed = 2 + 2; // corner + space on each side
  // With the agent's facts first, while the whole header then still fits without cutting.
  const tries: [string, string[]][] = [...labels.map((text) => [text, candidates[0]!] as [string, string[]]), ...candidates.map((c) => [label, c] as [string, string[]])];
  // Every candidate with the whole name first; only then the name cut, with what a request
  // keeps when cut (it was cut to leave a 12-column name) or with the glyph alone.
  const cutNames = tries.filter(([text, parts]) => text === label && (parts.length === 0 || (cutRequest !== null && parts.length === 1 && parts[0] === cutRequest)));
  for (const [[text, parts], cut] of [...tries.map((t) => [t, false] as const), ...cutNames.map((t) => [t, true] as const)]) {
    const right = [look.glyph, parts.length > 0 ? ` ${parts.join(' · ')}` : ''].join('');
    // The name's room: a space after it, at least one column of the line, a space before the right.
    const room = width - fixed - displayWidth(right) - 3;
    const whole = displayWidth(text) <= room;
    if (!whole && (!cut || room < 3)) continue;
    const name = whole ? text : ellipsized(text, room);
    const fill = width - fixed - displayWidth(name) - 1 - displayWidth(right) - 1;
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
  return segments.reduce((n, s) => n + displayWidth(s.text), 0);
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** The longest start of `text` at most `width` columns wide, never cutting a character (or an
 * emoji sequence) in two. */
export function cutToWidth(text: string, width: number): string {
  let out = '';
  let used = 0;
  for (const { segment } of graphemes.segment(text)) {
    const w = displayWidth(segment);
    if (used + w > width) break;
    out += segment;
    used += w;
  }
  return out;
}

/** `text` if it fits in `width` columns, or cut to fit with an ellipsis (never wider than `width`). */
export function ellipsized(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  return width <= 1 ? cutToWidth(text, Math.max(0, width)) : `${cutToWidth(text, width - 1)}…`;
}
