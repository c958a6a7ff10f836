/**
 * The user's keyboard, as bytes from their terminal, cut into events: keys (with a name for the
 * keymap and the exact bytes for passing through to an agent), bracketed pastes, and focus
 * reports. Pure: the state between chunks is data, and a lone ESC is only a key once the caller
 * says enough time has passed (`flushPending`), because ESC also starts every escape sequence.
 */

export type InputEvent =
  /** `name` is what the keymap matches ('q', 'enter', 'up', 'ctrl-\\', 'alt-x'); `raw` is exactly
   * what the terminal sent. */
  | { type: 'key'; name: string; raw: string }
  /** The text of a bracketed paste, without its markers. */
  | { type: 'paste'; text: string }
  /** The terminal window gained or lost focus (focus reporting, DEC mode 1004). */
  | { type: 'focus'; focused: boolean }
  /** A mouse report (SGR, DEC mode 1006), cell coordinates from 0: a button pressed or released,
   * or the wheel (`button` 64 up, 65 down). Only with `--mouse`. */
  | { type: 'mouse'; button: number; x: number; y: number; press: boolean; motion: boolean; raw: string };

export interface ParserState {
  /** Bytes that may be the start of a sequence (a lone ESC, a partial CSI). */
  readonly pending: string;
  /** Inside a bracketed paste: its text so far. */
  readonly paste: string | null;
}

export const INITIAL_PARSER: ParserState = { pending: '', paste: null };

/** A paste larger than this is delivered in pieces rather than held (a bound on memory). */
export const MAX_PASTE_CHUNK = 1 << 20;

const PASTE_START = '\x1b[200~';
const PASTE_END = '\x1b[201~';

