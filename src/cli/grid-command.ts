/**
 * `belltower [SPEC...]`: which tiles the grid opens — the workspace file's (`--config FILE`, else
 * `./belltower.json`), then the SPECs given; with neither, one Claude Code tile where claude is
 * installed, else a word on what to run instead.
 */
import { launchProblem } from '../session/launch-check.js';
import type { Output } from './output.js';
import { runUi } from './ui-command.js';
import type { TileRequest, UiFlags } from './ui-command.js';
import { findWorkspace } from './workspace-command.js';

export interface GridFlags extends UiFlags {
  config?: string;
}

export async function gridCommand(specs: string[], flags: GridFlags, out: Output, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Promise<number> {
  const found = findWorkspace(flags.config, cwd);
  if (found && !found.ok) {
    for (const error of found.errors) out.error(`belltower: ${error}`);
    out.error('belltower: nothing started; fix the workspace file (or run with --config another file)');
    return 2;
  }
  const workspace = found?.workspace;
  const requests: TileRequest[] = [...(workspace?.tiles ?? []), ...specs.map((spec) => ({ spec, cwd }))];
  if (requests.length === 0) {
    if (launchProblem(env.BELLTOWER_CLAUDE_BIN || 'claude', cwd, env) !== undefined) {
      out.error(
        [
          'belltower: no SPEC given, and `claude` is not installed here.',
          '  try the grid with simulated agents:   belltower demo',
          '  run any agent or command:            belltower codex "npm test" shell',
          '  keep a set of tiles for this folder:  belltower init',
          '  see every command:                   belltower --help',
        ].join('\n'),
      );
      return 2;
    }
    requests.push({ spec: 'claude', cwd });
  }
  return runUi(requests, flags, out, {
    ...(workspace
      ? {
          workspace: {
            ...(workspace.bell ? { bell: workspace.bell } : {}),
            ...(workspace.notify ? { notify: workspace.notify } : {}),
            ...(workspace.escapeKey ? { escapeKey: workspace.escapeKey } : {}),
            timing: workspace.timing,
          },
        }
      : {}),
  });
}
