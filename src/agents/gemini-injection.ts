/**
 * Prepares one Gemini CLI tile: its own Gemini home (gemini-home.ts) whose settings are the
 * user's plus our command hooks, each through the relay, and the environment that points Gemini
 * at it while trust answers stay in the user's real trust file:
 *
 *   GEMINI_CLI_HOME=<folder>/gemini-home GEMINI_CLI_TRUSTED_FOLDERS_PATH=<real>/trustedFolders.json gemini [user args…]
 *
 * Where Gemini would run no hooks, or the tile's home would change what Gemini reads, there are
 * none to claim: GeminiHooksOff says why, and the tile runs on its title.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sameFolder } from '../platform/paths.js';
import { createGeminiHome } from './gemini-home.js';
import { GeminiSettingsError, withGeminiHooks } from './gemini-settings.js';
import { geminiTrust } from './gemini-trust.js';
import { parseJsonc } from './jsonc.js';
import { sessionStartTarget } from './profile.js';
import type { TranscriptTarget } from './profile.js';
import { installRelay } from './relay-install.js';
import { withTileHooks, type TileHooksInput } from './tile-hooks.js';

export interface GeminiSessionInput extends TileHooksInput {
  /** The folder Gemini runs in. */
  cwd: string;
  /** The environment Gemini will run with (its home, GEMINI_CLI_HOME, trust overrides). */
  env: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
}

export interface GeminiSession {
  args: string[];
  env: Record<string, string>;
  /** The tile's GEMINI_CLI_HOME. */
  home: string;
  settingsPath: string;
  /** Unregisters the hook session and removes the folder (its links, never what they point at). Idempotent. */
  dispose(): void;
}

/** Gemini would run no hooks of ours in this tile, or must not be given a home of ours: why. */
export class GeminiHooksOff extends Error {
  override name = 'GeminiHooksOff';
}

/** The home Gemini itself uses: `$GEMINI_CLI_HOME`, else the user's home folder. */
export function geminiUserHome(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string {
  const home = platform === 'win32' ? env.USERPROFILE : env.HOME;
  return env.GEMINI_CLI_HOME || home || os.homedir();
}

export function prepareGeminiSession(input: GeminiSessionInput): GeminiSession {
  const userHome = geminiUserHome(input.env, input.platform);
  const real = path.join(userHome, '.gemini');
  if (sameFolder(input.cwd, userHome)) {
    // Gemini would read the user's real settings as this folder's workspace settings (and ask for
    // trust): a tile in the home folder runs on its title.
    throw new GeminiHooksOff(`the tile runs in the Gemini home folder ${userHome}`);
  }
  const settings = readSettings(path.join(real, 'settings.json'));
  const trustFile = input.env.GEMINI_CLI_TRUSTED_FOLDERS_PATH || path.join(real, 'trustedFolders.json');
  const folderTrust = (settings as { security?: { folderTrust?: { enabled?: unknown } } } | undefined)?.security?.folderTrust?.enabled;
  const trust = geminiTrust({ cwd: input.cwd, rules: readTrustRules(trustFile), folderTrustEnabled: folderTrust !== false, env: input.env });
  if (trust === 'untrusted') throw new GeminiHooksOff(`${input.cwd} is a folder you chose not to trust, where Gemini runs no hooks at all`);

  return withTileHooks(input, ({ registration, folder }) => {
    const relay = installRelay(folder, registration);
    const home = createGeminiHome({ dir: path.join(folder.dir, 'gemini-home'), userHome, settings: withGeminiHooks(settings, relay.command()) });
    return {
      args: [],
      // The trust file stays the user's: an answer given in the tile would otherwise replace the
      // link and be lost with the tile.
      env: { GEMINI_CLI_HOME: home.home, GEMINI_CLI_TRUSTED_FOLDERS_PATH: trustFile, BELLTOWER_TILE: input.tileKey },
      home: home.home,
      settingsPath: home.settingsPath,
    };
  });
}

/**
 * The chat file to follow: named by SessionStart (a new one after /clear). Its path goes through the
 * tile's Gemini home; the tail reads it by its real path, which outlives the tile's links.
 */
export function geminiChatTarget(event: string, payload: Record<string, unknown>): TranscriptTarget | undefined {
  return event === 'SessionStart' ? sessionStartTarget(payload) : undefined;
}

function readSettings(file: string): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined; // no settings yet
  }
  try {
    return parseJsonc(text);
  } catch (error) {
    throw new GeminiSettingsError(`cannot read the Gemini settings in ${file}: ${(error as Error).message}`);
  }
}

function readTrustRules(file: string): Record<string, unknown> {
  try {
    const rules = parseJsonc(fs.readFileSync(file, 'utf8'));
    return typeof rules === 'object' && rules !== null && !Array.isArray(rules) ? (rules as Record<string, unknown>) : {};
  } catch {
    return {}; // absent or unreadable: Gemini asks (or refuses to start) itself
  }
}
