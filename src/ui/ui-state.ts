/**
 * What the grid is doing (mode, selection, zoom, overlay) and how each input event changes it.
 * Pure: `handleInput(state, event, context) → { state, effects }`, with time and the tiles passed
 * in. The shell performs the effects (writes to a pty, marks a tile seen, quits).
 */
import type { AnswerChoice } from '../control/protocol.js';
import type { InputModes } from '../session/screen.js';
import type { TileStateName } from '../verdict/state.js';
import { keypadText, type InputEvent } from './input-parser.js';
import { DOUBLE_PRESS_MS, gridAction, showKey } from './keymap.js';
import { looked, NO_ATTENTION, toggleMute } from './attention.js';
import type { Attention } from './attention.js';
import { LAYOUT_MODES, moveFrom } from './layout.js';
import { follow, scrollKey, startScroll } from './scroll.js';
import type { ScrollSource, ScrollState } from './scroll.js';
import { mouseSelect, pointAt, scrollBy } from './copy-mode.js';
import type { CopyRange } from './copy-mode.js';
import { addFormKey, editText, newAddForm, renameFormKey, worktreeAsked } from './tile-forms.js';
import type { AddForm, Completions, RenameForm } from './tile-forms.js';
import { finderKey, newFinder } from './tile-finder.js';
import type { TileFinder } from './tile-finder.js';
import type { LayoutMode, TileRect } from './layout.js';
import { newReview, reviewKey } from './review.js';
import type { ReviewOverlay } from './review.js';
import { askCloseWorktree, closeWorktreeKey } from './close-worktree.js';
import type { CloseWorktreeEffect, CloseWorktreeOverlay } from './close-worktree.js';

export type Overlay =
  | { type: 'help' }
  | { type: 'why'; tileId: number }
  | { type: 'quit'; busy: number }
  /** Close or restart a tile that is working or blocked: asked first. */
  | { type: 'confirm'; action: 'close' | 'restart'; tileId: number; state: TileStateName }
  | AddForm
  | RenameForm
  | TileFinder
  /** A line typed for a tile from the grid, sent with Enter. */
  | {
      type: 'reply';
      tileId: number;
      text: string;
      error: string | null;
      deny?: { readonly request?: string };
      /** Answering the tile's question: a digit (while nothing is typed) picks that option; a line
       * typed is the answer in the user's own words. */
      question?: { readonly request?: string };
      marked?: readonly number[];
    }
  /** A tile's live screen shown over the grid. */
  | { type: 'peek'; tileId: number }
  /** A tile's changes: its diff, scrolled and searched (review.ts). */
  | ReviewOverlay
  /** Closing a worktree tile: keep its worktree or remove it (close-worktree.ts). */
  | CloseWorktreeOverlay;

export interface UiState {
  readonly mode: 'grid' | 'focus';
  /** Index of the selected tile (the focused one in focus mode). */
  readonly selected: number;
  readonly zoomed: boolean;
  readonly overlay: Overlay | null;
  /** Focus was just left with the escape key, at this time: a second press sends it on. */
  readonly leftFocusAt: number | null;
  /** Whether the terminal window has focus (focus reporting); true until it says otherwise. */
  readonly windowFocused: boolean;
  /** What the user has typed into the focused tile since the last Enter, while it can be known. */
  readonly typed: string | null;
  /** A short note for the status line, until a time. */
  readonly note: { readonly text: string; readonly until: number } | null;
  readonly attention: Attention;
  readonly layoutMode: LayoutMode;
  /** Idle tiles are left out of the layout (the selected one never is). */
  readonly hideIdle: boolean;
  /** Looking back through a tile's output. */
  readonly scroll: ScrollState | null;
  /** The last mouse press on a tile, for telling a double click. */
  readonly lastClick: { readonly tileId: number; readonly at: number } | null;
  /** Tile ids the user pinned big in the rows layout (`p`). */
  readonly pinned: readonly number[];
  /** Tile ids the user marked (`v`): `i` sends one line to all of them. */
  readonly marked: readonly number[];
  /** The `?` list scrolled this many lines down (it may not fit the terminal). */
  readonly helpOffset: number;
}

export const INITIAL_UI: UiState = {
  mode: 'grid',
  selected: 0,
  zoomed: false,
  overlay: null,
  leftFocusAt: null,
  windowFocused: true,
  typed: '',
  note: null,
  attention: NO_ATTENTION,
  layoutMode: 'auto',
  hideIdle: false,
  scroll: null,
  lastClick: null,
  pinned: [],
  marked: [],
  helpOffset: 0,
};

