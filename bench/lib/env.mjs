/** The environment of the programs under test. */

/** Variables that say "this is CI", or that a multiplexer sits between the program and the terminal. */
const NOT_A_USER_TERMINAL = new Set(['CI', 'CONTINUOUS_INTEGRATION', 'TMUX', 'TMUX_PANE', 'STY']);

/**
 * `env` as a user's own terminal has it, whatever runs the benchmark: with `CI` set (even to ""),
 * Ink renders as for a log and belltower's demo prints lines instead of the grid
 * (test/support/grid-session.ts clears it too); with `TMUX` or `STY`, belltower wraps what it
 * sends for a multiplexer that is not there (the pty is the terminal). The keys are removed, not
 * emptied: node-pty would pass an undefined value on as the text "undefined".
 */
export function userTerminalEnv(env) {
  const out = { ...env };
  for (const name of Object.keys(out)) if (NOT_A_USER_TERMINAL.has(name) || out[name] === undefined) delete out[name];
  return out;
}
