/**
 * The overlays' content and place: the `?` key list, a tile's "why", and the quit question. Pure,
 * so the Ink component that draws an overlay and the body writer that must not paint under it use
 * the same rectangle.
 */
import { printableLine } from '../platform/printable.js';
import type { WhyEntry } from '../verdict/state.js';
import { whyNote } from '../verdict/why-log.js';
import { age, provenance, stateWords } from './format.js';
import { keyHelp } from './keymap.js';
import type { Rect } from './layout.js';
import type { Overlay } from './ui-state.js';
import { findTiles } from './tile-finder.js';
import type { Findable } from './tile-finder.js';
import stringWidth from 'string-width';
import { changesWords } from '../worktree/worktree-changes.js';
import type { ReviewOverlay, ReviewTone } from './review.js';
import { closeWorktreeWords } from './close-worktree.js';

export interface OverlayLine {
  text: string;
  tone?: 'title' | 'dim' | 'key' | 'warn' | ReviewTone;
  /** Stands out (inverse): the line a search stopped on. */
  mark?: boolean;
  /** For two-column lines (key, what it does): the first column's text. */
  key?: string;
}

export interface OverlayContent {
  title: string;
  lines: OverlayLine[];
  footer: string;
  /** The first line shown, when the lines do not all fit (the `?` list scrolls). */
  offset?: number;
  /** Takes the whole screen (the review), whatever its lines' width. */
  full?: boolean;
}

export interface WhyFacts {
  id: number;
  name: string;
  state: Parameters<typeof stateWords>[0];
  kind?: string;
  source: string;
  reason: string;
  sinceMs: number;
  /** The agent's model and context, its own words for its state. */
  facts?: string;
  says?: string;
  /** What the tile could not set up, and how it copes. */
  notice?: string;
  /** belltower's own word about the tile (a conversation it could not resume). */
  note?: string;
  /** Where a remote tile runs and what belltower hears from it there. */
  remote?: string;
  /** A blocked tile's request: what it asks, whole, and the options its dialog draws. */
  request?: { readonly asks: string; readonly options: readonly { readonly key: string; readonly label: string }[] };
  entries: readonly WhyEntry[];
}

export interface OverlayFacts {
  escapeKey: string;
  why: WhyFacts | null;
  /** The `?` list's first line shown. */
  helpOffset?: number;
  /** The tiles, for the finder. */
  tiles?: readonly (Findable & {
    state: Parameters<typeof stateWords>[0];
    request?: { readonly asks: string; readonly options: readonly { readonly key: string; readonly label: string }[] };
    changes?: { readonly branch: string | null; readonly added: number; readonly removed: number; readonly files: number };
    worktree?: { readonly baseName: string; readonly base: string };
  })[];
  /** How many lines fit inside an overlay's box on this terminal. */
  fit?: number;
  /** The grid is a session server's client: d leaves it with the tiles running. */
  detachable?: boolean;
}

