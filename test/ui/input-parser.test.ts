import { describe, expect, it } from 'vitest';
import { flushPending, INITIAL_PARSER, parseInput } from '../../src/ui/input-parser.js';
import type { InputEvent, ParserState } from '../../src/ui/input-parser.js';

function parseAll(...chunks: string[]): { events: InputEvent[]; state: ParserState } {
  let state = INITIAL_PARSER;
  const events: InputEvent[] = [];
  for (const chunk of chunks) {
    const r = parseInput(state, chunk);
    state = r.state;
    events.push(...r.events);
  }
  return { events, state };
}

const names = (events: InputEvent[]) => events.map((e) => (e.type === 'key' ? e.name : e.type === 'paste' ? `paste:${e.text}` : e.type === 'focus' ? `focus:${e.focused}` : `mouse:${e.button}@${e.x},${e.y}${e.press ? '' : ' up'}`));

describe('parseInput', () => {
  it('names plain keys, control keys and the escape key candidates', () => {
    expect(names(parseAll('q1\r\x7f\t\x03\x1c\x1d日🚀').events)).toEqual(['q', '1', 'enter', 'backspace', 'tab', 'ctrl-c', 'ctrl-\\', 'ctrl-]', '日', '🚀']);
  });

  it('names cursor, function and modified keys, keeping their exact bytes', () => {
    const { events } = parseAll('\x1b[A\x1bOB\x1b[5~\x1b[1;5C\x1b[15~\x1b[Z\x1bx');
    expect(names(events)).toEqual(['up', 'down', 'pageup', 'ctrl-right', 'f5', 'shift-tab', 'alt-x']);
    expect(events.map((e) => (e.type === 'key' ? e.raw : ''))).toEqual(['\x1b[A', '\x1bOB', '\x1b[5~', '\x1b[1;5C', '\x1b[15~', '\x1b[Z', '\x1bx']);
  });

  it('holds a sequence cut between chunks until the rest arrives', () => {
    expect(names(parseAll('\x1b', '[', '1;5', 'A').events)).toEqual(['ctrl-up']);
  });

  it('makes a lone ESC the Escape key only when the caller flushes it', () => {
    const { events, state } = parseAll('\x1b');
    expect(events).toEqual([]);
    expect(names(flushPending(state).events)).toEqual(['escape']);
    expect(flushPending(INITIAL_PARSER).events).toEqual([]);
  });

  it('reads bracketed pastes whole, even across chunks and with escapes inside', () => {
    expect(names(parseAll('a\x1b[200~line 1\rline\x1b[A 2\x1b[201~b').events)).toEqual(['a', 'paste:line 1\rline\x1b[A 2', 'b']);
    expect(names(parseAll('\x1b[200~hel', 'lo\x1b[20', '1~').events)).toEqual(['paste:hello']);
  });

  it('ends a paste at its last end marker: pasted text holding the marker stays whole, in order (issue 29)', () => {
    // The terminal does not escape a marker inside the pasted text: its own follows.
    expect(names(parseAll('\x1b[200~x\x1b[201~y\x1b[201~z').events)).toEqual(['paste:x\x1b[201~y', 'z']);
    // Two pastes in one read stay two.
    expect(names(parseAll('\x1b[200~a\x1b[201~b\x1b[200~c\x1b[201~').events)).toEqual(['paste:a', 'b', 'paste:c']);
  });

  it('names keypad keys in application keypad mode by what they type, keeping their bytes (issue 29)', () => {
    const { events } = parseAll('\x1bOq\x1bOu\x1bOM\x1bOj\x1bOp\x1bOn\x1bOo\x1bOk\x1bOm');
    expect(names(events)).toEqual(['1', '5', 'enter', '*', '0', '.', '/', '+', '-']);
    expect(events.map((e) => (e.type === 'key' ? e.raw : ''))).toEqual(['\x1bOq', '\x1bOu', '\x1bOM', '\x1bOj', '\x1bOp', '\x1bOn', '\x1bOo', '\x1bOk', '\x1bOm']);
  });

  it('reads focus reports as focus events, not keys', () => {
    expect(names(parseAll('\x1b[Ix\x1b[O').events)).toEqual(['focus:true', 'x', 'focus:false']);
  });
});

describe('mouse reports', () => {
  it('reads SGR presses, releases and the wheel, with cells counted from 0', () => {
    expect(names(parseAll('\x1b[<0;10;5M\x1b[<0;10;5m\x1b[<64;3;4M\x1b[<65;3;4M').events)).toEqual(['mouse:0@9,4', 'mouse:0@9,4 up', 'mouse:64@2,3', 'mouse:65@2,3']);
  });
});
