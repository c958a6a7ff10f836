/**
 * The status line's words fitted to the terminal's width. Pure, so the order in which things give
 * way can be checked at every width without drawing anything; StatusLine only paints the result.
 *
 * What gives way first as the terminal narrows (docs/design.md, the status line):
 * - grid: the agents' token total (`1.2M tokens`, the least urgent thing on the line); the label's
 *   `belltower ·` (`20 tiles` is left); the `idle hidden` count; the counts that
 *   need nothing from the user (exited, unknown, idle, starting, then working); the key hints one at
 *   a time (`w why`, `z zoom`, `⏎ focus`, `q quit`, `n next`, and `? keys` last: it is how a newcomer
 *   finds every other key); the `N tiles` label; and only then the counts that say who needs you,
 *   from the least urgent (unseen, done, failed, blocked).
 * - focus: the token total, the idle-hidden and the other counts, then `back to the grid` shortens to `back`, then
 *   the tile's name is cut with … (to 12 columns, then as far as it must), then the needs-you counts
 *   go, least urgent first.
 *   `Ctrl+\ back` (the escape key) itself stays at any width from 40 columns up: it is the only way
 *   out for someone who has not read the keys.
 * - a note (a message for a few seconds) stands where the counts were; hints make room for it
 *   before it is cut with …, except the one that gets you out (`? keys`, the escape key).
 * - scroll view: `g G`, `/ n N`, then `PgUp PgDn ↑↓` go; `Esc back` stays; the name and the note
 *   are cut with …. Selecting (copy mode): `y copy · Esc cancel` stay; the name and the note are
 *   cut, then the line count goes.
 * A count is always whole or absent, never cut: `3 blo…` tells a reader nothing they can act on. Between the left part and the hints there are always at least two blanks.
 */
import { displayWidth } from './display-width.js';
import { printable } from '../platform/printable.js';
import type { TileStateName } from '../verdict/state.js';
import { showKey } from './keymap.js';
import { tokenCount } from '../sources/transcript/session-facts.js';

export interface StatusFacts {
  width: number;
  states: readonly TileStateName[];
  mode: 'grid' | 'focus';
  focusedName: string | null;
  zoomed: boolean;
  escapeKey: string;
  note: string | null;
  /** Tiles that rang and were not looked at yet. */
  unseen?: number;
  /** Idle tiles left out of the layout. */
  hidden?: number;
  /** Tokens every tile's agent used this session, as their logs count them (0: none said). */
  tokens?: number;
  /** The scroll view: lines up from the bottom, lines kept, the search being typed, and the
   * selection of copy mode (characters or lines, and how many lines it spans). */
  scroll?: { offset: number; length: number; typing: string | null; select?: { kind: 'char' | 'line'; lines: number } | null } | null;
}

export type StatusPart =
  | { kind: 'count'; state: TileStateName; text: string }
  | { kind: 'unseen'; text: string }
  | { kind: 'hidden'; text: string }
  | { kind: 'tokens'; text: string }
  | { kind: 'note'; text: string };

export interface StatusLineText {
  label: string;
  /** Focus and the scroll view show their label in reverse, so the mode cannot be missed. */
  labelStyle: 'plain' | 'inverse';
  /** After the label, each after its `lead` (what separates it from what comes before). */
  parts: (StatusPart & { lead: string })[];
  /** Blanks between the left part and the hints, at least MIN_GAP when there are hints; with it
   * the line is exactly `width` wide. */
  gap: number;
  hints: string;
  /** After the hints, so they do not touch the terminal's edge. */
  tail: string;
}

/** The counts that say a tile needs you, most urgent first. */
export const NEEDS_YOU: readonly TileStateName[] = ['blocked', 'failed', 'done'];
/** The other counts, in the order shown. */
export const OTHERS: readonly TileStateName[] = ['working', 'starting', 'idle', 'unknown', 'exited'];

/** A cut name or note keeps this much before the next thing gives way: less no longer reads. */
const NAME_MIN = 12;
const NOTE_MIN = 24;
const HINT_SEP = ' · ';
/** Between the left part and the hints: two blanks, so that without colour `6 unseen ? keys` does
 * not read as one phrase. */
const MIN_GAP = 2;

/** Something that can be cut to fit; `rank` says which gets spare room first. */
interface Slot {
  slot: string;
  min: number;
  from: 'end' | 'start';
  rank: number;
  /** Shown before it only when something of it is left. */
  lead?: string;
}
type Piece = string | Slot;