/** What the reducer needs to know of a tile. */
export interface TileSummary {
  readonly id: number;
  readonly name?: string;
  readonly state: TileStateName;
  readonly sinceMs: number;
  /** How the program wants its input encoded (absent once it has exited). */
  readonly modes?: InputModes;
  /** Blocked: the id of the request the last frame drew for it (an answer is for that one). */
  readonly shownRequest?: string;
  /** The git worktree belltower made for it: closing it asks what becomes of it. */
  readonly worktree?: { readonly path: string; readonly branch: string };
}

export interface InputContext {
  readonly now: number;
  readonly tiles: readonly TileSummary[];
  /** The grid as laid out without zoom: directions follow what the eye sees there. */
  readonly grid: readonly TileRect[];
  /** The rows layout's rows in drawn order, those scrolled out of view included. */
  readonly rowOrder?: readonly number[];
  /** Where the add form's Tab looks for programs and folders. */
  readonly completions?: Completions;
  /** How many lines the `?` list has, and how many of them fit on the screen. */
  readonly helpLines?: { readonly total: number; readonly fit: number };
  /** The key that leaves the focused tile (its own, or the default). */
  readonly escapeKey: string;
  /** The folder a new tile starts in unless the user says otherwise. */
  readonly cwd?: string;
  /** The selected tile's screen, for the scroll view (absent: no screen). */
  readonly scrollSource?: ScrollSource & { readonly alternate: boolean };
  /** The tiles as laid out on the screen now (zoom and rows included), for the mouse. */
  readonly shown?: readonly TileRect[];
  /** How many lines show at once in an overlay's box (the review scrolls by it). */
  readonly overlayFit?: number;
}

export type UiEffect =
  | { type: 'write'; tileId: number; data: string }
  /** The user submitted input in a focused tile; `local` when it was a slash command. */
  | { type: 'prompt'; tileId: number; local: boolean }
  | { type: 'seen'; tileId: number }
  /** `worktree`: in a new git worktree (`worktreeField`: as typed, for the form if it is refused). */
  | { type: 'add'; spec: string; cwd: string; name?: string; worktree?: { branch?: string }; worktreeField?: string }
  | { type: 'close'; tileId: number; remove?: NonNullable<Extract<CloseWorktreeEffect, { type: 'close' }>['remove']> }
  /** Read what removing the tile's worktree would lose, for the close question. */
  | { type: 'worktree-loss'; tileId: number; path: string }
  | { type: 'restart'; tileId: number }
  | { type: 'rename'; tileId: number; name: string }
  /** Answer the tile's permission request with the option its dialog shows for `answer`. */
  | { type: 'answer'; tileId: number; answer: AnswerChoice; request?: string; message?: string }
  /** Type `text` into the tile and submit it (as `belltower send --enter` does). */
  | { type: 'send'; tileIds: readonly number[]; text: string }
  /** Put these lines of the tile's buffer on the clipboard (the scroll view's `y`, a mouse drag). */
  | { type: 'copy'; tileId: number; range: CopyRange }
  /** Ask git for the tile's changes, for the review overlay open on it. */
  | { type: 'review'; tileId: number }
  /** Leave the grid with every tile running (a session server's client). */
  | { type: 'detach' }
  | { type: 'quit' };

export interface Step {
  state: UiState;
  effects: UiEffect[];
}

const NOTE_MS = 2500;

export function handleInput(state: UiState, event: InputEvent, ctx: InputContext): Step {
  if (event.type === 'focus') return focusReport(state, event.focused, ctx);
  if (event.type === 'mouse') return state.overlay ? { state, effects: [] } : mouseInput(state, event, ctx);
  if (state.overlay) return overlayInput(state, event, ctx);
  if (state.scroll) return scrollInput(state, event, ctx);
  if (state.mode === 'focus') return focusInput(state, event, ctx);
  return gridInput(state, event, ctx);
}

/** Keep the selection valid when tiles come and go. */
export function clampSelection(state: UiState, count: number): UiState {
  const selected = Math.max(0, Math.min(state.selected, count - 1));
  if (selected === state.selected) return state;
  return { ...state, selected, ...(count === 0 ? { mode: 'grid' as const, zoomed: false } : {}) };
}

/** Two presses on one tile within this long are a double click. */
export const DOUBLE_CLICK_MS = 400;
/** Lines one wheel notch scrolls. */
const WHEEL_LINES = 3;

type MouseEvent = Extract<InputEvent, { type: 'mouse' }>;
type KeyOrPaste = Extract<InputEvent, { type: 'key' | 'paste' }>;

/**
 * The mouse (`--mouse`): a click selects the tile under it, a double click focuses it, the wheel
 * scrolls its output. In focus mode, what happens inside the focused tile goes to its program when
 * the program asked for mouse reports (moved into its own coordinates); a click elsewhere leaves.
 */
