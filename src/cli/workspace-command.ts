/**
 * The workspace file on the command line: finding it (`--config FILE`, else `./belltower.json`)
 * and `belltower init`, which writes a commented example listing the agents installed here.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { launchProblem } from '../session/launch-check.js';
import { exampleWorkspace, loadWorkspace, WORKSPACE_FILE } from '../workspace/workspace-file.js';
import type { LoadResult } from '../workspace/workspace-file.js';
import type { Output } from './output.js';
import { belltowerDirs } from '../platform/state-dir.js';
import { recordTrust, trustFilePath } from '../workspace/trust-store.js';
import { readWorkspaceFile } from '../workspace/workspace-read.js';

/** The workspace to open: the one `--config` names (it must exist), or `./belltower.json` if there
 * is one; null when there is none. */
export function findWorkspace(config: string | undefined, cwd: string): LoadResult | null {
  if (config !== undefined) return loadWorkspace(resolve(cwd, config), config);
  const here = join(cwd, WORKSPACE_FILE);
  return existsSync(here) ? loadWorkspace(here, WORKSPACE_FILE) : null;
}

export function initWorkspace(cwd: string, env: NodeJS.ProcessEnv, out: Output): number {
  const file = join(cwd, WORKSPACE_FILE);
  if (existsSync(file)) {
    out.error(`belltower: ${WORKSPACE_FILE} already exists here; edit it, or remove it to start again`);
    return 2;
  }
  const found = ['claude', 'codex', 'gemini'].filter((agent) => launchProblem(agentBin(agent, env), cwd, env) === undefined);
  try {
    writeFileSync(file, exampleWorkspace(found), { flag: 'wx', mode: 0o644 });
  } catch (error) {
    out.error(`belltower: cannot write ${file}: ${(error as Error).message}`);
    return 2;
  }
  // Written by belltower, just now: trusted as written. An edit makes belltower ask once.
  const read = readWorkspaceFile(file, WORKSPACE_FILE);
  try {
    if (read.ok) recordTrust(trustFilePath(belltowerDirs({ env }).state), read.file.realPath, read.file.sha256);
  } catch (error) {
    out.error(`belltower: wrote ${WORKSPACE_FILE}, but cannot remember trusting it (${(error as Error).message}): belltower will ask before it starts it`);
  }
  out.line(`wrote ${WORKSPACE_FILE}: ${[...found, 'shell'].join(', ')} — edit it, then run \`belltower\` here to open those tiles (after an edit it shows them and asks once)`);
  return 0;
}

function agentBin(agent: string, env: NodeJS.ProcessEnv): string {
  const override = agent === 'claude' ? env.BELLTOWER_CLAUDE_BIN : agent === 'codex' ? env.BELLTOWER_CODEX_BIN : env.BELLTOWER_GEMINI_BIN;
  return override || agent;
}
