import { describe, expect, it } from 'vitest';
import { INITIAL_PARSER, parseInput } from '../../src/ui/input-parser.js';
import type { InputEvent } from '../../src/ui/input-parser.js';
import { DEFAULT_ESCAPE_KEY, DOUBLE_PRESS_MS } from '../../src/ui/keymap.js';
import { layout } from '../../src/ui/layout.js';
import { handleInput, INITIAL_UI, needsYou } from '../../src/ui/ui-state.js';
import type { InputContext, TileSummary, UiEffect, UiState } from '../../src/ui/ui-state.js';

const plainModes = { applicationCursorKeys: false, applicationKeypad: false, bracketedPaste: false, sendFocus: false, mouseTracking: false };

function tiles(...states: TileSummary['state'][]): TileSummary[] {
  return states.map((state, i) => ({ id: i + 1, state, sinceMs: 1000, modes: plainModes }));
}

function ctx(summaries: TileSummary[], now = 10_000): InputContext {
  const l = layout({ cols: 120, rows: 41, count: summaries.length });
  return { now, tiles: summaries, grid: l.kind === 'grid' ? l.tiles : [], escapeKey: DEFAULT_ESCAPE_KEY };
}

/** Feed raw terminal bytes through the parser and the reducer, collecting every effect. */
function type(state: UiState, bytes: string, context: InputContext): { state: UiState; effects: UiEffect[] } {
  const { events } = parseInput(INITIAL_PARSER, bytes);
  return run(state, events, context);
}

function run(state: UiState, events: InputEvent[], context: InputContext): { state: UiState; effects: UiEffect[] } {
  const effects: UiEffect[] = [];
  for (const event of events) {
    const step = handleInput(state, event, context);
    state = step.state;
    effects.push(...step.effects);
  }
  return { state, effects };
}

describe('grid mode', () => {
  const four = tiles('working', 'idle', 'done', 'blocked');

  it('moves the selection with arrows and h/j/k/l, and jumps with digits', () => {
    let s = type(INITIAL_UI, 'l', ctx(four)).state;
    expect(s.selected).toBe(1);
    s = type(s, 'j', ctx(four)).state;
    expect(s.selected).toBe(3);
    s = type(s, '\x1b[D', ctx(four)).state;
    expect(s.selected).toBe(2);
    s = type(s, '\x1b[A', ctx(four)).state;
    expect(s.selected).toBe(0);
    s = type(s, '4', ctx(four)).state;
    expect(s.selected).toBe(3);
    const beyond = type(s, '9', ctx(four)).state;
    expect(beyond.selected).toBe(3);
    expect(beyond.note?.text).toMatch(/no tile 9/);
  });

  it('focuses with Enter, marking a done tile seen', () => {
    const s0 = type(INITIAL_UI, '3', ctx(four)).state;
    const { state, effects } = type(s0, '\r', ctx(four));
    expect(state.mode).toBe('focus');
    expect(effects).toEqual([{ type: 'seen', tileId: 3 }]);
  });

  it('zooms and unzooms; the zoom follows the selection', () => {
    let s = type(INITIAL_UI, 'z', ctx(four)).state;
    expect(s.zoomed).toBe(true);
    s = type(s, '2', ctx(four)).state;
    expect([s.zoomed, s.selected]).toEqual([true, 1]);
    expect(type(s, 'z', ctx(four)).state.zoomed).toBe(false);
  });

  it('n goes to blocked first, then failed, then done, the longest waiting first, and cycles', () => {
    const mixed: TileSummary[] = [
      { id: 1, state: 'done', sinceMs: 9000, modes: plainModes },
      { id: 2, state: 'blocked', sinceMs: 100, modes: plainModes },
      { id: 3, state: 'failed', sinceMs: 50, modes: plainModes },
      { id: 4, state: 'done', sinceMs: 20_000, modes: plainModes },
      { id: 5, state: 'working', sinceMs: 99_000, modes: plainModes },
    ];
    expect(needsYou(mixed)).toEqual([1, 2, 3, 0]);
    let s: UiState = { ...INITIAL_UI, selected: 4 };
    const seen: number[] = [];
    for (let i = 0; i < 5; i++) {
      s = type(s, 'n', ctx(mixed)).state;
      seen.push(s.selected);
    }
    expect(seen).toEqual([1, 2, 3, 0, 1]);
    expect(type(INITIAL_UI, 'n', ctx(tiles('working', 'idle'))).state.note?.text).toMatch(/no tile needs you/);
  });

  it('q quits at once when nothing is busy, and asks first while an agent works or is blocked', () => {
    expect(type(INITIAL_UI, 'q', ctx(tiles('idle', 'done', 'exited'))).effects).toEqual([{ type: 'quit' }]);
    const asked = type(INITIAL_UI, 'q', ctx(four));
    expect(asked.effects).toEqual([]);
    expect(asked.state.overlay).toEqual({ type: 'quit', busy: 2 });
    expect(type(asked.state, 'y', ctx(four)).effects).toEqual([{ type: 'quit' }]);
    const kept = type(asked.state, 'n', ctx(four));
    expect(kept.effects).toEqual([]);
    expect(kept.state.overlay).toBeNull();
  });

  it('w and ? open overlays that Escape, q or their own key close, without acting on the grid', () => {
    const why = type(INITIAL_UI, 'w', ctx(four)).state;
    expect(why.overlay).toEqual({ type: 'why', tileId: 1 });
    expect(type(why, 'l', ctx(four)).state.selected).toBe(0);
    expect(type(why, 'w', ctx(four)).state.overlay).toBeNull();
    const help = type(INITIAL_UI, '?', ctx(four)).state;
    expect(help.overlay).toEqual({ type: 'help' });
    expect(run(help, [{ type: 'key', name: 'escape', raw: '\x1b' }], ctx(four)).state.overlay).toBeNull();
  });
});

