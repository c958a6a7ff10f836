/**
 * Desktop notifications through the user's terminal: which escape sequence this terminal shows
 * (OSC 9, OSC 777, kitty's OSC 99), how to wrap it so it passes through tmux or GNU screen, and
 * the text — the tile's name and the agent's own words, stripped of control characters and cut
 * to a sane length. Pure: the environment is an input.
 */
import { withoutInvisibleMarks } from '../platform/printable.js';
export type NotifyChoice = 'auto' | 'osc9' | 'osc777' | 'osc99' | 'off';
export type Notifier = Exclude<NotifyChoice, 'auto'>;

export const NOTIFY_CHOICES: readonly NotifyChoice[] = ['auto', 'osc9', 'osc777', 'osc99', 'off'];

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The terminal behind belltower, as far as its environment tells — also from inside tmux or
 * screen, where TERM and TERM_PROGRAM name the multiplexer but the outer terminal's own variables
 * (KITTY_WINDOW_ID, ITERM_SESSION_ID, LC_TERMINAL, …) usually survive.
 */
export function outerTerminal(env: Env): string | null {
  const program = env.TERM_PROGRAM ?? '';
  const term = env.TERM ?? '';
  if (env.KITTY_WINDOW_ID || term === 'xterm-kitty') return 'kitty';
  if (program === 'iTerm.app' || env.ITERM_SESSION_ID || env.LC_TERMINAL === 'iTerm2') return 'iterm2';
  if (program === 'WezTerm' || env.WEZTERM_PANE || env.WEZTERM_EXECUTABLE) return 'wezterm';
  if (program === 'ghostty' || term === 'xterm-ghostty' || env.GHOSTTY_RESOURCES_DIR) return 'ghostty';
  if (term.startsWith('foot')) return 'foot';
  if (term.startsWith('rxvt-unicode')) return 'urxvt';
  if (program === 'vscode' || env.VSCODE_INJECTION || env.TERM_PROGRAM_VERSION?.endsWith('-insider')) return 'vscode';
  if (program === 'WarpTerminal') return 'warp';
  return null;
}

/** The sequence `auto` picks for each terminal known to show it; none for the others. */
const BY_TERMINAL: Record<string, Notifier> = {
  kitty: 'osc99',
  iterm2: 'osc9',
  wezterm: 'osc777',
  ghostty: 'osc777',
  foot: 'osc777',
  urxvt: 'osc777',
  vscode: 'osc9',
  warp: 'osc9',
};

export function chooseNotifier(choice: NotifyChoice, env: Env): Notifier {
  if (choice !== 'auto') return choice;
  const terminal = outerTerminal(env);
  return (terminal && BY_TERMINAL[terminal]) || 'off';
}

/** What sits between belltower and the terminal: tmux and screen swallow sequences they do not
 * know unless they are wrapped (tmux also needs `allow-passthrough on`). */
export function multiplexer(env: Env): 'tmux' | 'screen' | null {
  if (env.TMUX) return 'tmux';
  if (env.STY) return 'screen';
  return null;
}

const ST = '\x1b\\';
export const TITLE_MAX = 40;
export const BODY_MAX = 180;

/** The notification's bytes: `title` (the tile) and `body` (what happened, in the agent's words). */
export function notificationSequence(notifier: Notifier, title: string, body: string, wrap: 'tmux' | 'screen' | null, id = 1): string {
  if (notifier === 'off') return '';
  const t = clean(title, TITLE_MAX);
  const b = clean(body, BODY_MAX);
  let seq: string;
  switch (notifier) {
    case 'osc9':
      // One string. A leading digit and ';' would read as a ConEmu/Windows Terminal sub-command.
      seq = `\x1b]9;${`${t}: ${b}`.replace(/^(\d+);/, '$1,')}${ST}`;
      break;
    case 'osc777':
      // Fields are separated by ';': none inside the title or body.
      seq = `\x1b]777;notify;${t.replace(/;/g, ',')};${b.replace(/;/g, ',')}${ST}`;
      break;
    case 'osc99':
      // kitty: the title, then the body of the same notification (d=0: more follows).
      seq = `\x1b]99;i=${id}:d=0:p=title;${t}${ST}\x1b]99;i=${id}:d=1:p=body;${b}${ST}`;
      break;
  }
  return passThrough(seq, wrap);
}

/** Wrap `seq` so a multiplexer hands it to the terminal outside it. */
export function passThrough(seq: string, wrap: 'tmux' | 'screen' | null): string {
  if (wrap === 'tmux') return `\x1bPtmux;${seq.replace(/\x1b/g, '\x1b\x1b')}${ST}`;
  if (wrap === 'screen') return `\x1bP${seq}${ST}`;
  return seq;
}

/** One line of text, no control characters (an agent's words must not drive the terminal) and no
 * invisible marks that hide or reorder what the notification shows. */
export function clean(text: string, max: number): string {
  // eslint-disable-next-line no-control-regex
  const one = withoutInvisibleMarks(text).replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').replace(/\s+/g, ' ').trim();
  const chars = Array.from(one);
  return chars.length <= max ? one : `${chars.slice(0, max - 1).join('')}…`;
}

/** The notification's body for a ring: what the agent wants or said. */
export function notificationBody(state: 'done' | 'blocked' | 'failed', words: string | undefined, kind: string | undefined): string {
  if (state === 'blocked') return words ? `${words.replace(/[?.!]\s*$/, '')}?` : `needs you (${kind ?? 'a question'})`;
  if (state === 'failed') return words ? `failed — ${words}` : 'failed';
  return words ? `done — "${words}"` : 'done';
}