export function overlayContent(overlay: Overlay, facts: OverlayFacts, maxWidth: number): OverlayContent {
  switch (overlay.type) {
    case 'help': {
      const groups = keyHelp(facts.escapeKey);
      const keyWidth = Math.max(...groups.flatMap((g) => g.rows.map(([key]) => key.length))) + 2;
      // The box is at most maxWidth - 2 wide inside: a long line wraps under its own column.
      const textWidth = Math.max(16, maxWidth - 2 - keyWidth);
      const lines: OverlayLine[] = [];
      for (const group of groups) {
        lines.push({ text: `${group.mode} mode`.replace('overlays mode', 'in an overlay'), tone: 'title' });
        for (const [key, help] of group.rows) wrapWords(help, textWidth).forEach((text, i) => lines.push({ key: i === 0 ? key : '', text }));
      }
      const fit = facts.fit ?? lines.length;
      const offset = Math.max(0, Math.min(facts.helpOffset ?? 0, lines.length - fit));
      const more = lines.length > fit ? `${offset > 0 ? '↑ ' : ''}${offset + fit < lines.length ? '↓ ' : ''}more (${offset + 1}–${Math.min(lines.length, offset + fit)} of ${lines.length}) · ` : '';
      return { title: 'keys', lines, footer: `${more}Esc or ? closes`, offset };
    }
    case 'find': {
      const tiles = facts.tiles ?? [];
      const matches = findTiles(tiles, overlay.text);
      const fit = Math.max(1, (facts.fit ?? 12) - 1);
      const pick = Math.min(overlay.pick, Math.max(0, matches.length - 1));
      const first = Math.max(0, Math.min(pick - fit + 1, matches.length - fit));
      const shown = matches.slice(Math.max(0, first), Math.max(0, first) + fit);
      const lines: OverlayLine[] = [
        { key: '▸ find', text: `${printableLine(overlay.text, maxWidth - 20)}▏` },
        ...(matches.length === 0 ? [{ text: 'no tile has that number or name', tone: 'warn' as const }] : []),
        ...shown.map((index) => {
          const tile = tiles[index]!;
          const picked = index === matches[pick];
          return { key: `${picked ? '›' : ' '} ${tile.id}`, text: printableLine(`${tile.name ?? ''} · ${stateWords(tile.state)}`, maxWidth - 12), ...(picked ? { tone: 'title' as const } : {}) };
        }),
      ];
      return { title: 'find a tile', lines, footer: 'type a number or letters · ↑↓ pick · Enter selects · Esc cancels' };
    }
    case 'add': {
      const labels = ['run', 'folder', 'name', 'worktree'];
      const hints = ['claude, codex, gemini, shell, or a command line (Tab completes)', 'relative to where belltower started', 'optional: from what it runs', 'optional: a new branch name (or +) starts it in its own git worktree'];
      const lines: OverlayLine[] = overlay.fields.map((value, i) => ({
        key: `${i === overlay.field ? '▸' : ' '} ${labels[i]}`,
        text: i === overlay.field ? `${printableLine(value, maxWidth - 20)}▏` : value === '' ? hints[i]! : printableLine(value, maxWidth - 20),
        ...(i !== overlay.field && value === '' ? { tone: 'dim' as const } : {}),
      }));
      // The error and Tab's matches go under the field they are about.
      const under: OverlayLine[] = [
        ...(overlay.error ? [{ text: printableLine(overlay.error, maxWidth - 4), tone: 'warn' as const }] : []),
        ...(overlay.hint ? [{ text: printableLine(overlay.hint, maxWidth - 4), tone: 'dim' as const }] : []),
      ];
      lines.splice(overlay.field + 1, 0, ...under);
      return { title: 'add a tile', lines, footer: 'Enter adds · Tab next field · Esc cancels' };
    }
    case 'reply': {
      const tile = facts.tiles?.find((t) => t.id === overlay.tileId);
      const asks = overlay.deny && tile?.request?.asks ? [{ key: 'denies', text: printableLine(tile.request.asks, maxWidth - 20), tone: 'dim' as const }] : [];
      if (overlay.question) {
        const options = (tile?.request?.options ?? []).map((o) => ({ key: `  ${o.key}`, text: printableLine(o.label, maxWidth - 20) }));
        return {
          title: `answer ${overlay.tileId} ${printableLine(tile?.name ?? '', 30)}: ${printableLine(tile?.request?.asks ?? '', maxWidth - 50)}`,
          lines: [...(options.length > 0 ? options : [{ text: 'its question shows no numbered options yet', tone: 'warn' as const }]), { key: '▸ or', text: `${printableLine(overlay.text, maxWidth - 20)}▏` }, ...(overlay.error ? [{ text: overlay.error, tone: 'warn' as const }] : [])],
          footer: 'a digit picks that option · or type an answer and ⏎ · Esc drops it',
        };
      }
      return {
        title: overlay.marked
          ? `send to ${overlay.marked.length} marked tiles: ${printableLine(overlay.marked.map((id) => `${id} ${facts.tiles?.find((t) => t.id === id)?.name ?? ''}`).join(', '), maxWidth - 30)}`
          : `${overlay.deny ? 'deny and tell' : 'send to'} ${overlay.tileId} ${printableLine(tile?.name ?? '', 30)}${tile ? ` · ${stateWords(tile.state)}` : ''}`,
        lines: [...asks, { key: '▸ line', text: `${printableLine(overlay.text, maxWidth - 20)}▏` }, ...(overlay.error ? [{ text: overlay.error, tone: 'warn' as const }] : [])],
        footer: overlay.deny ? 'Enter denies the request, then types this into its prompt · Esc drops it' : 'Enter types it into the tile and submits it · Esc drops it',
      };
    }
    case 'peek': {
      const tile = facts.tiles?.find((t) => t.id === overlay.tileId);
      return {
        title: `peek ${overlay.tileId} ${printableLine(tile?.name ?? '', 30)}${tile ? ` · ${stateWords(tile.state)}` : ' · gone'}`,
        lines: [],
        footer: 'Esc back · Enter focuses it',
      };
    }
    case 'rename':
      return {
        title: `rename tile ${overlay.tileId}`,
        lines: [{ key: '▸ name', text: `${printableLine(overlay.text, maxWidth - 20)}▏` }, ...(overlay.error ? [{ text: overlay.error, tone: 'warn' as const }] : [])],
        footer: 'Enter renames · Esc cancels',
      };
    case 'confirm':
      return {
        title: `${overlay.action} tile ${overlay.tileId}?`,
        lines: [
          { text: `It is ${overlay.state}.`, tone: 'warn' },
          { text: overlay.action === 'close' ? 'Closing ends its processes and removes the tile.' : 'Restarting ends its processes and runs it again in the same place.' },
        ],
        footer: `y ${overlay.action}s it · any other key leaves it`,
      };
    case 'quit':
      return {
        title: 'quit belltower?',
        lines: [
          { text: `${overlay.busy} ${overlay.busy === 1 ? 'agent is' : 'agents are'} working or blocked.`, tone: 'warn' },
          { text: 'Quitting ends every tile (SIGHUP, as closing a terminal does).' },
        ],
        footer: facts.detachable ? 'y quits · d detaches (every tile keeps running) · any other key stays' : 'y quits · any other key keeps them running',
      };
    case 'review':
      return reviewContent(overlay, facts, maxWidth);
    case 'close-worktree': {
      const words = closeWorktreeWords(overlay);
      return { title: words.title, lines: words.lines.map((line) => ({ ...line, text: printableLine(line.text, Math.max(20, maxWidth - 4)) })), footer: words.footer };
    }
    case 'why': {
      const why = facts.why;
      if (!why) return { title: 'why', lines: [{ text: 'that tile is gone' }], footer: 'Esc or w closes' };
      const width = Math.max(20, maxWidth - 4);
      const lines: OverlayLine[] = [
        { text: `${stateWords(why.state, why.kind)} for ${age(why.sinceMs)}, decided by ${provenance(why.source, why.state)}`, tone: 'title' },
        { text: printableLine(why.reason, width) },
        ...(why.request ? requestLines(why.request, width) : why.says ? [{ text: `the agent says: ${printableLine(why.says, width - 16)}`, tone: 'dim' as const }] : []),
        ...(why.facts ? [{ text: printableLine(why.facts, width), tone: 'dim' as const }] : []),
        ...(why.remote ? [{ text: printableLine(why.remote, width), tone: 'dim' as const }] : []),
        ...(why.notice ? [{ text: printableLine(why.notice, width), tone: 'warn' as const }] : []),
        ...(why.note ? [{ text: `belltower: ${printableLine(why.note, width - 11)}`, tone: 'dim' as const }] : []),
        { text: '' },
        { text: why.entries.length > 0 ? 'last signals, newest last:' : 'no signals yet', tone: 'dim' },
        ...why.entries.map((entry) => ({
          key: `${(entry.t / 1000).toFixed(1)}s`,
          text: printableLine(`${provenance(entry.source, entry.signal === 'exit' ? 'exited' : 'starting')} ${entry.signal}: ${whyNote(entry)}`, width - 10),
        })),
      ];
      return { title: `why ${why.id} ${printableLine(why.name, 30)}`, lines, footer: 'Esc or w closes' };
    }
  }
}

