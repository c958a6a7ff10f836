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
import path from 'node:path';
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

/**
 * Gemini CLI 0.61 loads a system-defaults file only when the file and every folder above it are
 * owned by root and writable by nobody else ("Security Warning: Skipping system defaults file").
 * Anywhere else our hooks would be silently skipped: say why, so the tile does not claim hooks.
 */
export function geminiSkipsSystemFile(file: string, stat: (p: string) => { uid: number; mode: number } = fs.statSync): string | undefined {
  for (let current = file; ; current = path.dirname(current)) {
    let st: { uid: number; mode: number };
    try {
      st = stat(current);
    } catch (error) {
      return `cannot check ${current}: ${(error as Error).message}`;
    }
    if (st.uid !== 0) return `Gemini skips hook files outside root-owned folders: ${current} is owned by uid ${st.uid}`;
    if ((st.mode & 0o022) !== 0) return `Gemini skips hook files in folders others can write: ${current} has mode ${(st.mode & 0o7777).toString(8)}`;
    if (path.dirname(current) === current) return undefined;
  }
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