function mouseInput(state: UiState, event: MouseEvent, ctx: InputContext): Step {
  const hit = ctx.shown?.find(({ outer }) => event.x >= outer.x && event.x < outer.x + outer.width && event.y >= outer.y && event.y < outer.y + outer.height);
  const tile = hit ? ctx.tiles[hit.index] : undefined;
  const wheel = event.button === 64 || event.button === 65;
  if (state.mode === 'focus') {
    const focused = ctx.tiles[state.selected];
    if (hit && focused && hit.index === state.selected && hit.kind !== 'row') {
      const { body } = hit;
      const inside = event.x >= body.x && event.x < body.x + body.width && event.y >= body.y && event.y < body.y + body.height;
      if (!inside || !focused.modes?.mouseTracking) return { state, effects: [] };
      const code = event.button | (event.motion ? 32 : 0);
      return { state, effects: [{ type: 'write', tileId: focused.id, data: `\x1b[<${code};${event.x - body.x + 1};${event.y - body.y + 1}${event.press ? 'M' : 'm'}` }] };
    }
    if (!event.press || wheel || event.motion || !tile || !focused) return { state, effects: [] };
    // A click on another tile: the keyboard comes back to the grid, on that tile.
    return { state: { ...state, mode: 'grid', selected: hit!.index, scroll: null }, effects: focusEffects(focused, false) };
  }
  if (wheel && tile && event.press) {
    const source = hit!.index === state.selected ? ctx.scrollSource : undefined;
    if (!source || source.alternate) return hit!.index === state.selected ? { state, effects: [] } : select(state, hit!.index, ctx);
    const scroll = state.scroll?.tileId === tile.id ? state.scroll : startScroll(tile.id, source, false);
    // The wheel moves the view (the cursor stays inside it), not the cursor.
    const next = scrollBy(follow(scroll, source), source, event.button === 64 ? WHEEL_LINES : -WHEEL_LINES);
    return { state: { ...state, scroll: next.offset === 0 && event.button === 65 && !next.selection ? null : next }, effects: [] };
  }
  // In the scroll view, the left button selects: a press in the body starts, a drag extends, the
  // release (wherever it is: it counts at the body's nearest cell) copies.
  const scroll = state.scroll;
  const source = ctx.scrollSource;
  const view = scroll && source && !source.alternate && ctx.tiles[state.selected]?.id === scroll.tileId ? ctx.shown?.find((t) => t.index === state.selected && t.kind !== 'row') : undefined;
  if (scroll && source && view && event.button === 0 && !wheel) {
    const { body } = view;
    const inside = event.x >= body.x && event.x < body.x + body.width && event.y >= body.y && event.y < body.y + Math.min(body.height, source.rows);
    const phase = !event.press ? 'release' : event.motion ? 'drag' : 'press';
    if (phase === 'press' ? inside : scroll.selection?.mouse === true) {
      const current = follow(scroll, source);
      const row = Math.max(0, Math.min(Math.min(body.height, source.rows) - 1, event.y - body.y));
      const col = Math.max(0, Math.min(body.width - 1, event.x - body.x));
      const result = mouseSelect(current, pointAt(current, source, row, col), phase);
      if ('exit' in result) return { state: { ...state, scroll: null }, effects: result.copy ? [{ type: 'copy', tileId: scroll.tileId, range: result.copy }] : [] };
      return { state: { ...state, scroll: result.state }, effects: [] };
    }
  }
  if (!event.press || event.motion || event.button !== 0 || !tile) return { state, effects: [] };
  const double = state.lastClick?.tileId === tile.id && ctx.now - state.lastClick.at <= DOUBLE_CLICK_MS;
  const clicked: UiState = { ...state, scroll: state.scroll?.tileId === tile.id ? state.scroll : null, lastClick: double ? null : { tileId: tile.id, at: ctx.now } };
  const selected = select(clicked, hit!.index, ctx);
  if (!double || tile.state === 'exited') return selected;
  return { state: lookAt({ ...selected.state, mode: 'focus', typed: '', scroll: null }, tile), effects: [...selected.effects, ...seenIfDone(tile), ...focusEffects(tile, true)] };
}

function focusReport(state: UiState, focused: boolean, ctx: InputContext): Step {
  const next = { ...state, windowFocused: focused };
  const tile = ctx.tiles[state.selected];
  // The focused agent hears its window's focus changes, if it asked to.
  if (state.mode === 'focus' && tile?.modes?.sendFocus) return { state: next, effects: [{ type: 'write', tileId: tile.id, data: focused ? '\x1b[I' : '\x1b[O' }] };
  return { state: next, effects: [] };
}

