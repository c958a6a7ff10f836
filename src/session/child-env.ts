/**
 * The environment a session's child runs with: the caller's, minus what would make it believe it
 * runs somewhere else.
 */

/** The terminal type the headless screen emulates (xterm.js answers as an xterm). */
export const CHILD_TERM = 'xterm-256color';

// TMUX / TMUX_PANE: the child is in *our* terminal, not tmux's. With TMUX set, Claude Code stops
// animating its title and Gemini wraps notifications in tmux passthrough — evidence we would lose.
// COLUMNS / LINES: the pty's size is the truth; a stale inherited value makes programs draw at the
// wrong width.
const STRIPPED = ['TMUX', 'TMUX_PANE', 'COLUMNS', 'LINES'];

export function childEnv(base: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(base)) {
    if (value !== undefined && !STRIPPED.includes(key)) env[key] = value;
  }
  env.TERM = CHILD_TERM;
  return env;
}
