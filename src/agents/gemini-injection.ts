/**
 * Prepares one Gemini CLI tile: a private system-defaults settings file holding our command hooks
 * (see gemini-settings.ts), and the environment variable that points Gemini at it.
 *
 *   GEMINI_CLI_SYSTEM_DEFAULTS_PATH=<folder>/gemini-system-defaults.json gemini [user args…]
 *
 * VERIFY on a real Gemini 0.61: that hooks in the system-defaults layer run without a trust
 * prompt, and that a hook group without a matcher matches every tool.
 */
import fs from 'node:fs';
import { GeminiSettingsError, geminiSystemDefaultsPath, withGeminiHooks } from './gemini-settings.js';
import { parseJsonc } from './jsonc.js';
import { installRelay } from './relay-install.js';
import { withTileHooks, type TileHooksInput } from './tile-hooks.js';

export interface GeminiSessionInput extends TileHooksInput {
  /** The environment Gemini will run with (to find the original system-defaults file). */
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
}

export interface GeminiSession {
  args: string[];
  env: Record<string, string>;
  settingsPath: string;
  /** Unregisters the hook session and removes the folder. Idempotent. */
  dispose(): void;
}

export function prepareGeminiSession(input: GeminiSessionInput): GeminiSession {
  const env = input.env ?? process.env;
  const original = readOriginal(geminiSystemDefaultsPath(env, input.platform ?? process.platform));
  return withTileHooks(input, ({ registration, folder }) => {
    const relay = installRelay(folder, registration);
    const settings = withGeminiHooks(original, relay.command());
    const settingsPath = folder.write('gemini-system-defaults.json', `${JSON.stringify(settings, null, 2)}\n`);
    return {
      args: [],
      env: { GEMINI_CLI_SYSTEM_DEFAULTS_PATH: settingsPath, BELLTOWER_TILE: input.tileKey },
      settingsPath,
    };
  });
}

function readOriginal(file: string): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined; // usually absent
  }
  try {
    return parseJsonc(text);
  } catch (error) {
    throw new GeminiSettingsError(`cannot keep the Gemini system defaults in ${file}: ${(error as Error).message}`);
  }
}