function gridInput(state: UiState, event: KeyOrPaste, ctx: InputContext): Step {
  if (event.type === 'paste') return { state, effects: [] };
  // The escape key pressed twice: back into the tile, and the key goes to its agent.
  if (event.name === ctx.escapeKey && state.leftFocusAt !== null && ctx.now - state.leftFocusAt <= DOUBLE_PRESS_MS) {
    const tile = ctx.tiles[state.selected];
    if (tile && tile.state !== 'exited') {
      return { state: { ...state, mode: 'focus', leftFocusAt: null, typed: null }, effects: [...focusEffects(tile, true), { type: 'write', tileId: tile.id, data: event.raw }] };
    }
  }
  const base = state.leftFocusAt === null ? state : { ...state, leftFocusAt: null };
  const action = gridAction(event.name);
  if (!action) return { state: base, effects: [] };
  const count = ctx.tiles.length;
  switch (action.type) {
    case 'move': {
      const to = moveFrom(ctx.grid, ctx.rowOrder, base.selected, action.direction);
      return select(base, to, ctx);
    }
    case 'jump': {
      const index = ctx.tiles.findIndex((t) => t.id === action.id);
      if (index < 0) return { state: noted(base, `there is no tile ${action.id}`, ctx.now), effects: [] };
      return select(base, index, ctx);
    }
    case 'focus': {
      const tile = ctx.tiles[base.selected];
      if (!tile) return { state: base, effects: [] };
      if (tile.state === 'exited') return { state: noted(base, `tile ${tile.id} has exited`, ctx.now), effects: [] };
      return { state: lookAt({ ...base, mode: 'focus', typed: '' }, tile), effects: [...seenIfDone(tile), ...focusEffects(tile, true)] };
    }
    case 'zoom': {
      const tile = ctx.tiles[base.selected];
      if (!tile) return { state: base, effects: [] };
      if (base.zoomed) return { state: { ...base, zoomed: false }, effects: [] };
      return { state: lookAt({ ...base, zoomed: true }, tile), effects: seenIfDone(tile) };
    }
    case 'mute': {
      const tile = ctx.tiles[base.selected];
      if (!tile) return { state: base, effects: [] };
      const attention = toggleMute(base.attention, tile.id);
      return { state: noted({ ...base, attention }, `tile ${tile.id} ${attention.muted.includes(tile.id) ? 'muted: no bell, no notification' : 'unmuted'}`, ctx.now), effects: [] };
    }
    case 'layout': {
      const layoutMode = LAYOUT_MODES[(LAYOUT_MODES.indexOf(base.layoutMode) + 1) % LAYOUT_MODES.length] ?? 'auto';
      return { state: noted({ ...base, layoutMode }, `layout: ${layoutMode}`, ctx.now), effects: [] };
    }
    case 'hide-idle':
      return { state: noted({ ...base, hideIdle: !base.hideIdle }, base.hideIdle ? 'idle tiles shown' : 'idle tiles hidden (H shows them)', ctx.now), effects: [] };
    case 'add':
      return { state: { ...base, overlay: newAddForm(ctx.cwd ?? '.') }, effects: [] };
    case 'rename': {
      const tile = ctx.tiles[base.selected];
      if (!tile) return { state: base, effects: [] };
      return { state: { ...base, overlay: { type: 'rename', tileId: tile.id, text: tile.name ?? '', error: null } }, effects: [] };
    }
    case 'close':
    case 'restart': {
      const tile = ctx.tiles[base.selected];
      if (!tile) return { state: base, effects: [] };
      if (action.type === 'close' && tile.worktree) return { state: { ...base, overlay: askCloseWorktree(tile.id, tile.state, tile.worktree) }, effects: [] };
      if (tile.state === 'working' || tile.state === 'blocked') return { state: { ...base, overlay: { type: 'confirm', action: action.type, tileId: tile.id, state: tile.state } }, effects: [] };
      return { state: base, effects: [{ type: action.type, tileId: tile.id }] };
    }
    case 'scroll': {
      const tile = ctx.tiles[base.selected];
      const source = ctx.scrollSource;
      if (!tile || !source) return { state: base, effects: [] };
      if (source.alternate) return { state: noted(base, `tile ${tile.id}'s program draws a full screen of its own (no scrollback here): scroll inside it`, ctx.now), effects: [] };
      return { state: { ...base, scroll: startScroll(tile.id, source, action.pageUp) }, effects: [] };
    }
    case 'next':
      return nextThatNeedsYou(base, ctx);
    case 'why': {
      const tile = ctx.tiles[base.selected];
      return tile ? { state: { ...base, overlay: { type: 'why', tileId: tile.id } }, effects: [] } : { state: base, effects: [] };
    }
    case 'help':
      return { state: { ...base, overlay: { type: 'help' }, helpOffset: 0 }, effects: [] };
    case 'find':
      return { state: { ...base, overlay: newFinder() }, effects: [] };
    case 'reply': {
      const tile = ctx.tiles[base.selected];
      if (!tile) return { state: base, effects: [] };
      // Marked tiles that still run take the line together; without marks, the selected tile.
      const marked = base.marked.filter((id) => ctx.tiles.some((t) => t.id === id && t.state !== 'exited'));
      if (marked.length > 0) return { state: { ...base, overlay: { type: 'reply', tileId: tile.id, text: '', error: null, marked } }, effects: [] };
      if (tile.state === 'exited') return { state: noted(base, `tile ${tile.id} has exited`, ctx.now), effects: [] };
      return { state: { ...base, overlay: { type: 'reply', tileId: tile.id, text: '', error: null } }, effects: [] };
    }
    case 'mark': {
      const tile = ctx.tiles[base.selected];
      if (!tile) return { state: base, effects: [] };
      const marked = base.marked.includes(tile.id) ? base.marked.filter((id) => id !== tile.id) : [...base.marked, tile.id];
      const count = marked.length === 0 ? 'no tile marked' : `${marked.length} marked: i sends to them`;
      return { state: noted({ ...base, marked }, `tile ${tile.id} ${marked.includes(tile.id) ? 'marked' : 'unmarked'} (${count})`, ctx.now), effects: [] };
    }
    case 'unmark-all': {
      return { state: noted({ ...base, marked: [] }, base.marked.length > 0 ? `${base.marked.length} marks cleared` : 'no tile is marked', ctx.now), effects: [] };
    }
    case 'answer': {
      const tile = ctx.tiles[base.selected];
      if (!tile) return { state: base, effects: [] };
      if (tile.state !== 'blocked') return { state: noted(base, `tile ${tile.id} is not asking anything (it is ${tile.state})`, ctx.now), effects: [] };
      const request = tile.shownRequest !== undefined ? { request: tile.shownRequest } : {};
      if (action.message) return { state: { ...base, overlay: { type: 'reply', tileId: tile.id, text: '', error: null, deny: request } }, effects: [] };
      if (action.question) return { state: { ...base, overlay: { type: 'reply', tileId: tile.id, text: '', error: null, question: request } }, effects: [] };
      return { state: answeredFrom(base, [tile.id]), effects: [{ type: 'answer', tileId: tile.id, answer: action.answer, ...request }] };
    }
    case 'peek': {
      const tile = ctx.tiles[base.selected];
      return tile ? { state: { ...base, overlay: { type: 'peek', tileId: tile.id } }, effects: [] } : { state: base, effects: [] };
    }
    case 'review': {
      const tile = ctx.tiles[base.selected];
      return tile ? { state: { ...base, overlay: newReview(tile.id) }, effects: [{ type: 'review', tileId: tile.id }] } : { state: base, effects: [] };
    }
    case 'pin': {
      const tile = ctx.tiles[base.selected];
      if (!tile) return { state: base, effects: [] };
      const pinned = base.pinned.includes(tile.id) ? base.pinned.filter((id) => id !== tile.id) : [...base.pinned, tile.id];
      const said = pinned.includes(tile.id) ? `tile ${tile.id} pinned big (the rows layout keeps it large)` : `tile ${tile.id} unpinned`;
      return { state: noted({ ...base, pinned }, said, ctx.now), effects: [] };
    }
    case 'detach':
      return { state: base, effects: [{ type: 'detach' }] };
    case 'quit': {
      const busy = ctx.tiles.filter((t) => t.state === 'working' || t.state === 'blocked').length;
      if (busy > 0) return { state: { ...base, overlay: { type: 'quit', busy } }, effects: [] };
      return { state: base, effects: [{ type: 'quit' }] };
    }
  }
}

