/**
 * What the private homes for the real agents (claude-home.ts, codex-home.ts, gemini-home.ts)
 * share: a fresh HOME and project folder under the temp folder, removed by one cleanup, and the
 * complete environment to launch the agent with — the parent's, scrubbed of what must not leak
 * into a test (multiplexer markers, XDG folders, test-runner noise, the agent's own credentials),
 * with HOME, the XDG folders, the terminal and the locale set, and the test's overrides last.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface AgentDirs {
  /** The private HOME (canonical path). */
  home: string;
  /** The canonical project folder. */
  cwd: string;
  /** Removes HOME (and the cwd when it was created here). Safe to call twice. */
  cleanup(): void;
}

/**
 * A fresh `belltower-<agent>-home-*` HOME, and `cwd` (canonicalised) or a fresh
 * `belltower-<agent>-project-*` folder.
 */
export function createAgentDirs(agent: string, cwd: string | undefined): AgentDirs {
  const home = fs.realpathSync.native(fs.mkdtempSync(path.join(os.tmpdir(), `belltower-${agent}-home-`)));
  const ownCwd = cwd === undefined;
  const project = fs.realpathSync.native(cwd ?? fs.mkdtempSync(path.join(os.tmpdir(), `belltower-${agent}-project-`)));
  let cleaned = false;
  return {
    home,
    cwd: project,
    cleanup() {
      if (cleaned) return;
      cleaned = true;
      fs.rmSync(home, { recursive: true, force: true, maxRetries: 3 });
      if (ownCwd) fs.rmSync(project, { recursive: true, force: true, maxRetries: 3 });
    },
  };
}

/** Never passed through to any agent: multiplexer markers, XDG folders, test-runner noise. */
function inheritedByAll(name: string): boolean {
  if (name === 'TMUX' || name === 'TMUX_PANE' || name === 'STY' || name === 'ZELLIJ') return false;
  if (name.startsWith('XDG_')) return false;
  if (name.startsWith('OTEL_') || name.startsWith('VITEST') || name === 'NODE_OPTIONS') return false;
  return true;
}

export interface AgentEnvOptions {
  home: string;
  cwd: string;
  /** Variables of the parent's this agent must not see either (its credentials, …). */
  drop: (name: string) => boolean;
  /** The agent's own variables (config folder, API key, base URL, …). */
  vars: Record<string, string>;
  /** The test's overrides/additions, applied last (`undefined` removes a variable). */
  overrides?: Record<string, string | undefined> | undefined;
}

/** The complete environment to launch an agent with (do not merge it with process.env). */
export function buildAgentEnv(options: AgentEnvOptions): Record<string, string> {
  const { home, cwd } = options;
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && inheritedByAll(k) && !options.drop(k)) env[k] = v;
  Object.assign(env, {
    HOME: home,
    ...options.vars,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_DATA_HOME: path.join(home, '.local', 'share'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    XDG_STATE_HOME: path.join(home, '.local', 'state'),
    TERM: 'xterm-256color',
    COLORTERM: 'truecolor',
    LANG: process.env.LANG && /utf-?8/i.test(process.env.LANG) ? process.env.LANG : 'C.UTF-8',
    PWD: cwd,
  });
  delete env.TERM_PROGRAM;
  delete env.TERM_PROGRAM_VERSION;
  for (const [k, v] of Object.entries(options.overrides ?? {})) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}
