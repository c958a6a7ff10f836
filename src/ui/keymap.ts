/**
 * Keys as data: what each key does in each mode. The reducer matches against this table, the `?`
 * overlay and the README's key table are printed from it, so the three can never disagree.
 */
import type { Direction } from './layout.js';

export type GridAction =
  | { type: 'move'; direction: Direction }
  /** The tile with this number (numbers stay with their tiles when others close). */
  | { type: 'jump'; id: number }
  | { type: 'focus' }
  | { type: 'zoom' }
  | { type: 'next' }
  | { type: 'why' }
  | { type: 'help' }
  | { type: 'layout' }
  | { type: 'hide-idle' }
  | { type: 'mute' }
  | { type: 'pin' }
  | { type: 'find' }
  | { type: 'reply' }
  | { type: 'mark' }
  | { type: 'unmark-all' }
  | { type: 'peek' }
  | { type: 'review' }
  | { type: 'answer'; answer: 'allow' | 'always' | 'deny'; message?: true; question?: true }
  | { type: 'add' }
  | { type: 'close' }
  | { type: 'restart' }
  | { type: 'rename' }
  | { type: 'scroll'; pageUp: boolean }
  | { type: 'detach' }
  | { type: 'quit' };

export interface Binding {
  /** Key names as the input parser names them. */
  readonly keys: readonly string[];
  /** How the keys are shown to people. */
  readonly show: string;
  readonly help: string;
  readonly action: (key: string) => GridAction;
}

export const GRID_BINDINGS: readonly Binding[] = [
  { keys: ['left', 'h'], show: '← h', help: 'select the tile to the left', action: () => ({ type: 'move', direction: 'left' }) },
  { keys: ['down', 'j'], show: '↓ j', help: 'select the tile below', action: () => ({ type: 'move', direction: 'down' }) },
  { keys: ['up', 'k'], show: '↑ k', help: 'select the tile above', action: () => ({ type: 'move', direction: 'up' }) },
  { keys: ['right', 'l'], show: '→ l', help: 'select the tile to the right', action: () => ({ type: 'move', direction: 'right' }) },
  { keys: ['1', '2', '3', '4', '5', '6', '7', '8', '9'], show: '1–9', help: 'select tile 1 to 9', action: (key) => ({ type: 'jump', id: Number(key) }) },
  { keys: ['/'], show: '/', help: 'find a tile by number or name (any number, a few letters), ⏎ selects it', action: () => ({ type: 'find' }) },
  { keys: ['enter'], show: '⏎', help: 'focus the selected tile: every key goes to its agent', action: () => ({ type: 'focus' }) },
  { keys: ['y'], show: 'y', help: "allow the selected tile's permission request, once (the option it shows)", action: () => ({ type: 'answer', answer: 'allow' }) },
  { keys: ['Y'], show: 'Y', help: 'allow it and do not ask again (as far as the agent offers: this command, tool or session)', action: () => ({ type: 'answer', answer: 'always' }) },
  { keys: ['N'], show: 'N', help: 'deny the selected tile\'s permission request', action: () => ({ type: 'answer', answer: 'deny' }) },
  { keys: ['T'], show: 'T', help: 'deny it and tell the agent what to do instead: ⏎ sends the line to its prompt', action: () => ({ type: 'answer', answer: 'deny', message: true }) },
  { keys: ['o'], show: 'o', help: "answer the selected tile's question: a digit picks its option, or type your own answer", action: () => ({ type: 'answer', answer: 'allow', question: true }) },
  { keys: ['i'], show: 'i', help: 'type a line into the selected tile, or every marked one, without entering it: ⏎ sends it', action: () => ({ type: 'reply' }) },
  { keys: ['v'], show: 'v', help: 'mark the selected tile (◉), and unmark: i then sends one line to every marked tile', action: () => ({ type: 'mark' }) },
  { keys: ['V'], show: 'V', help: 'clear every mark', action: () => ({ type: 'unmark-all' }) },
  { keys: [' '], show: 'Space', help: "peek at the selected tile's live screen over the grid (Esc back, ⏎ focuses it)", action: () => ({ type: 'peek' }) },
  { keys: ['z'], show: 'z', help: 'zoom the selected tile to the whole screen, and back', action: () => ({ type: 'zoom' }) },
  { keys: ['n'], show: 'n', help: 'next tile that needs you: unseen first, then blocked, failed, done, oldest first', action: () => ({ type: 'next' }) },
  { keys: ['w'], show: 'w', help: 'why the selected tile shows its state: the signals that decided it', action: () => ({ type: 'why' }) },
  { keys: ['D'], show: 'D', help: "review the selected tile's changes: its diff against its base, files then hunks", action: () => ({ type: 'review' }) },
  { keys: ['[', 'pageup'], show: '[ PgUp', help: "scroll back through the selected tile's output (its program keeps running)", action: (key) => ({ type: 'scroll', pageUp: key === 'pageup' }) },
  { keys: ['a'], show: 'a', help: 'add a tile: an agent, shell or command, in a folder, with a name', action: () => ({ type: 'add' }) },
  { keys: ['x'], show: 'x', help: 'close the selected tile (asks while it is working or blocked, and about its worktree)', action: () => ({ type: 'close' }) },
  { keys: ['r'], show: 'r', help: 'restart the selected tile in the same place (asks while it runs)', action: () => ({ type: 'restart' }) },
  { keys: ['R'], show: 'R', help: 'rename the selected tile', action: () => ({ type: 'rename' }) },
  { keys: ['p'], show: 'p', help: 'pin the selected tile large in the rows layout, and unpin', action: () => ({ type: 'pin' }) },
  { keys: ['m'], show: 'm', help: 'mute the selected tile (no bell, no notification), and unmute', action: () => ({ type: 'mute' }) },
  { keys: ['L'], show: 'L', help: 'layout: auto (rows when tiles get small), grid, rows', action: () => ({ type: 'layout' }) },
  { keys: ['H'], show: 'H', help: 'hide idle tiles, and show them again', action: () => ({ type: 'hide-idle' }) },
  { keys: ['?'], show: '?', help: 'this list of keys', action: () => ({ type: 'help' }) },
  { keys: ['d'], show: 'd', help: 'detach: leave, every tile keeps running (belltower attach comes back)', action: () => ({ type: 'detach' }) },
  { keys: ['q', 'ctrl-c'], show: 'q', help: 'quit (asks first while an agent is working or blocked)', action: () => ({ type: 'quit' }) },
];