interface Draft {
  label: Piece[];
  labelStyle: 'plain' | 'inverse';
  parts: { lead: string; kind: StatusPart['kind']; state?: TileStateName; text: Piece }[];
  hints: string[];
}

/** One step narrower: drop an item, or let a slot be cut to `to` columns. */
type Step = { drop: string } | { cut: 'name' | 'note' | 'typing'; to: number };

interface Limits {
  dropped: ReadonlySet<string>;
  min: Readonly<Record<'name' | 'note' | 'typing', number>>;
}

export function statusLineText(facts: StatusFacts): StatusLineText {
  const width = Math.max(0, Math.floor(facts.width));
  const { build, steps } = facts.scroll ? scrollPlan(facts, facts.scroll) : facts.mode === 'focus' ? focusPlan(facts) : gridPlan(facts);
  const dropped = new Set<string>();
  const min = { name: Infinity, note: Infinity, typing: Infinity };
  for (let k = 0; ; k++) {
    const fitted = realize(build({ dropped, min }), width);
    if (fitted) return fitted;
    const step = steps[k];
    if (!step) break;
    if ('drop' in step) dropped.add(step.drop);
    else min[step.cut] = step.to;
  }
  return squeeze(build({ dropped, min: { name: 0, note: 0, typing: 0 } }), width);
}

/** The line as text, as drawn (for tests and for measuring). */
export function statusLinePlain(line: StatusLineText): string {
  return `${line.label}${line.parts.map((p) => p.lead + p.text).join('')}${' '.repeat(line.gap)}${line.hints}${line.tail}`;
}

function gridPlan(facts: StatusFacts): { build: (l: Limits) => Draft; steps: Step[] } {
  const n = facts.states.length;
  const tiles = `${n} ${n === 1 ? 'tile' : 'tiles'}`;
  const hints: [string, string][] = [
    ['next', 'n next'],
    ['focus', '⏎ focus'],
    ['zoom', facts.zoomed ? 'z unzoom' : 'z zoom'],
    ['why', 'w why'],
    ['keys', '? keys'],
    ['quit', 'q quit'],
  ];
  const build = ({ dropped, min }: Limits): Draft => {
    const label = dropped.has('label') ? '' : dropped.has('brand') ? ` ${tiles}` : ` belltower · ${tiles}`;
    const parts = facts.note ? [noteSlot(facts.note, min.note)] : counted(facts, dropped);
    return {
      label: [label],
      labelStyle: 'plain',
      parts: parts.map((p, i) => ({ ...p, lead: i === 0 && label === '' ? ' ' : ' · ' })),
      hints: hints.filter(([id]) => !dropped.has(id)).map(([, text]) => text),
    };
  };
  const steps: Step[] = facts.note
    ? [...drops('brand', 'why', 'zoom', 'focus', 'quit', 'next'), { cut: 'note', to: NOTE_MIN }, ...drops('keys', 'label'), { cut: 'note', to: 0 }]
    : drops('tokens', 'brand', 'hidden', ...[...OTHERS].reverse(), 'why', 'zoom', 'focus', 'quit', 'next', 'keys', 'label', 'unseen', ...[...NEEDS_YOU].reverse());
  return { build, steps };
}

function focusPlan(facts: StatusFacts): { build: (l: Limits) => Draft; steps: Step[] } {
  const name = printable(facts.focusedName ?? '');
  const key = showKey(facts.escapeKey);
  const build = ({ dropped, min }: Limits): Draft => ({
    label: [' FOCUS', { slot: name, min: min.name, from: 'end', rank: 1, lead: ' ' }, ' '],
    labelStyle: 'inverse',
    parts: (facts.note ? [noteSlot(facts.note, min.note)] : counted(facts, dropped)).map((p) => ({ ...p, lead: p.kind === 'note' ? ' ' : ' · ' })),
    hints: [dropped.has('long') ? `${key} back` : `${key} back to the grid`],
  });
  const steps: Step[] = facts.note
    ? [...drops('long'), ...NAME_AND_NOTE]
    : // The name is also on the tile's own frame; who else needs you is not, so the name goes first.
      [...drops('tokens', 'hidden', ...[...OTHERS].reverse(), 'long'), { cut: 'name', to: NAME_MIN }, { cut: 'name', to: 0 }, ...drops('unseen', ...[...NEEDS_YOU].reverse())];
  return { build, steps };
}