function overlayInput(state: UiState, event: KeyOrPaste, ctx: InputContext): Step {
  const overlay = state.overlay;
  if (!overlay) return { state, effects: [] };
  if (overlay.type === 'add' || overlay.type === 'rename') return formInput(state, overlay, event, ctx.completions);
  if (overlay.type === 'find') return finderInput(state, overlay, event, ctx);
  if (overlay.type === 'reply') return replyInput(state, overlay, event, ctx);
  if (overlay.type === 'close-worktree') {
    if (event.type === 'paste') return { state, effects: [] };
    const step = closeWorktreeKey(overlay, event.name);
    const next = { ...state, overlay: step.overlay };
    return { state: step.note ? noted(next, step.note, ctx.now) : next, effects: step.effects };
  }
  if (overlay.type === 'review') {
    // A paste is typed into the search while one is typed, and is nothing otherwise.
    const keys = event.type === 'paste' ? (overlay.search?.typing ? Array.from(event.text.replace(/[\r\n]+/g, ' ')) : []) : [event.name];
    let review: ReviewOverlay = overlay;
    for (const key of keys) {
      const step = reviewKey(review, key, ctx.overlayFit ?? 20);
      if ('close' in step) return { state: { ...state, overlay: null }, effects: [] };
      review = step.review;
    }
    return { state: { ...state, overlay: review }, effects: [] };
  }
  if (event.type === 'paste') return { state, effects: [] };
  if (overlay.type === 'peek') {
    // Enter goes into the tile it shows; every other key closes it.
    const index = ctx.tiles.findIndex((t) => t.id === overlay.tileId);
    const tile = ctx.tiles[index];
    if (event.name === 'enter' && tile && tile.state !== 'exited') {
      return { state: lookAt({ ...state, overlay: null, selected: index, mode: 'focus', typed: '' }, tile), effects: [...seenIfDone(tile), ...focusEffects(tile, true)] };
    }
    return { state: { ...state, overlay: null }, effects: [] };
  }
  if (overlay.type === 'confirm') {
    if (event.name === 'y' || event.name === 'Y') return { state: { ...state, overlay: null }, effects: [{ type: overlay.action, tileId: overlay.tileId }] };
    return { state: noted({ ...state, overlay: null }, 'left as it is', ctx.now), effects: [] };
  }
  if (overlay.type === 'quit') {
    if (event.name === 'y' || event.name === 'Y') return { state: { ...state, overlay: null }, effects: [{ type: 'quit' }] };
    if (event.name === 'd') return { state: { ...state, overlay: null }, effects: [{ type: 'detach' }] };
    return { state: noted({ ...state, overlay: null }, 'still running', ctx.now), effects: [] };
  }
  // The key that opened an overlay closes it, as do Escape and q.
  const opener = overlay.type === 'why' ? 'w' : '?';
  if (event.name === 'escape' || event.name === 'q' || event.name === opener || event.name === 'enter') return { state: { ...state, overlay: null }, effects: [] };
  if (overlay.type === 'help' && ctx.helpLines) return { state: { ...state, helpOffset: scrolledHelp(state.helpOffset, event.name, ctx.helpLines) }, effects: [] };
  return { state, effects: [] };
}