describe('focus mode', () => {
  const one = tiles('working');
  const focused: UiState = { ...INITIAL_UI, mode: 'focus', typed: '' };

  it('sends every key to the agent as typed: control keys, Alt, function keys', () => {
    const bytes = 'ab\x03\x1bx\x1b[15~\x1b[1;5A\x1a\x1d';
    const { effects, state } = type(focused, bytes, ctx(one));
    expect(state.mode).toBe('focus');
    const written = effects.filter((e) => e.type === 'write').map((e) => (e as { data: string }).data).join('');
    expect(written).toBe(bytes);
  });

  it('leaves with the escape key; pressed twice, the key goes to the agent', () => {
    const left = type(focused, '\x1c', ctx(one, 1000));
    expect(left.state.mode).toBe('grid');
    expect(left.effects).toEqual([]);
    const twice = type(left.state, '\x1c', ctx(one, 1000 + DOUBLE_PRESS_MS - 1));
    expect(twice.state.mode).toBe('focus');
    expect(twice.effects).toEqual([{ type: 'write', tileId: 1, data: '\x1c' }]);
    // Too late: the second press is just the key in grid mode, which does nothing.
    const late = type(left.state, '\x1c', ctx(one, 1000 + DOUBLE_PRESS_MS + 1));
    expect(late.state.mode).toBe('grid');
    expect(late.effects).toEqual([]);
  });

  it('wraps a paste in bracketed-paste markers only when the agent turned that mode on', () => {
    const paste = '\x1b[200~hello\rworld\x1b[201~';
    expect(type(focused, paste, ctx(one)).effects).toEqual([{ type: 'write', tileId: 1, data: 'hello\rworld' }]);
    const wants = [{ ...one[0]!, modes: { ...plainModes, bracketedPaste: true } }];
    expect(type(focused, paste, ctx(wants)).effects).toEqual([{ type: 'write', tileId: 1, data: '\x1b[200~hello\rworld\x1b[201~' }]);
  });

  it('sends keypad keys the way the agent asked: SS3 in application keypad mode, what they type otherwise, as tmux does (issue 29)', () => {
    const keypad = '\x1bOq\x1bOu\x1bOM\x1bOj\x1bOp\x1bOn\x1bOo\x1bOk\x1bOm\x1bOw\x1bOx\x1bOy\x1bOt\x1bOv\x1bOr\x1bOs';
    const app = [{ ...one[0]!, modes: { ...plainModes, applicationKeypad: true } }];
    const sent = (tiles: TileSummary[]) => type(focused, keypad, ctx(tiles)).effects.flatMap((e) => (e.type === 'write' ? [e.data] : []));
    expect(sent(app)).toEqual(keypad.split(/(?=\x1b)/));
    // tmux's table (input-keys.c): the keypad's Enter is a line feed outside keypad mode.
    expect(sent(one)).toEqual(['1', '5', '\n', '*', '0', '.', '/', '+', '-', '7', '8', '9', '4', '6', '2', '3']);
  });

  it('a paste holding the end marker reaches an agent without bracketed paste byte for byte (issue 29)', () => {
    const data = (tiles: TileSummary[]) => type(focused, '\x1b[200~x\x1b[201~y\x1b[201~', ctx(tiles)).effects.flatMap((e) => (e.type === 'write' ? [e.data] : [])).join('');
    expect(data(one)).toBe('x\x1b[201~y');
    // An agent that asked for bracketed paste gets it wrapped, as tmux's paste-buffer -p does (the text unchanged inside).
    expect(data([{ ...one[0]!, modes: { ...plainModes, bracketedPaste: true } }])).toBe('\x1b[200~x\x1b[201~y\x1b[201~');
  });

  it('sends cursor keys the way the agent asked: SS3 in application cursor mode', () => {
    const app = [{ ...one[0]!, modes: { ...plainModes, applicationCursorKeys: true } }];
    expect(type(focused, '\x1b[A\x1b[D', ctx(app)).effects.map((e) => (e as { data: string }).data)).toEqual(['\x1bOA', '\x1bOD']);
    expect(type(focused, '\x1b[A', ctx(one)).effects.map((e) => (e as { data: string }).data)).toEqual(['\x1b[A']);
  });

  it('reports a submitted line as a prompt, and a slash command as local', () => {
    const slash = type(focused, '/clear\r', ctx(one));
    expect(slash.effects.filter((e) => e.type === 'prompt')).toEqual([{ type: 'prompt', tileId: 1, local: true }]);
    const fixed = type(focused, '/x\x7f\x7fhello\r', ctx(one));
    expect(fixed.effects.filter((e) => e.type === 'prompt')).toEqual([{ type: 'prompt', tileId: 1, local: false }]);
  });

  it('tells a focus-reporting agent when the keyboard and the window come and go', () => {
    const wants = [{ ...one[0]!, modes: { ...plainModes, sendFocus: true } }];
    expect(type(INITIAL_UI, '\r', ctx(wants)).effects).toEqual([{ type: 'write', tileId: 1, data: '\x1b[I' }]);
    expect(type(focused, '\x1b[O', ctx(wants)).effects).toEqual([{ type: 'write', tileId: 1, data: '\x1b[O' }]);
    expect(type(focused, '\x1b[O', ctx(one)).effects).toEqual([]);
    expect(type(focused, '\x1b[O', ctx(one)).state.windowFocused).toBe(false);
  });

  it('returns to the grid when the focused tile has exited', () => {
    expect(type(focused, 'x', ctx(tiles('exited'))).state.mode).toBe('grid');
  });
});