/** The review (`D`): the lines that fit from its offset, git's diff cut to the box's width. */
function reviewContent(review: ReviewOverlay, facts: OverlayFacts, maxWidth: number): OverlayContent {
  const tile = facts.tiles?.find((t) => t.id === review.tileId);
  const against = tile?.worktree ? `against ${tile.worktree.baseName} (${tile.worktree.base.slice(0, 10)})` : 'against HEAD';
  const title = `review ${review.tileId} ${printableLine(tile?.name ?? '', 30)} · ${tile?.changes ? changesWords(tile.changes.branch, tile.changes) : 'its changes'} · ${against}`;
  const width = Math.max(10, maxWidth - 2);
  const fit = facts.fit ?? 20;
  if (review.error !== null) return { title, lines: [{ text: printableLine(review.error, width), tone: 'warn' }], footer: 'Esc closes', full: true };
  if (review.lines === null) return { title, lines: [{ text: 'asking git…', tone: 'dim' }], footer: 'Esc closes', full: true };
  const lines = review.lines;
  const shown = lines.slice(review.offset, review.offset + fit).map((line, i) => ({
    text: printableLine(line.text, width),
    ...(line.tone ? { tone: line.tone } : {}),
    ...(review.found === review.offset + i ? { mark: true } : {}),
  }));
  const where = lines.length > fit ? `lines ${review.offset + 1}–${Math.min(lines.length, review.offset + fit)} of ${lines.length} · ` : '';
  const search = review.search;
  const footer = search?.typing
    ? `/${printableLine(search.text, Math.max(8, maxWidth - 40))}▏ · Enter finds · Esc cancels`
    : review.found === 'none'
      ? `no line has "${printableLine(search?.text ?? '', 30)}" · / searches again · Esc closes`
      : `${where}↑↓ PgUp PgDn g G · ] [ files · / search${search ? ' · n N next' : ''} · Esc closes`;
  return { title, lines: shown, footer, full: true };
}