function scrollPlan(facts: StatusFacts, scroll: NonNullable<StatusFacts['scroll']>): { build: (l: Limits) => Draft; steps: Step[] } {
  if (scroll.typing !== null) {
    const typing = printable(scroll.typing);
    return {
      // The end of what is typed is where the cursor is: cut its start.
      build: ({ dropped, min }) => ({
        label: [' search up: ', { slot: typing, min: min.typing, from: 'start', rank: 0 }, '▏'],
        labelStyle: 'inverse',
        parts: [],
        hints: [...(dropped.has('enter') ? [] : ['Enter search']), 'Esc cancel'],
      }),
      steps: [...drops('enter'), { cut: 'typing', to: 0 }],
    };
  }
  if (scroll.select) {
    // Selecting: how to copy and how to cancel stay at every width; the name, the note and the
    // line count give way.
    const { kind, lines } = scroll.select;
    return {
      build: ({ dropped, min }) => ({
        label: [
          kind === 'line' ? ' SELECT LINES' : ' SELECT',
          { slot: printable(facts.focusedName ?? ''), min: min.name, from: 'end', rank: 1, lead: ' ' },
          ...(dropped.has('count') ? [] : [` · ${lines} ${lines === 1 ? 'line' : 'lines'}`]),
          ...(facts.note ? [{ slot: printable(facts.note), min: min.note, from: 'end' as const, rank: 0, lead: ' · ' }] : []),
        ],
        labelStyle: 'inverse',
        parts: [],
        hints: ['y copy', 'Esc cancel'],
      }),
      steps: [...NAME_AND_NOTE.slice(0, -1), ...drops('count'), { cut: 'note', to: 0 }],
    };
  }
  const where = scroll.offset === 0 ? 'at the bottom' : `↑${scroll.offset} of ${scroll.length} lines`;
  const hints: [string, string][] = [
    ['page', 'PgUp PgDn ↑↓'],
    ['ends', 'g G'],
    ['search', '/ n N'],
    ['back', 'Esc back'],
  ];
  return {
    build: ({ dropped, min }) => ({
      label: [' SCROLL', { slot: printable(facts.focusedName ?? ''), min: min.name, from: 'end', rank: 1, lead: ' ' }, ` · ${where}`, ...(facts.note ? [{ slot: printable(facts.note), min: min.note, from: 'end' as const, rank: 0, lead: ' · ' }] : [])],
      labelStyle: 'inverse',
      parts: [],
      hints: hints.filter(([id]) => !dropped.has(id)).map(([, text]) => text),
    }),
    steps: [...drops('ends', 'search', 'page'), ...NAME_AND_NOTE],
  };
}

/** A name and a note beside it give way in turns, so that neither is cut to nothing while the
 * other is still long. */
const NAME_AND_NOTE: Step[] = [
  { cut: 'note', to: NOTE_MIN },
  { cut: 'name', to: NAME_MIN },
  { cut: 'note', to: NAME_MIN },
  { cut: 'name', to: 0 },
  { cut: 'note', to: 0 },
];

function drops(...ids: string[]): Step[] {
  return ids.map((drop) => ({ drop }));
}

function noteSlot(note: string, min: number): Omit<Draft['parts'][number], 'lead'> {
  return { kind: 'note', text: { slot: printable(note), min, from: 'end', rank: 0 } };
}

/** The counts not dropped: who needs you first (with the unseen), then the rest. */
function counted(facts: StatusFacts, dropped: ReadonlySet<string>): Omit<Draft['parts'][number], 'lead'>[] {
  const count = (state: TileStateName) => facts.states.filter((s) => s === state).length;
  const shown = (states: readonly TileStateName[]) =>
    states.filter((state) => count(state) > 0 && !dropped.has(state)).map((state) => ({ kind: 'count' as const, state, text: `${count(state)} ${state}` }));
  const unseen = facts.unseen ?? 0;
  const hidden = facts.hidden ?? 0;
  return [
    ...shown(NEEDS_YOU),
    ...(unseen > 0 && !dropped.has('unseen') ? [{ kind: 'unseen' as const, text: `${unseen} unseen` }] : []),
    ...shown(OTHERS),
    ...(hidden > 0 && !dropped.has('hidden') ? [{ kind: 'hidden' as const, text: `${hidden} idle hidden` }] : []),
    ...(facts.tokens && !dropped.has('tokens') ? [{ kind: 'tokens' as const, text: `${tokenCount(facts.tokens)} tokens` }] : []),
  ];
}

