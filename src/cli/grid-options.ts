/**
 * The grid's options, defined once: `belltower [SPEC...]` takes every one, `belltower demo` the
 * ones that mean something for simulated agents (no workspace file, nothing saved to restore, no
 * remote tiles, no hooks). And the one reading of their values both share, so that a wrong value
 * is refused in the same words before anything starts (exit 2).
 */
import { Option } from 'commander';
import type { Command } from 'commander';
import { DEFAULT_QUIET_PERIOD_MS } from '../ui/attention.js';
import { BELL_MODES } from '../ui/bell.js';
import type { BellMode } from '../ui/bell.js';
import { DEFAULT_ESCAPE_KEY, parseEscapeKey } from '../ui/keymap.js';
import { NOTIFY_CHOICES } from '../ui/notify.js';
import type { NotifyChoice } from '../ui/notify.js';
import { WORKSPACE_FILE } from '../workspace/workspace-file.js';
import { parseDuration } from './duration.js';
import type { CommonRunFlags } from './run-setup.js';

/** The options the grid takes beyond those of `run` (CommonRunFlags). */
export interface GridDisplayFlags {
  escapeKey?: string;
  bell?: string;
  notify?: string;
  /** e.g. `30s`, `0` to ring every edge. */
  quietPeriod?: string;
  /** Quit once every tile has exited. */
  exitWithLastTile?: boolean;
  /** Lines of output each tile keeps for the scroll view. */
  scrollback?: string;
  /** Mouse reports: click selects, double click focuses, the wheel scrolls. */
  mouse?: boolean;
  /** A shell command line run on a ring while no client is attached to the session server. */
  onRing?: string;
}

/** Memory grows with it (about 2.6 MB per 120×40 tile at 1000 lines, 19 MB at 10 000). */
export const MAX_SCROLLBACK = 100_000;

type Target = 'grid' | 'demo';

interface GridOption {
  flags: string;
  description: string | ((target: Target) => string);
  /** Repeatable: each value is collected into a list. */
  repeatable?: boolean;
  /** Which commands take it. */
  on: readonly Target[];
  /** Taken, not listed in --help. */
  hidden?: boolean;
}

const BOTH: readonly Target[] = ['grid', 'demo'];
const GRID_ONLY: readonly Target[] = ['grid'];

/** In the order `belltower --help` lists them. */
const GRID_OPTIONS: readonly GridOption[] = [
  {
    flags: '--session <name>',
    description: (target) => `the name control commands use to find this belltower (default: ${target === 'demo' ? 'demo-PID' : "the folder's name"})`,
    on: BOTH,
  },
  { flags: '--escape-key <key>', description: 'the key that leaves a focused tile (default: ctrl-\\; not ctrl-c, ctrl-d, ctrl-z, Escape, Enter, Tab or Backspace)', on: BOTH },
  { flags: '--config <file>', description: `the workspace file (default: ./${WORKSPACE_FILE} when there is one)`, on: GRID_ONLY },
  { flags: '--bell <mode>', description: 'all | background (not for the tile in front of you) | off (default: all)', on: BOTH },
  { flags: '--notify <how>', description: 'desktop notifications: auto | osc9 | osc777 | osc99 | off (default: auto)', on: BOTH },
  { flags: '--quiet-period <duration>', description: 'a tile that rings again this soon is shown, not rung (default: 30s; 0 rings every time)', on: BOTH },
  { flags: '--restore', description: "bring back this session's last workspace without asking (its tiles, their conversations, the grid)", on: GRID_ONLY },
  { flags: '--fresh', description: "start without the session's last workspace, even after a crash (it is replaced by this one)", on: GRID_ONLY },
  {
    flags: '--no-server',
    description: 'run the grid in this process, its tiles ending with this terminal (default: in a session server that outlives it: d detaches, belltower attach comes back)',
    on: GRID_ONLY,
  },
  // The default since sessions outlive their terminal; still taken, for scripts that say it.
  { flags: '--server', description: 'run the tiles in a session server (the default)', on: GRID_ONLY, hidden: true },
  {
    flags: '--on-ring <command>',
    description: 'a shell command run when a tile rings while no client is attached to the session (BELLTOWER_TILE, _NAME, _STATE, _MESSAGE, … in its environment)',
    on: GRID_ONLY,
  },
  { flags: '--exit-with-last-tile', description: 'quit when every tile has exited', on: BOTH },
  { flags: '--mouse', description: "click selects a tile, double click focuses it, the wheel scrolls (off by default: your terminal's own text selection keeps working)", on: BOTH },
  { flags: '--scrollback <lines>', description: 'lines of output each tile keeps for the scroll view (default 1000)', on: BOTH },
  { flags: '--record <dir>', description: 'write one recording per tile into this folder', on: BOTH },
  { flags: '--capture-output', description: 'include the raw output in recordings (large)', on: BOTH },
  { flags: '--record-text', description: "record the agents' text as received (prompts, replies): not shareable", on: BOTH },
  { flags: '--no-psp', description: 'do not answer the OSC 7501 query (agents fall back to titles)', on: BOTH },
  { flags: '--no-hooks', description: "do not inject belltower's hooks", on: GRID_ONLY },
  {
    flags: '--remote-hooks',
    description: "remote Claude tiles (ssh HOST claude) get belltower's hooks over their ssh connection: a private folder on HOST while the tile runs",
    on: GRID_ONLY,
  },
  { flags: '--timing <name=ms>', description: 'override a timing default (repeatable), e.g. conflictWindowMs=1000', repeatable: true, on: BOTH },
];

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** Adds the grid's options that `target` takes to `command`. */
export function addGridOptions(command: Command, target: Target): Command {
  for (const spec of GRID_OPTIONS) {
    if (!spec.on.includes(target)) continue;
    const option = new Option(spec.flags, typeof spec.description === 'function' ? spec.description(target) : spec.description);
    if (spec.hidden) option.hideHelp();
    command.addOption(spec.repeatable ? option.argParser(collect) : option);
  }
  // How `--server` starts the session's server process; not for people.
  if (target === 'grid') command.addOption(new Option('--as-server <size>').hideHelp());
  return command;
}

