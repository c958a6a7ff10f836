/**
 * A private home for the real Codex CLI (0.171.0) pointed at the fake OpenAI API
 * (fake-openai.ts): `CODEX_HOME/config.toml` with a "fake" model provider, and an environment
 * that starts Codex with no dialog at all.
 *
 *   const api = await startFakeOpenAI({ script: [...] });
 *   const home = createCodexHome({ baseUrl: api.baseUrl });
 *   … spawn codex with env: home.env, cwd: home.cwd …
 *   home.cleanup();
 *
 * Found while writing this (0.171.0, not in the facts page):
 * - model "gpt-5.5" opens "Meet GPT-6 Sol" (a model-migration dialog) at start-up unless
 *   `[notice.model_migrations] "gpt-5.5" = "gpt-6-sol"` says it was seen. GPT-6 models get other
 *   tools ("code mode": a JavaScript `exec`), so the home keeps gpt-5.5 and marks the notice.
 * - A CODEX_HOME under the temp folder gets a start-up warning ("could not create PATH aliases"),
 *   shown as "⚠ 1 warning" in the footer; harmless.
 */
import fs from 'node:fs';
import path from 'node:path';
import { buildAgentEnv, createAgentDirs } from './agent-env.js';

/** 0.171 refuses "untrusted" at start-up ("no longer supported; remove this setting"). */
export type ApprovalPolicy = 'never' | 'on-request' | 'on-failure';
export type SandboxMode = 'danger-full-access' | 'workspace-write' | 'read-only';

export interface CodexHomeOptions {
  /** The fake's base URL, ending in `/v1` (FakeOpenAI.baseUrl). */
  baseUrl: string;
  /**
   * Default "never": no approval prompts. "on-request" with a sandbox (`workspace-write`) asks
   * when the model marks a command `sandbox_permissions: "require_escalated"`; with
   * `danger-full-access` it never asks.
   */
  approvalPolicy?: ApprovalPolicy;
  /** Default "danger-full-access" (no sandbox: the tests run as root in a VM without one). */
  sandboxMode?: SandboxMode;
  /** Default "gpt-5.5" (see above). */
  model?: string;
  /** Project folder (default: a fresh temp folder, removed by cleanup). */
  cwd?: string;
  /** More top-level TOML, e.g. 'notify = ["…"]' (placed before the first table). */
  extraToml?: string;
  /** Overrides/additions to the environment (`undefined` removes a variable). */
  env?: Record<string, string | undefined>;
}

export interface CodexHome {
  /** The private HOME (canonical path). */
  home: string;
  /** CODEX_HOME (= `<home>/.codex`): config.toml, sessions/, … */
  codexHome: string;
  /** The canonical project folder. */
  cwd: string;
  configPath: string;
  /** The environment variable that holds the fake API key (the provider's env_key). */
  keyVar: string;
  /** Environment to launch `codex` with (complete: do not merge with process.env). */
  env: Record<string, string>;
  /** Removes HOME (and the cwd when it was created here). Safe to call twice. */
  cleanup(): void;
}

export const FAKE_OPENAI_KEY_VAR = 'BELLTOWER_FAKE_OPENAI_KEY';

/** Variables never passed through besides those agent-env.ts drops: real credentials, Codex's log level. */
const codexOwn = (name: string): boolean => name.startsWith('OPENAI_') || name.startsWith('CODEX_') || name === 'RUST_LOG';

const toml = (s: string): string => JSON.stringify(s); // JSON string escapes are valid TOML

export function createCodexHome(options: CodexHomeOptions): CodexHome {
  const { home, cwd, cleanup } = createAgentDirs('codex', options.cwd);
  const codexHome = path.join(home, '.codex');
  fs.mkdirSync(codexHome, { recursive: true });
  const model = options.model ?? 'gpt-5.5';

  const config = [
    `model = ${toml(model)}`,
    'model_reasoning_effort = "medium"',
    'model_provider = "fake"',
    `approval_policy = ${toml(options.approvalPolicy ?? 'never')}`,
    `sandbox_mode = ${toml(options.sandboxMode ?? 'danger-full-access')}`,
    'check_for_update_on_startup = false',
    ...(options.extraToml ? [options.extraToml] : []),
    '',
    '[model_providers.fake]',
    'name = "fake"',
    `base_url = ${toml(options.baseUrl)}`,
    `env_key = ${toml(FAKE_OPENAI_KEY_VAR)}`,
    'wire_api = "responses"',
    // One attempt per request: an error the test asks for is not retried behind its back.
    'request_max_retries = 0',
    'stream_max_retries = 0',
    '',
    '[analytics]',
    'enabled = false',
    '',
    // The folder-trust question is answered.
    `[projects.${toml(cwd)}]`,
    'trust_level = "trusted"',
    '',
    '[notice.model_migrations]',
    '"gpt-5.5" = "gpt-6-sol"',
    '',
  ].join('\n');
  const configPath = path.join(codexHome, 'config.toml');
  fs.writeFileSync(configPath, config);

  const env = buildAgentEnv({
    home,
    cwd,
    drop: codexOwn,
    vars: { CODEX_HOME: codexHome, [FAKE_OPENAI_KEY_VAR]: 'sk-belltower-fake-openai-key' },
    overrides: options.env,
  });

  return {
    home,
    codexHome,
    cwd,
    configPath,
    keyVar: FAKE_OPENAI_KEY_VAR,
    env,
    cleanup,
  };
}
