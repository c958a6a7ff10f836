/**
 * A private HOME / CLAUDE_CONFIG_DIR for one Claude Code run in a test, pre-seeded so that the
 * CLI starts straight at its prompt (no onboarding, no "custom API key" question, no folder
 * trust dialog, no "make auto mode your default" nudge), and the environment to launch it with.
 *
 *   const home = createClaudeHome({ baseUrl: api.url, allowBash: ['sleep:*'] });
 *   pty.spawn(claudeBin, [], { cwd: home.cwd, env: home.env, … });
 *   …
 *   home.cleanup();
 */
import fs from 'node:fs';
import path from 'node:path';
import { buildAgentEnv, createAgentDirs } from './agent-env.js';

export interface ClaudeHomeOptions {
  /** The fake API's base URL (`http://127.0.0.1:<port>`). */
  baseUrl: string;
  /** The project folder Claude runs in; default a fresh temp folder (removed by cleanup). */
  cwd?: string;
  /**
   * Bash rules allowed without asking, as the part inside `Bash(…)`: `'touch:*'`, `'make test'`.
   * (Read-only commands such as `sleep` and `echo` never ask on 2.1.332, rule or not.)
   */
  allowBash?: string[];
  /** More permission allow rules, verbatim (`'Read'`, `'Bash(ls:*)'`, …). */
  allow?: string[];
  /** Permission mode written as `permissions.defaultMode`; default `"default"` (see the facts file). */
  defaultMode?: 'default' | 'acceptEdits' | 'plan' | 'auto' | 'bypassPermissions';
  /** Extra keys merged into the user settings file (`hooks`, `env`, …). */
  settings?: Record<string, unknown>;
  /** Extra keys merged into `.claude.json`. */
  globalConfig?: Record<string, unknown>;
  /** Key-shaped string; only its last 20 characters matter (they are pre-approved). */
  apiKey?: string;
  /** Extra environment variables (applied last; `undefined` deletes). */
  env?: Record<string, string | undefined>;
}

export interface ClaudeHome {
  /** The private HOME (canonical path). */
  home: string;
  /** CLAUDE_CONFIG_DIR (= `<home>/.claude`): settings.json, projects/, … */
  configDir: string;
  /** The canonical project folder, as used for the `projects` key and transcripts. */
  cwd: string;
  /** The user settings file that holds the permission rules. */
  settingsPath: string;
  /** Every `.claude.json` written (one in HOME, one in CLAUDE_CONFIG_DIR). */
  claudeJsonPaths: string[];
  apiKey: string;
  /** Environment to launch `claude` with (complete: do not merge with process.env). */
  env: Record<string, string>;
  /** Where this project's transcripts go: `<configDir>/projects/<cwd with non-alphanumerics as ->`. */
  transcriptDir: string;
  /** Removes HOME (and the cwd when it was created here). Safe to call twice. */
  cleanup(): void;
}

/** Environment variables of a parent Claude's, never passed through (agent-env.ts drops the rest). */
const claudeOwn = (name: string): boolean => name.startsWith('ANTHROPIC_') || name.startsWith('CLAUDE_') || name === 'CLAUDECODE';

export const DEFAULT_FAKE_API_KEY = `sk-ant-api03-belltower-fake-${'x'.repeat(64)}-ABCDEFGHIJKLMNOPQRST`;

export function createClaudeHome(options: ClaudeHomeOptions): ClaudeHome {
  const { home, cwd, cleanup } = createAgentDirs('claude', options.cwd);
  const configDir = path.join(home, '.claude');
  fs.mkdirSync(configDir, { recursive: true });
  // Claude Code keeps background-task output under $TMPDIR/claude-<uid>/…: keep it in HOME too.
  const tmpDir = path.join(home, 'tmp');
  fs.mkdirSync(tmpDir, { recursive: true });
  const apiKey = options.apiKey ?? DEFAULT_FAKE_API_KEY;

  const globalConfig = {
    hasCompletedOnboarding: true,
    customApiKeyResponses: { approved: [apiKey.slice(-20)], rejected: [] as string[] },
    projects: { [cwd]: { hasTrustDialogAccepted: true } },
    // Not in the facts file: with permissions.defaultMode set in user settings and not "auto",
    // 2.1.332 opens "Make auto mode your default permission mode?" at start-up (OSC 7501
    // `blocked`, msg "dialog open") unless this key is set.
    hasSeenAutoDefaultNudge: true,
    ...options.globalConfig,
  };
  const claudeJsonPaths = [path.join(home, '.claude.json'), path.join(configDir, '.claude.json')];
  for (const p of claudeJsonPaths) fs.writeFileSync(p, `${JSON.stringify(globalConfig, null, 2)}\n`);

  const allow = [...(options.allowBash ?? []).map((rule) => `Bash(${rule})`), ...(options.allow ?? [])];
  const extraPermissions = (options.settings?.permissions ?? {}) as { allow?: unknown };
  const extraAllow = Array.isArray(extraPermissions.allow) ? (extraPermissions.allow as unknown[]).map(String) : [];
  const settings = {
    ...options.settings,
    permissions: {
      defaultMode: options.defaultMode ?? 'default',
      ...extraPermissions,
      allow: [...allow, ...extraAllow],
    },
  };
  const settingsPath = path.join(configDir, 'settings.json');
  fs.writeFileSync(settingsPath, `${JSON.stringify(settings, null, 2)}\n`);

  const env = buildAgentEnv({
    home,
    cwd,
    drop: claudeOwn,
    vars: {
      USERPROFILE: home,
      CLAUDE_CONFIG_DIR: configDir,
      ANTHROPIC_BASE_URL: options.baseUrl,
      ANTHROPIC_API_KEY: apiKey,
      DISABLE_TELEMETRY: '1',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_ERROR_REPORTING: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      // Forked helper requests that would otherwise depend on server flags or terminal focus
      // (a next-prompt suggestion after a turn; a recap when focus comes back). Override via `env`.
      CLAUDE_CODE_ENABLE_PROMPT_SUGGESTION: 'false',
      CLAUDE_CODE_ENABLE_AWAY_SUMMARY: 'false',
      TMPDIR: tmpDir,
    },
    overrides: options.env,
  });

  return {
    home,
    configDir,
    cwd,
    settingsPath,
    claudeJsonPaths,
    apiKey,
    env,
    transcriptDir: path.join(configDir, 'projects', cwd.replace(/[^a-zA-Z0-9]/g, '-')),
    cleanup,
  };
}