/** The draft at `width`, or null when it does not fit with its slots at their least. */
function realize(draft: Draft, width: number): StatusLineText | null {
  const hints = draft.hints.join(HINT_SEP);
  const right = hints ? MIN_GAP + displayWidth(hints) + 1 : 0;
  const pieces = [...draft.label, ...draft.parts.flatMap((p) => [p.lead, p.text])];
  const fixed = pieces.reduce((sum, p) => sum + displayWidth(typeof p === 'string' ? p : (p.lead ?? '')), 0);
  const slots = pieces.filter((p): p is Slot => typeof p !== 'string');
  const fitted = share(slots, width - right - fixed);
  if (!fitted) return null;
  const text = (p: Piece) => {
    if (typeof p === 'string') return p;
    const t = fitted.get(p)!;
    return t === '' ? '' : (p.lead ?? '') + t;
  };
  const label = draft.label.map(text).join('');
  const parts = draft.parts.flatMap((p) => {
    const t = text(p.text);
    if (t === '') return [];
    return [p.kind === 'count' ? { kind: p.kind, state: p.state!, text: t, lead: p.lead } : { kind: p.kind, text: t, lead: p.lead }];
  });
  const left = displayWidth(label) + parts.reduce((sum, p) => sum + displayWidth(p.lead + p.text), 0);
  return { label, labelStyle: draft.labelStyle, parts, gap: Math.max(0, width - left - right) + (hints ? MIN_GAP : 0), hints, tail: hints ? ' ' : '' };
}

/** Each slot its least, then what is left to them by rank; null when even the least is too much. */
function share(slots: readonly Slot[], room: number): Map<Slot, string> | null {
  const want = slots.map((s) => Math.min(displayWidth(s.slot), s.min));
  let spare = room - want.reduce((a, b) => a + b, 0);
  if (spare < 0) return null;
  const out = new Map<Slot, string>();
  const byRank = slots.map((s, i) => ({ s, i })).sort((a, b) => a.s.rank - b.s.rank);
  for (const { s, i } of byRank) {
    const extra = Math.min(spare, displayWidth(s.slot) - want[i]!);
    spare -= extra;
    out.set(s, s.from === 'end' ? cutEnd(s.slot, want[i]! + extra) : cutStart(s.slot, want[i]! + extra));
  }
  return out;
}

/** Narrower than every step allows (well under 40 columns): the hints keep what they can, the left
 * part gets the rest. Only the label, a name and a note are left to cut here, never a count. */
function squeeze(draft: Draft, width: number): StatusLineText {
  const hints = cutEnd(draft.hints.join(HINT_SEP), Math.max(0, width - MIN_GAP - 1));
  const right = hints ? MIN_GAP + displayWidth(hints) + 1 : 0;
  const label = cutEnd(draft.label.map((p) => (typeof p === 'string' ? p : '')).join(''), Math.max(0, width - right));
  return { label, labelStyle: draft.labelStyle, parts: [], gap: Math.max(0, width - displayWidth(label) - right) + (hints ? MIN_GAP : 0), hints, tail: hints ? ' ' : '' };
}

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const graphemes = (text: string): string[] => Array.from(segmenter.segment(text), (s) => s.segment);

/** `text` in at most `max` columns, its end replaced by … when cut. */
export function cutEnd(text: string, max: number): string {
  if (displayWidth(text) <= max) return text;
  if (max <= 0) return '';
  let out = '';
  let used = 0;
  for (const g of graphemes(text)) {
    const w = displayWidth(g);
    if (used + w + 1 > max) break;
    out += g;
    used += w;
  }
  return `${out}…`;
}

/** `text` in at most `max` columns, its start replaced by … when cut. */
export function cutStart(text: string, max: number): string {
  if (displayWidth(text) <= max) return text;
  if (max <= 0) return '';
  let out = '';
  let used = 0;
  for (const g of graphemes(text).reverse()) {
    const w = displayWidth(g);
    if (used + w + 1 > max) break;
    out = g + out;
    used += w;
  }
  return `…${out}`;
}