/** The grid action for a key, if it has one. */
export function gridAction(key: string): GridAction | null {
  for (const binding of GRID_BINDINGS) if (binding.keys.includes(key)) return binding.action(key);
  return null;
}

/** The default key that leaves focus mode. Claude Code reserves it (the terminal's quit signal) and
 * never binds it; Codex and Gemini CLI do not bind it either (docs/design.md has the evidence). */
export const DEFAULT_ESCAPE_KEY = 'ctrl-\\';

/** A second press of the escape key within this long after leaving focus sends it to the agent. */
export const DOUBLE_PRESS_MS = 500;

/**
 * `--escape-key` values: `ctrl-\`, `ctrl-]`, `ctrl-^`, `ctrl-_`, `ctrl-a` … `ctrl-z` (also
 * written `C-x` or `^x`) — but none of the keys every shell and agent needs: Ctrl+C, Ctrl+D,
 * Ctrl+Z, Ctrl+[ (Escape), and Enter, Tab and Backspace. Returns the key name, or an error
 * message that says why and what is accepted.
 */
export function parseEscapeKey(text: string): { key: string } | { error: string } {
  // Control keys no escape key may be: every shell and agent needs them as they are.
  const reserved: Readonly<Record<string, string>> = {
    c: 'interrupts the agent or command in every tile',
    d: 'ends input in every tile (a shell exits on it, an agent quits)',
    z: 'suspends the agent or command in every tile',
    '[': 'is Escape, which every agent uses (to stop a turn, to close a dialog)',
    m: 'is also Enter, Tab or Backspace',
    j: 'is also Enter, Tab or Backspace',
    i: 'is also Enter, Tab or Backspace',
    h: 'is also Enter, Tab or Backspace',
  };
  const t = text.trim().toLowerCase();
  const match = /^(?:ctrl[-+]|c-|\^)(.)$/.exec(t);
  const ch = match?.[1];
  const needed = ch === undefined ? undefined : reserved[ch];
  if (needed !== undefined) return { error: `--escape-key ${text}: that key ${needed}; pick another (default ctrl-\\)` };
  if (ch !== undefined && (/[a-z]/.test(ch) || ['\\', ']', '^', '_'].includes(ch))) return { key: `ctrl-${ch}` };
  return { error: `--escape-key ${text}: give a control key such as ctrl-\\ (the default), ctrl-] or ctrl-g` };
}

/** How a key name is shown to people: `ctrl-\` → `Ctrl+\`. */
export function showKey(key: string): string {
  return key.replace(/^ctrl-/, 'Ctrl+').replace(/^alt-/, 'Alt+');
}

/** The `?` overlay's rows and the README's table: key, then what it does. */
export function keyHelp(escapeKey: string): { mode: string; rows: [string, string][] }[] {
  return [
    { mode: 'grid', rows: GRID_BINDINGS.map((b) => [b.show, b.help] as [string, string]) },
    {
      mode: 'focus',
      rows: [
        ['any key', 'goes to the agent as typed (Ctrl, Alt, function keys, pastes)'],
        [showKey(escapeKey), `back to the grid; press it twice to send ${showKey(escapeKey)} to the agent`],
      ],
    },
    {
      mode: 'scroll',
      rows: [
        ['PgUp PgDn ↑ ↓ j k', 'page or line up and down (a cursor moves; the view follows it)'],
        ['0 $ ← → h l', "the cursor to the line's start, its end; along the line"],
        ['g G', 'the oldest line, the live bottom'],
        ['v V', 'select characters, or whole lines, from the cursor: the moving keys extend it'],
        ['y ⏎', "copy the selection to your terminal's clipboard (OSC 52) and leave"],
        ['/ n N', 'search up for text; the next match up, down'],
        ['Esc q', 'cancel the selection; back to the grid'],
      ],
    },
    {
      mode: 'review',
      rows: [
        ['↑ ↓ j k PgUp PgDn g G', 'line or page up and down; the first line, the last'],
        ['] [', "the next file's diff, the previous"],
        ['/ n N', 'search down for text (a capital makes case matter); the next match down, up'],
        ['Esc q D', 'close the review'],
      ],
    },
    { mode: 'overlays', rows: [['Esc', 'close, or cancel a form'], ['Tab', 'next field; completes an agent name'], ['y', 'confirm quitting, closing, restarting']] },
  ];
}