describe('the mouse', () => {
  const two = tiles('working', 'done');
  const withShown = (summaries: TileSummary[], now = 10_000): InputContext => {
    const c = ctx(summaries, now);
    return { ...c, shown: c.grid };
  };
  const at = (c: InputContext, index: number) => c.shown!.find((t) => t.index === index)!.body;

  it('a click selects the tile under it; a double click focuses it (and sees its done)', () => {
    const c = withShown(two, 1000);
    const b = at(c, 1);
    const press = `\x1b[<0;${b.x + 3};${b.y + 2}M`;
    const once = type(INITIAL_UI, press, c);
    expect([once.state.selected, once.state.mode]).toEqual([1, 'grid']);
    const twice = type(once.state, press, withShown(two, 1200));
    expect(twice.state.mode).toBe('focus');
    expect(twice.effects).toContainEqual({ type: 'seen', tileId: 2 });
    // Too slow: two clicks.
    expect(type(once.state, press, withShown(two, 1000 + 401)).state.mode).toBe('grid');
  });

  it('in focus mode, passes clicks inside the tile to a program that asked, in its own coordinates', () => {
    const wants: TileSummary[] = [{ ...two[0]!, modes: { ...plainModes, mouseTracking: true } }, two[1]!];
    const c = withShown(wants);
    const b = at(c, 0);
    const focused: UiState = { ...INITIAL_UI, mode: 'focus' };
    expect(type(focused, `\x1b[<0;${b.x + 5};${b.y + 3}M`, c).effects).toEqual([{ type: 'write', tileId: 1, data: '\x1b[<0;5;3M' }]);
    expect(type(focused, `\x1b[<0;${b.x + 5};${b.y + 3}M`, withShown(two)).effects).toEqual([]);
    // A click on the other tile leaves focus and selects it.
    const other = at(c, 1);
    const left = type(focused, `\x1b[<0;${other.x + 2};${other.y + 2}M`, c);
    expect([left.state.mode, left.state.selected]).toEqual(['grid', 1]);
  });

  it('the wheel scrolls the selected tile back, and down to the live bottom again', () => {
    const source = { rows: 10, bufferLength: 500, scrolledLines: 490, lineText: () => '', alternate: false };
    const c = { ...withShown(two), scrollSource: source };
    const b = at(c, 0);
    const up = type(INITIAL_UI, `\x1b[<64;${b.x + 2};${b.y + 2}M`, c);
    expect(up.state.scroll?.offset).toBe(3);
    const down = type(up.state, `\x1b[<65;${b.x + 2};${b.y + 2}M`, c);
    expect(down.state.scroll).toBeNull();
  });
});

