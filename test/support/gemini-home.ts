/**
 * A private home for the real Gemini CLI (0.61.0) pointed at the fake Gemini API
 * (fake-gemini.ts): `~/.gemini/settings.json` with API-key auth, the project folder trusted, and
 * an environment that starts Gemini with no dialog at all.
 *
 *   const api = await startFakeGemini({ script: [...] });
 *   const home = createGeminiHome({ baseUrl: api.url });
 *   … spawn gemini with env: home.env, cwd: home.cwd …
 *   home.cleanup();
 *
 * Found while writing this (0.61.0, not in the facts page):
 * - `tools.allowed` works but prints a start-up warning that it is deprecated in favour of the
 *   policy engine; harmless.
 * - Gemini renders with Ink, which draws only a final frame when it thinks it runs in CI (`CI`,
 *   `CONTINUOUS_INTEGRATION` or any `CI_*` variable): those are removed from the environment.
 */
import fs from 'node:fs';
import path from 'node:path';
import { buildAgentEnv, createAgentDirs } from './agent-env.js';

export interface GeminiHomeOptions {
  /** GOOGLE_GEMINI_BASE_URL (FakeGemini.url). */
  baseUrl: string;
  /**
   * Allow run_shell_command without asking (`tools.allowed`), default true. False: every shell
   * command opens a confirmation dialog.
   */
  allowShell?: boolean;
  /** Project folder (default: a fresh temp folder, removed by cleanup). */
  cwd?: string;
  /** The project folder's entry in trustedFolders.json (default TRUST_FOLDER). */
  trust?: 'TRUST_FOLDER' | 'DO_NOT_TRUST';
  /** Merged over the generated settings.json (top-level keys replace). */
  settings?: Record<string, unknown>;
  /** Overrides/additions to the environment (`undefined` removes a variable). */
  env?: Record<string, string | undefined>;
}

export interface GeminiHome {
  /** The private HOME (canonical path). */
  home: string;
  /** `<home>/.gemini`: settings.json, trustedFolders.json, tmp/ (chats). */
  geminiDir: string;
  /** The canonical project folder. */
  cwd: string;
  settingsPath: string;
  /** Environment to launch `gemini` with (complete: do not merge with process.env). */
  env: Record<string, string>;
  /** The folders made here (HOME, and the project folder when made here): to hand to another user. */
  folders: string[];
  /** Removes HOME (and the cwd when it was created here). Safe to call twice. */
  cleanup(): void;
}

export const FAKE_GEMINI_API_KEY = 'AIzaSy-belltower-fake-gemini-key-0000000';

/** Variables never passed through besides those agent-env.ts drops: real credentials, CI markers. */
function geminiOwn(name: string): boolean {
  if (name.startsWith('GEMINI_') || name.startsWith('GOOGLE_') || name === 'GOOGLE_APPLICATION_CREDENTIALS') return true;
  return name === 'CI' || name === 'CONTINUOUS_INTEGRATION' || name.startsWith('CI_');
}

export function createGeminiHome(options: GeminiHomeOptions): GeminiHome {
  const { home, cwd, cleanup } = createAgentDirs('gemini', options.cwd);
  const geminiDir = path.join(home, '.gemini');
  fs.mkdirSync(geminiDir, { recursive: true });

  const settings = {
    security: { auth: { selectedType: 'gemini-api-key' } },
    general: { disableAutoUpdate: true, disableUpdateNag: true },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    ...(options.allowShell === false ? {} : { tools: { allowed: ['run_shell_command'] } }),
    ...options.settings,
  };
  const settingsPath = path.join(geminiDir, 'settings.json');
  fs.writeFileSync(settingsPath, `${JSON.stringify(settings, null, 2)}\n`);
  fs.writeFileSync(path.join(geminiDir, 'trustedFolders.json'), `${JSON.stringify({ [cwd]: options.trust ?? 'TRUST_FOLDER' }, null, 2)}\n`);

  const env = buildAgentEnv({
    home,
    cwd,
    drop: geminiOwn,
    vars: { USERPROFILE: home, GEMINI_API_KEY: FAKE_GEMINI_API_KEY, GOOGLE_GEMINI_BASE_URL: options.baseUrl },
    overrides: options.env,
  });

  return {
    home,
    geminiDir,
    cwd,
    settingsPath,
    env,
    folders: options.cwd === undefined ? [home, cwd] : [home],
    cleanup,
  };
}
