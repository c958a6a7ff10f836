/**
 * What the keyboard's thread may write to a focused tile before the main thread sees it
 * (direct-keys.ts): exactly what the main thread would write for the same keys, whatever input
 * modes the tile's program asked for — otherwise writing early would change what the tile gets.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isDirectTyping, withoutWritten } from '../../src/ui/direct-keys.js';
import { INITIAL_PARSER, parseInput } from '../../src/ui/input-parser.js';
import { DEFAULT_ESCAPE_KEY } from '../../src/ui/keymap.js';
import { handleInput, INITIAL_UI } from '../../src/ui/ui-state.js';
import type { InputContext, TileSummary, UiEffect, UiState } from '../../src/ui/ui-state.js';

const focused: UiState = { ...INITIAL_UI, mode: 'focus', selected: 0, typed: '' };

function context(modes: NonNullable<TileSummary['modes']>, escapeKey: string, state: TileSummary['state'] = 'working'): InputContext {
  return { now: 10_000, tiles: [{ id: 7, state, sinceMs: 0, modes }, { id: 8, state: 'idle', sinceMs: 0, modes }], grid: [], escapeKey };
}

/** What the main thread writes to each tile for `bytes`, typed into the focused tile. */
function written(bytes: string, ctx: InputContext): { writes: Map<number, string>; effects: UiEffect[] } {
  let state = focused;
  const effects: UiEffect[] = [];
  for (const event of parseInput(INITIAL_PARSER, bytes).events) {
    const step = handleInput(state, event, ctx);
    state = step.state;
    effects.push(...step.effects);
  }
  const writes = new Map<number, string>();
  for (const effect of effects) if (effect.type === 'write') writes.set(effect.tileId, (writes.get(effect.tileId) ?? '') + effect.data);
  return { writes, effects };
}

const modes = fc.record({
  applicationCursorKeys: fc.boolean(),
  applicationKeypad: fc.boolean(),
  bracketedPaste: fc.boolean(),
  sendFocus: fc.boolean(),
  mouseTracking: fc.boolean(),
});
const escapeKeys = fc.constantFrom(DEFAULT_ESCAPE_KEY, 'ctrl-]', 'ctrl-g', 'ctrl-b', 'ctrl-^');
/** Keys a terminal sends, plain and not: control keys, cursor and keypad sequences, pastes, text
 * beyond ASCII. */
const pieces = fc.oneof(
  fc.string({ unit: fc.integer({ min: 0, max: 0x7f }).map((code) => String.fromCharCode(code)), minLength: 1, maxLength: 6 }),
  fc.constantFrom('\x1b[A', '\x1bOA', '\x1bOq', '\x1b[200~hi\x1b[201~', '\x1b[I', '\x1b', 'é', '日本', '👍', '\x1c', '\x1d', '\x07', '\x02', '\x00'),
);
const chunks = fc.array(pieces, { minLength: 1, maxLength: 5 }).map((list) => list.join(''));

describe('typing the keyboard thread writes itself', () => {
  it('is written by the main thread, for the focused tile, exactly as typed — for any input modes and leaving key', () => {
    let accepted = 0;
    fc.assert(
      fc.property(chunks, modes, escapeKeys, (data, m, escapeKey) => {
        if (!isDirectTyping(data, escapeKey)) return;
        accepted++;
        const { writes } = written(data, context(m, escapeKey));
        expect([...writes.keys()]).toEqual([7]);
        expect(writes.get(7)).toBe(data);
      }),
      { numRuns: 3000 },
    );
    expect(accepted).toBeGreaterThan(300);
  });

  it('leaves to the main thread what the main thread does not write as typed', () => {
    expect(isDirectTyping('\x1b[A', DEFAULT_ESCAPE_KEY)).toBe(false); // SS3 in application cursor mode
    expect(isDirectTyping('\x1bOq', DEFAULT_ESCAPE_KEY)).toBe(false); // keypad: "1" outside its mode
    expect(isDirectTyping('\x1b[200~x\x1b[201~', DEFAULT_ESCAPE_KEY)).toBe(false); // a paste
    expect(isDirectTyping('ab\x1c', DEFAULT_ESCAPE_KEY)).toBe(false); // Ctrl-\ leaves the tile
    expect(isDirectTyping('ab\x07', 'ctrl-g')).toBe(false);
    expect(isDirectTyping('ab\x07', DEFAULT_ESCAPE_KEY)).toBe(true);
    expect(isDirectTyping('café', DEFAULT_ESCAPE_KEY)).toBe(false); // more than a byte a character
    expect(isDirectTyping('', DEFAULT_ESCAPE_KEY)).toBe(false);
    // What the main thread writes for these differs from the bytes, or goes nowhere:
    const ss3 = { applicationCursorKeys: true, applicationKeypad: false, bracketedPaste: false, sendFocus: false, mouseTracking: false };
    expect(written('\x1b[A', context(ss3, DEFAULT_ESCAPE_KEY)).writes.get(7)).toBe('\x1bOA');
    expect(written('ab\x1c', context(ss3, DEFAULT_ESCAPE_KEY)).writes.get(7)).toBe('ab');
  });
});

describe('withoutWritten', () => {
  const effects: UiEffect[] = [
    { type: 'seen', tileId: 7 },
    { type: 'write', tileId: 7, data: 'ab' },
    { type: 'write', tileId: 8, data: 'zz' },
    { type: 'write', tileId: 7, data: 'cd' },
    { type: 'prompt', tileId: 7, local: false },
    { type: 'write', tileId: 7, data: '\r' },
  ];

  it('takes out the first characters written to the tile, keeping every other effect in order', () => {
    expect(withoutWritten(effects, { tileId: 7, chars: 5 })).toEqual([
      { type: 'seen', tileId: 7 },
      { type: 'write', tileId: 8, data: 'zz' },
      { type: 'prompt', tileId: 7, local: false },
    ]);
  });

  it('writes the rest of a chunk the pty took in part', () => {
    expect(withoutWritten(effects, { tileId: 7, chars: 3 })).toEqual([
      { type: 'seen', tileId: 7 },
      { type: 'write', tileId: 8, data: 'zz' },
      { type: 'write', tileId: 7, data: 'd' },
      { type: 'prompt', tileId: 7, local: false },
      { type: 'write', tileId: 7, data: '\r' },
    ]);
    expect(withoutWritten(effects, { tileId: 7, chars: 0 })).toEqual(effects);
  });

  it('with the main thread, a tile gets each key once, for the direct part and the rest alike', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), minLength: 1, maxLength: 12 }), fc.nat(), (data, cut) => {
        const chars = cut % (data.length + 1);
        const { effects: all } = written(data, context({ applicationCursorKeys: false, applicationKeypad: false, bracketedPaste: false, sendFocus: false, mouseTracking: false }, DEFAULT_ESCAPE_KEY));
        const rest = withoutWritten(all, { tileId: 7, chars })
          .flatMap((e) => (e.type === 'write' && e.tileId === 7 ? [e.data] : []))
          .join('');
        expect(data.slice(0, chars) + rest).toBe(data);
      }),
    );
  });
});