export function parseInput(state: ParserState, chunk: string): { state: ParserState; events: InputEvent[] } {
  const events: InputEvent[] = [];
  const input = state.pending + chunk;
  let paste = state.paste;
  let i = 0;
  while (i < input.length) {
    if (paste !== null) {
      const end = input.indexOf(PASTE_END, i);
      if (end < 0) {
        // Keep a tail that could be the start of the end marker.
        const keep = partialSuffix(input, PASTE_END);
        paste += input.slice(i, input.length - keep);
        if (paste.length >= MAX_PASTE_CHUNK) {
          events.push({ type: 'paste', text: paste });
          paste = '';
        }
        return { state: { pending: input.slice(input.length - keep), paste }, events };
      }
      const last = lastPasteEnd(input, end);
      paste += input.slice(i, last);
      events.push({ type: 'paste', text: paste });
      paste = null;
      i = last + PASTE_END.length;
      continue;
    }
    const ch = input[i]!;
    if (ch !== '\x1b') {
      const code = input.codePointAt(i)!;
      const text = String.fromCodePoint(code);
      events.push({ type: 'key', name: plainKeyName(text), raw: text });
      i += text.length;
      continue;
    }
    const sequence = readEscape(input, i);
    if (sequence === 'incomplete') {
      return { state: { pending: input.slice(i), paste: null }, events };
    }
    const raw = input.slice(i, i + sequence.length);
    i += sequence.length;
    if (raw === PASTE_START) {
      paste = '';
      continue;
    }
    if (raw === '\x1b[I' || raw === '\x1b[O') {
      events.push({ type: 'focus', focused: raw === '\x1b[I' });
      continue;
    }
    const mouse = /^\x1b\[<(\d+);(\d+);(\d+)([Mm])$/.exec(raw);
    if (mouse) {
      const code = Number(mouse[1]);
      events.push({ type: 'mouse', button: code & ~(4 | 8 | 16 | 32), x: Number(mouse[2]) - 1, y: Number(mouse[3]) - 1, press: mouse[4] === 'M', motion: (code & 32) !== 0, raw });
      continue;
    }
    events.push({ type: 'key', name: sequence.name, raw });
  }
  return { state: { pending: '', paste }, events };
}

/** Time has passed with bytes pending: a lone ESC is the Escape key, a cut sequence is its keys. */
export function flushPending(state: ParserState): { state: ParserState; events: InputEvent[] } {
  if (state.pending === '' || state.paste !== null) return { state, events: [] };
  const events: InputEvent[] = [];
  const pending = state.pending;
  if (pending === '\x1b') events.push({ type: 'key', name: 'escape', raw: pending });
  else if (pending.length === 2) events.push({ type: 'key', name: `alt-${plainKeyName(pending[1]!)}`, raw: pending });
  else for (const ch of pending) events.push({ type: 'key', name: ch === '\x1b' ? 'escape' : plainKeyName(ch), raw: ch });
  return { state: { pending: '', paste: null }, events };
}

/** The name of a key sent as one character. */
export function plainKeyName(ch: string): string {
  const code = ch.codePointAt(0)!;
  if (ch === '\r') return 'enter';
  if (ch === '\n') return 'ctrl-j';
  if (ch === '\t') return 'tab';
  if (ch === '\x7f') return 'backspace';
  if (ch === '\x08') return 'ctrl-h';
  if (code === 0) return 'ctrl-space';
  if (code >= 1 && code <= 26) return `ctrl-${String.fromCharCode(code + 96)}`;
  if (code === 0x1c) return 'ctrl-\\';
  if (code === 0x1d) return 'ctrl-]';
  if (code === 0x1e) return 'ctrl-^';
  if (code === 0x1f) return 'ctrl-_';
  return ch;
}

type Sequence = { length: number; name: string };

/** The escape sequence starting at `at` (input[at] is ESC), or 'incomplete' when the input ends first. */
function readEscape(input: string, at: number): Sequence | 'incomplete' {
  const next = input[at + 1];
  if (next === undefined) return 'incomplete';
  if (next === '[') {
    let j = at + 2;
    while (j < input.length && isParam(input.charCodeAt(j))) j++;
    while (j < input.length && isIntermediate(input.charCodeAt(j))) j++;
    if (j >= input.length) return 'incomplete';
    const final = input.charCodeAt(j);
    if (final < 0x40 || final > 0x7e) return { length: j - at, name: 'escape' };
    return { length: j - at + 1, name: csiName(input.slice(at + 2, j), input[j]!) };
  }
  if (next === 'O') {
    const final = input[at + 2];
    if (final === undefined) return 'incomplete';
    const keypad = KEYPAD_TEXT[final];
    return { length: 3, name: SS3_NAMES[final] ?? (keypad === undefined ? `ss3-${final}` : keypad === '\n' ? 'enter' : keypad) };
  }
  if (next === '\x1b') return { length: 1, name: 'escape' };
  const code = input.codePointAt(at + 1)!;
  const ch = String.fromCodePoint(code);
  return { length: 1 + ch.length, name: `alt-${plainKeyName(ch)}` };
}

/**
 * The keypad in application mode (DECKPAM, which the UI sets on the user's terminal as tmux does)
 * sends SS3 with these finals; outside that mode it types these characters. The table is tmux's
 * (input-keys.c), Enter's line feed included. A keypad key is named by what it types, so the
 * keymap and the forms take the keypad's 1 for 1 and its Enter for Enter.
 */
const KEYPAD_TEXT: Readonly<Record<string, string>> = {
  o: '/', j: '*', m: '-', k: '+', n: '.', M: '\n',
  p: '0', q: '1', r: '2', s: '3', t: '4', u: '5', v: '6', w: '7', x: '8', y: '9',
};

/** What the keypad key `raw` (ESC O q) types outside application keypad mode ('1'), or undefined
 * when `raw` is not a keypad key. */
export function keypadText(raw: string): string | undefined {
  return raw.length === 3 && raw.startsWith('\x1bO') ? KEYPAD_TEXT[raw[2]!] : undefined;
}

const SS3_NAMES: Record<string, string> = { A: 'up', B: 'down', C: 'right', D: 'left', H: 'home', F: 'end', P: 'f1', Q: 'f2', R: 'f3', S: 'f4' };
const CSI_FINAL_NAMES: Record<string, string> = { A: 'up', B: 'down', C: 'right', D: 'left', H: 'home', F: 'end', Z: 'shift-tab', P: 'f1', Q: 'f2', R: 'f3', S: 'f4' };
const TILDE_NAMES: Record<string, string> = {
  '1': 'home', '2': 'insert', '3': 'delete', '4': 'end', '5': 'pageup', '6': 'pagedown', '7': 'home', '8': 'end',
  '11': 'f1', '12': 'f2', '13': 'f3', '14': 'f4', '15': 'f5', '17': 'f6', '18': 'f7', '19': 'f8', '20': 'f9', '21': 'f10', '23': 'f11', '24': 'f12',
};

function csiName(params: string, final: string): string {
  const [first = '', modifier] = params.split(';');
  const base = final === '~' ? TILDE_NAMES[first] : CSI_FINAL_NAMES[final];
  if (!base) return `csi-${params}${final}`;
  return `${modifierPrefix(modifier)}${base}`;
}

/** xterm's modifier parameter: 1 + (shift 1 | alt 2 | ctrl 4). */
function modifierPrefix(modifier: string | undefined): string {
  const bits = Number(modifier ?? 1) - 1;
  if (!Number.isInteger(bits) || bits <= 0) return '';
  return `${bits & 4 ? 'ctrl-' : ''}${bits & 2 ? 'alt-' : ''}${bits & 1 ? 'shift-' : ''}`;
}

function isParam(code: number): boolean {
  return code >= 0x30 && code <= 0x3f;
}

function isIntermediate(code: number): boolean {
  return code >= 0x20 && code <= 0x2f;
}

/**
 * Where the paste whose first end marker is at `end` really ends. Pasted text can hold the end
 * marker itself (a terminal does not escape it): then the terminal's own marker follows, and
 * what lies between was pasted too. Ending at the first marker forwarded the rest as typed keys
 * and the real marker after them, out of order (`xy^[[201~` for a pasted `x^[[201~y`, issue
 * 29). So the paste ends at the last end marker before the next paste starts, among the bytes
 * already read: a paste cut across reads after an embedded marker still ends at that marker.
 */
function lastPasteEnd(input: string, end: number): number {
  const nextStart = input.indexOf(PASTE_START, end + PASTE_END.length);
  const limit = nextStart < 0 ? input.length : nextStart;
  let last = end;
  for (let at = input.indexOf(PASTE_END, end + PASTE_END.length); at >= 0 && at + PASTE_END.length <= limit; at = input.indexOf(PASTE_END, at + PASTE_END.length)) last = at;
  return last;
}

/** How many characters at the end of `text` are a proper prefix of `marker`. */
function partialSuffix(text: string, marker: string): number {
  for (let n = Math.min(marker.length - 1, text.length); n > 0; n--) {
    if (marker.startsWith(text.slice(text.length - n))) return n;
  }
  return 0;
}