/** The `?` list's first line after a key: ↑ ↓ j k by a line, PgUp PgDn space by a page. */
function scrolledHelp(offset: number, key: string, lines: { total: number; fit: number }): number {
  const page = Math.max(1, lines.fit - 1);
  const by = key === 'down' || key === 'j' ? 1 : key === 'up' || key === 'k' ? -1 : key === 'pagedown' || key === ' ' ? page : key === 'pageup' ? -page : key === 'home' || key === 'g' ? -Infinity : key === 'end' || key === 'G' ? Infinity : 0;
  return Math.max(0, Math.min(Math.max(0, lines.total - lines.fit), offset + by));
}

function replyInput(state: UiState, reply: Extract<Overlay, { type: 'reply' }>, event: KeyOrPaste, ctx: InputContext): Step {
  const keys = event.type === 'paste' ? Array.from(event.text.replace(/[\r\n]+/g, ' ')) : [event.name];
  let text = reply.text;
  for (const key of keys) {
    if (key === 'escape') return { state: { ...state, overlay: null }, effects: [] };
    if (reply.question && text === '' && /^[1-9]$/.test(key)) {
      return { state: answeredFrom({ ...state, overlay: null }, [reply.tileId]), effects: [{ type: 'answer', tileId: reply.tileId, answer: key as AnswerChoice, ...reply.question }] };
    }
    if (key === 'enter') {
      if (text.trim() === '') return { state: { ...state, overlay: { ...reply, text, error: 'type something to send, or Esc' } }, effects: [] };
      if (reply.marked) {
        const running = reply.marked.filter((id) => ctx.tiles.some((t) => t.id === id && t.state !== 'exited'));
        if (running.length === 0) return { state: noted({ ...state, overlay: null }, 'the marked tiles are gone: nothing sent', ctx.now), effects: [] };
        return { state: answeredFrom({ ...state, overlay: null }, running), effects: [{ type: 'send', tileIds: running, text }] };
      }
      if (!ctx.tiles.some((t) => t.id === reply.tileId && t.state !== 'exited')) return { state: noted({ ...state, overlay: null }, `tile ${reply.tileId} is gone: nothing sent`, ctx.now), effects: [] };
      const sent = answeredFrom({ ...state, overlay: null }, [reply.tileId]);
      if (reply.question) return { state: sent, effects: [{ type: 'answer', tileId: reply.tileId, answer: 'text', ...reply.question, message: text }] };
      if (reply.deny) return { state: sent, effects: [{ type: 'answer', tileId: reply.tileId, answer: 'deny', ...reply.deny, message: text }] };
      return { state: sent, effects: [{ type: 'send', tileIds: [reply.tileId], text }] };
    }
    text = editText(text, key) ?? text;
  }
  return { state: { ...state, overlay: { ...reply, text, error: null } }, effects: [] };
}