/** The grid's flags, read: what the command line says, else the workspace file's, else the default. */
export interface GridSettings {
  escapeKey: string;
  bell: BellMode;
  notify: NotifyChoice;
  quietPeriodMs: number;
  scrollback?: number;
}

/** Reads the grid's flags (the command line's win over the workspace file's), or the one line that
 * says what is wrong (a usage error: exit 2). */
export function readGridFlags(
  flags: GridDisplayFlags & CommonRunFlags & { restore?: boolean; fresh?: boolean },
  ws: { bell?: string; notify?: string; escapeKey?: string } = {},
): GridSettings | { error: string } {
  const escape = parseEscapeKey(flags.escapeKey ?? ws.escapeKey ?? DEFAULT_ESCAPE_KEY);
  if ('error' in escape) return { error: escape.error };
  const bell = (flags.bell ?? ws.bell ?? 'all') as BellMode;
  if (!BELL_MODES.includes(bell)) return { error: `--bell takes ${BELL_MODES.join(', ')} (got "${flags.bell}")` };
  const notify = (flags.notify ?? ws.notify ?? 'auto') as NotifyChoice;
  if (!NOTIFY_CHOICES.includes(notify)) return { error: `--notify takes ${NOTIFY_CHOICES.join(', ')} (got "${flags.notify}")` };
  let quietPeriodMs = DEFAULT_QUIET_PERIOD_MS;
  if (flags.quietPeriod !== undefined) {
    const parsed = flags.quietPeriod.trim() === '0' ? 0 : parseDuration(flags.quietPeriod);
    if (parsed === null) return { error: `--quiet-period takes a duration such as 30s or 0 (got "${flags.quietPeriod}")` };
    quietPeriodMs = parsed;
  }
  const scrollback = flags.scrollback === undefined ? undefined : Number(flags.scrollback);
  if (scrollback !== undefined && (!Number.isInteger(scrollback) || scrollback < 0 || scrollback > MAX_SCROLLBACK)) {
    return { error: `--scrollback takes a whole number of lines from 0 to ${MAX_SCROLLBACK} (got "${flags.scrollback}")` };
  }
  if (flags.restore && flags.fresh) return { error: '--restore and --fresh contradict each other: give one' };
  return { escapeKey: escape.key, bell, notify, quietPeriodMs, ...(scrollback !== undefined ? { scrollback } : {}) };
}