/** `text` in lines of at most `width` columns, broken between words (a word longer than a line is
 * cut there). */
/** A request whole (wrapped, never cut) and its options as the dialog draws them, each its own line. */
function requestLines(request: NonNullable<WhyFacts['request']>, width: number): OverlayLine[] {
  const asks = request.asks ? wrapWords(`it asks: ${printableLine(request.asks, 4 * width)}`, width).map((text) => ({ text })) : [{ text: 'it asks something it did not name', tone: 'dim' as const }];
  const options = request.options.length > 0 ? request.options.map((option) => ({ key: `  ${option.key}.`, text: printableLine(option.label, width - 6) })) : [{ text: 'its options are not drawn yet', tone: 'dim' as const }];
  return [...asks, ...options];
}

export function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const next = line === '' ? word : `${line} ${word}`;
    if (stringWidth(next) <= width) {
      line = next;
      continue;
    }
    if (line !== '') lines.push(line);
    line = word;
    while (stringWidth(line) > width) {
      lines.push(line.slice(0, width));
      line = line.slice(width);
    }
  }
  if (line !== '' || lines.length === 0) lines.push(line);
  return lines;
}

/** The peek box: the tile's screen at its own size inside a frame, title and footer, as far as
 * the terminal allows; its body is the screen's rectangle within. */
export function peekRect(screenCols: number, screenRows: number, cols: number, rows: number): { outer: Rect; body: Rect } {
  const width = Math.max(24, Math.min(screenCols + 4, cols - 2));
  const height = Math.max(5, Math.min(screenRows + 4, rows - 2));
  const outer = { x: Math.max(0, Math.floor((cols - width) / 2)), y: Math.max(0, Math.floor((rows - 1 - height) / 2)), width, height };
  return { outer, body: { x: outer.x + 2, y: outer.y + 2, width: Math.max(0, width - 4), height: Math.max(0, height - 4) } };
}

/** How many of an overlay's lines fit inside its box on a terminal this tall. */
export function overlayFit(rows: number): number {
  return Math.max(1, rows - 2 - 4);
}

/** The overlay's box, centred over the grid area, never larger than the terminal allows. */
export function overlayRect(content: OverlayContent, cols: number, rows: number): Rect {
  if (content.full) return { x: Math.min(1, cols), y: 0, width: Math.max(0, cols - 2), height: Math.max(0, rows - 2) };
  const keyWidth = Math.max(0, ...content.lines.map((l) => (l.key ? l.key.length + 2 : 0)));
  const inner = Math.max(content.title.length + 4, content.footer.length, ...content.lines.map((l) => keyWidth + l.text.length));
  const width = Math.min(Math.max(24, inner + 4), Math.max(0, cols - 2));
  const height = Math.min(content.lines.length + 4, Math.max(0, rows - 2));
  return { x: Math.max(0, Math.floor((cols - width) / 2)), y: Math.max(0, Math.floor((rows - 1 - height) / 2)), width, height };
}

/** The first column's width for two-column lines. */
export function keyColumn(content: OverlayContent): number {
  return Math.max(0, ...content.lines.map((l) => (l.key ? l.key.length + 2 : 0)));
}