function finderInput(state: UiState, finder: TileFinder, event: KeyOrPaste, ctx: InputContext): Step {
  const keys = event.type === 'paste' ? Array.from(event.text.replace(/[\r\n]+/g, ' ')) : [event.name];
  let current = finder;
  for (const key of keys) {
    const result = finderKey(current, key, ctx.tiles);
    if ('cancel' in result) return { state: { ...state, overlay: null }, effects: [] };
    if ('select' in result) return select({ ...state, overlay: null }, result.select, ctx);
    current = result.finder;
  }
  return { state: { ...state, overlay: current }, effects: [] };
}

function formInput(state: UiState, form: AddForm | RenameForm, event: KeyOrPaste, completions: Completions | undefined): Step {
  // A paste is typed into the field, one line of it.
  const keys = event.type === 'paste' ? Array.from(event.text.replace(/[\r\n]+/g, ' ')) : [event.name];
  let current: AddForm | RenameForm = form;
  for (const key of keys) {
    const result = current.type === 'add' ? addFormKey(current, key, completions) : renameFormKey(current, key);
    if ('cancel' in result) return { state: { ...state, overlay: null }, effects: [] };
    if ('submit' in result) {
      const done = result.submit;
      if (done.type === 'add') {
        const [spec, cwd, name, worktree] = done.fields;
        const asked = worktreeAsked(worktree);
        return {
          state: { ...state, overlay: null },
          effects: [{ type: 'add', spec: spec.trim(), cwd: cwd.trim() || '.', ...(name.trim() ? { name: name.trim() } : {}), ...(asked ? { worktree: asked, worktreeField: worktree } : {}) }],
        };
      }
      return { state: { ...state, overlay: null }, effects: [{ type: 'rename', tileId: done.tileId, name: done.text.trim() }] };
    }
    current = result.form;
  }
  return { state: { ...state, overlay: current }, effects: [] };
}

function scrollInput(state: UiState, event: KeyOrPaste, ctx: InputContext): Step {
  const scroll = state.scroll;
  const source = ctx.scrollSource;
  if (!scroll || !source || ctx.tiles[state.selected]?.id !== scroll.tileId) return { state: { ...state, scroll: null }, effects: [] };
  const keys = event.type === 'paste' ? (scroll.typing !== null ? Array.from(event.text.replace(/[\r\n]+/g, ' ')) : []) : [event.name];
  let current = follow(scroll, source);
  let next: UiState = state;
  for (const key of keys) {
    const result = scrollKey(current, key, source);
    if ('exit' in result) return { state: { ...next, scroll: null }, effects: result.copy ? [{ type: 'copy', tileId: scroll.tileId, range: result.copy }] : [] };
    current = result.state;
    if ('note' in result) next = noted(next, result.note, ctx.now);
  }
  return { state: { ...next, scroll: current }, effects: [] };
}

function focusInput(state: UiState, event: KeyOrPaste, ctx: InputContext): Step {
  const tile = ctx.tiles[state.selected];
  if (!tile || tile.state === 'exited') return { state: { ...state, mode: 'grid' }, effects: [] };
  if (event.type === 'paste') {
    const data = tile.modes?.bracketedPaste ? `\x1b[200~${event.text}\x1b[201~` : event.text;
    return { state: lookAt({ ...state, typed: state.typed === null ? null : state.typed + event.text }, tile), effects: [...seenIfDone(tile), { type: 'write', tileId: tile.id, data }] };
  }
  if (event.name === ctx.escapeKey) {
    return { state: { ...state, mode: 'grid', leftFocusAt: ctx.now, note: { text: `press ${showKey(ctx.escapeKey)} again to send it to the agent`, until: ctx.now + DOUBLE_PRESS_MS } }, effects: focusEffects(tile, false) };
  }
  const effects: UiEffect[] = [...seenIfDone(tile), { type: 'write', tileId: tile.id, data: encodeKey(event.raw, tile.modes) }];
  if (event.name === 'enter') {
    effects.push({ type: 'prompt', tileId: tile.id, local: (state.typed ?? '').trimStart().startsWith('/') });
    return { state: lookAt({ ...state, typed: '' }, tile), effects };
  }
  return { state: lookAt({ ...state, typed: nextTyped(state.typed, event.name, keypadText(event.raw) ?? event.raw) }, tile), effects };
}

