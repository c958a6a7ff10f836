/**
 * `belltower [SPEC...]`: which tiles the grid opens — the workspace file's (`--config FILE`, else
 * `./belltower.json`) once the user trusts it (workspace-trust.ts), then the SPECs given; with neither, one Claude Code tile where claude is
 * installed, else a word on what to run instead.
 */
import { launchProblem } from '../session/launch-check.js';
import type { Output } from './output.js';
import { runUi } from './ui-command.js';
import type { TileRequest } from '../server/tile-request.js';
import type { UiFlags } from './ui-command.js';
import { askOnTerminal } from './restore-start.js';
import { findWorkspace } from './workspace-command.js';
import { WORKSPACE_FILE } from '../workspace/workspace-file.js';
import { admitWorkspace } from './workspace-trust.js';
import { readGridFlags } from './grid-options.js';
import { launchOrAttach, serverRuns } from './session-commands.js';

export interface GridFlags extends UiFlags {
  config?: string;
  /** false (`--no-server`): the grid in this process, its tiles ending with the terminal; else the
   * session's detached server is started (or attached to). */
  server?: boolean;
}

export async function gridCommand(specs: string[], flags: GridFlags, out: Output, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd(), argv: readonly string[] = process.argv.slice(2)): Promise<number> {
  // A wrong flag is said before anything else happens: before the workspace file is read, and
  // before its trust question takes the terminal.
  const wrong = readGridFlags(flags);
  if ('error' in wrong) {
    out.error(`belltower: ${wrong.error}`);
    return 2;
  }
  if (flags.onRing !== undefined && flags.server === false) {
    out.error('belltower: --on-ring runs when a tile rings while nobody is attached to the session server, and --no-server runs none: give one of them');
    return 2;
  }
  // This folder's session already runs in a server: attach to it, whatever else was asked.
  if (flags.asServer === undefined && (await serverRuns(flags, cwd))) return launchOrAttach(specs, flags, out, argv, cwd);
  const found = findWorkspace(flags.config, cwd);
  if (found && !found.ok) {
    for (const error of found.errors) out.error(`belltower: ${error}`);
    out.error('belltower: nothing started; fix the workspace file (or run with --config another file)');
    return 2;
  }
  const workspace = found?.workspace;
  if (workspace) {
    // Before anything starts — and before the grid takes the terminal — the user sees what this
    // file runs and says yes, unless they already did for this very content.
    const terminal = process.stdin.isTTY === true && process.stdout.isTTY === true;
    const refused = await admitWorkspace(workspace, flags.config ?? WORKSPACE_FILE, {
      ask: terminal ? askOnTerminal(process.stdin, process.stdout) : null,
      show: (line) => process.stdout.write(`${line}\n`),
      out,
      env,
    });
    if (refused !== null) return refused;
  }
  // The server process started below reads the same command line (and finds the file trusted).
  // Without a terminal there is nothing to attach: the grid says what to run instead.
  if (flags.server !== false && flags.asServer === undefined && process.stdin.isTTY && process.stdout.isTTY) return launchOrAttach(specs, flags, out, argv, cwd);
  const requests: TileRequest[] = [...(workspace?.tiles ?? []), ...specs.map((spec) => ({ spec, cwd, fromCommandLine: true }))];
  // With neither, one Claude tile — unless a saved workspace comes back instead, which only the
  // grid can tell once it holds the session.
  const whenEmpty: TileRequest | string[] =
    launchProblem(env.BELLTOWER_CLAUDE_BIN || 'claude', cwd, env) === undefined
      ? { spec: 'claude', cwd }
      : [
          'belltower: no SPEC given, and `claude` is not installed here.',
          '  try the grid with simulated agents:   belltower demo',
          '  run any agent or command:            belltower codex "npm test" shell',
          '  keep a set of tiles for this folder:  belltower init',
          '  see every command:                   belltower --help',
        ];
  return runUi(requests, flags, out, {
    whenEmpty,
    ...(workspace
      ? {
          workspace: {
            ...(workspace.bell ? { bell: workspace.bell } : {}),
            ...(workspace.notify ? { notify: workspace.notify } : {}),
            ...(workspace.escapeKey ? { escapeKey: workspace.escapeKey } : {}),
            ...(workspace.onRing ? { onRing: workspace.onRing } : {}),
            timing: workspace.timing,
          },
        }
      : {}),
  });
}