describe('numbers', () => {
  it('1–9 select the tile with that number, which stays with it when another closes', () => {
    // Tile 2 was closed: tiles 1, 3 and 4 remain.
    const left: TileSummary[] = [1, 3, 4].map((id) => ({ id, state: 'idle', sinceMs: 0, modes: plainModes }));
    expect(type(INITIAL_UI, '3', ctx(left)).state.selected).toBe(1);
    expect(type(INITIAL_UI, '2', ctx(left)).state.note?.text).toMatch(/no tile 2/);
  });
});

describe('the review (D)', () => {
  const two = tiles('working', 'done');
  const lines = Array.from({ length: 40 }, (_, i) => ({ text: i === 30 ? '+needle' : `line ${i}` }));

  it("opens on the selected tile and asks for its changes; its keys scroll and search it, Esc closes it", () => {
    const opened = type({ ...INITIAL_UI, selected: 1 }, 'D', ctx(two));
    expect(opened.state.overlay).toMatchObject({ type: 'review', tileId: 2, lines: null });
    expect(opened.effects).toEqual([{ type: 'review', tileId: 2 }]);
    // git answered (the shell fills the lines in).
    const filled = { ...opened.state, overlay: { ...(opened.state.overlay as Extract<UiState['overlay'], { type: 'review' }>), lines } };
    const context = { ...ctx(two), overlayFit: 10 };
    const scrolled = type(filled, 'jjj', context).state;
    expect(scrolled.overlay).toMatchObject({ type: 'review', offset: 3 });
    // Keys that mean something in the grid mean the review's own thing here: nothing goes to a tile.
    const searched = type(filled, '/needle\r', context);
    expect(searched.effects).toEqual([]);
    expect(searched.state.overlay).toMatchObject({ found: 30, offset: 30 });
    // A paste goes into the search being typed, and is nothing otherwise.
    const pasted = run(type(filled, '/', context).state, [{ type: 'paste', text: 'needle' }], context).state;
    expect(pasted.overlay).toMatchObject({ search: { text: 'needle', typing: true } });
    expect(run(filled, [{ type: 'paste', text: 'y' }], context).state.overlay).toBe(filled.overlay);
    expect(run(searched.state, [{ type: 'key', name: 'escape', raw: '\x1b' }], context).state.overlay).toBeNull();
  });
});

describe('answering from the grid is looking at the tile', () => {
  // The tile rang blocked a moment ago: its done a few seconds later must ring again, not fall in
  // the blocked ring's quiet period, when the user answered it (or typed a line into it) from the grid.
  const rang = (state: UiState, id: number): UiState => ({ ...state, attention: { ...state.attention, unseen: [id], lastRing: { [id]: 9_000 } } });

  it.each([
    ['y (allow)', 'y'],
    ['N (deny)', 'N'],
  ])('%s: nothing of the tile is unseen, and its last ring is forgotten', (_name, key) => {
    const context = ctx(tiles('blocked', 'working'));
    const after = type(rang(INITIAL_UI, 1), key, context);
    expect(after.effects).toContainEqual(expect.objectContaining({ type: 'answer', tileId: 1 }));
    expect(after.state.attention.unseen).toEqual([]);
    expect(after.state.attention.lastRing).toEqual({});
  });

  it('a line typed with i and sent: the same', () => {
    const context = ctx(tiles('blocked', 'working'));
    const opened = type(rang(INITIAL_UI, 1), 'i', context);
    expect(opened.state.attention.lastRing).toEqual({ 1: 9_000 });
    const sent = type(opened.state, 'go on\r', context);
    expect(sent.effects).toContainEqual({ type: 'send', tileIds: [1], text: 'go on' });
    expect(sent.state.attention.lastRing).toEqual({});
  });

  it('a key on a tile that asks nothing is no answer: it stays unseen', () => {
    const context = ctx(tiles('done', 'working'));
    expect(type(rang(INITIAL_UI, 1), 'y', context).state.attention.unseen).toEqual([1]);
  });
});