/** Only a line's start matters (a slash command): a longer line is not kept whole. */
const TYPED_KEPT = 64;

/** What the prompt line holds after a key, as far as keys tell (null once they cannot). */
function nextTyped(typed: string | null, name: string, raw: string): string | null {
  if (typed === null) return null;
  if (typed.length >= TYPED_KEPT && name !== 'backspace' && name !== 'ctrl-h' && name !== 'ctrl-u' && name !== 'ctrl-c') return typed;
  if (name === 'backspace' || name === 'ctrl-h') return typed.slice(0, -1);
  if (name === 'ctrl-u' || name === 'ctrl-c') return '';
  // A printable character (one code point, not a control or escape sequence).
  if (raw.length <= 2 && !/[\x00-\x1f\x7f]/.test(raw)) return typed + raw;
  return null;
}

/** Cursor keys as the program asked for them: SS3 in application cursor mode (DECCKM); keypad keys
 * (which the user's terminal sends as SS3, in the application keypad mode the UI sets) as SS3 in
 * application keypad mode (DECKPAM) and as the characters they type otherwise, as tmux does. */
export function encodeKey(raw: string, modes: InputModes | undefined): string {
  if (modes?.applicationCursorKeys && /^\x1b\[[ABCDHF]$/.test(raw)) return `\x1bO${raw[2]}`;
  const keypad = keypadText(raw);
  if (keypad !== undefined) return modes?.applicationKeypad ? raw : keypad;
  return raw;
}

function select(state: UiState, index: number | null, ctx: InputContext): Step {
  if (index === null || index === state.selected) return { state, effects: [] };
  const tile = ctx.tiles[index];
  const next = { ...state, selected: index };
  return state.zoomed && tile ? { state: lookAt(next, tile), effects: seenIfDone(tile) } : { state: next, effects: [] };
}

/**
 * The tiles that need you, in the order `n` visits them: what you have not seen first; then
 * blocked, failed, done; the one waiting longest first.
 */
export function needsYou(tiles: readonly TileSummary[], unseen: readonly number[] = []): number[] {
  const rank: Partial<Record<TileStateName, number>> = { blocked: 0, failed: 1, done: 2 };
  return tiles
    .map((tile, index) => ({ index, rank: rank[tile.state], since: tile.sinceMs, fresh: unseen.includes(tile.id) ? 0 : 1 }))
    .filter((t): t is { index: number; rank: number; since: number; fresh: number } => t.rank !== undefined || t.fresh === 0)
    .sort((a, b) => a.fresh - b.fresh || (a.rank ?? 3) - (b.rank ?? 3) || b.since - a.since || a.index - b.index)
    .map((t) => t.index);
}

function nextThatNeedsYou(state: UiState, ctx: InputContext): Step {
  const order = needsYou(ctx.tiles, state.attention.unseen);
  if (order.length === 0) return { state: noted(state, 'no tile needs you', ctx.now), effects: [] };
  const at = order.indexOf(state.selected);
  const to = order[(at + 1) % order.length] ?? order[0]!;
  if (to === state.selected) return { state: noted(state, 'this is the only tile that needs you', ctx.now), effects: [] };
  return select(state, to, ctx);
}

/** The user looks at the tile closely: nothing of it is unseen any more. */
function lookAt(state: UiState, tile: TileSummary): UiState {
  const attention = looked(state.attention, tile.id);
  return attention === state.attention ? state : { ...state, attention };
}

/** The user answered tiles or typed a line into them from the grid: they read what those tiles
 * asked, so nothing of them is unseen, and their next ring (the turn's end) is news again rather
 * than inside the last ring's quiet period. */
function answeredFrom(state: UiState, ids: readonly number[]): UiState {
  const attention = ids.reduce((sofar, id) => looked(sofar, id), state.attention);
  return attention === state.attention ? state : { ...state, attention };
}

function seenIfDone(tile: TileSummary): UiEffect[] {
  return tile.state === 'done' ? [{ type: 'seen', tileId: tile.id }] : [];
}

/** An agent that asked for focus reports hears when the keyboard comes to it and leaves. */
function focusEffects(tile: TileSummary, focused: boolean): UiEffect[] {
  return tile.modes?.sendFocus ? [{ type: 'write', tileId: tile.id, data: focused ? '\x1b[I' : '\x1b[O' }] : [];
}

/** `state` with a note on the status line for a moment. */
export function withNote(state: UiState, text: string, now: number, forMs = NOTE_MS): UiState {
  return noted(state, text, now, forMs);
}

function noted(state: UiState, text: string, now: number, forMs = NOTE_MS): UiState {
  return { ...state, note: { text, until: now + forMs } };
}
