/**
 * A Gemini CLI tile's own home: `GEMINI_CLI_HOME=<tile folder>/gemini-home`, whose
 * `.gemini/settings.json` is the user's settings plus belltower's hooks, and whose every other
 * entry links back to the user's real `.gemini` (credentials, chats, history, extensions, memory),
 * so that the tile is the user's Gemini with hooks added and nothing else changed.
 *
 * Why not another settings layer: Gemini 0.61 loads a system-defaults file only when it and every
 * folder above it are root-owned, so for any other user those hooks were silently skipped. The
 * user's own `settings.json` is never written: a per-tile copy, gone with the tile, means nothing
 * leaks into the user's sessions outside belltower.
 *
 * Observed on 0.61 (shared facts): a link to a folder that does not exist yet crashes Gemini
 * (ENOTDIR on mkdir), so the real `tmp` and `history` folders are created first and no folder link
 * ever dangles; a dangling *file* link is fine, and is how a file Gemini creates later (a login's
 * credentials, state) still lands in the real folder.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ensurePrivateDir, writePrivateFile } from '../platform/private-dir.js';

/** Folders Gemini creates under `.gemini` on first use: made in the real folder before linking. */
export const GEMINI_MADE_FOLDERS = ['tmp', 'history'] as const;

/** Files Gemini may create later: linked even while absent, so they are written to the real folder. */
export const GEMINI_LATER_FILES = [
  'oauth_creds.json',
  'google_accounts.json',
  'gemini-credentials.json',
  'installation_id',
  'state.json',
  'mcp-oauth-tokens.json',
] as const;

/** Entries beside `.gemini` in the home that Gemini reads (`~/.agents` skills, `~/.env`). */
export const GEMINI_HOME_ENTRIES = ['.agents', '.env'] as const;

export interface GeminiHomeInput {
  /** Where the tile's home goes (a new folder inside the tile's private folder). */
  dir: string;
  /** The user's Gemini home: `$GEMINI_CLI_HOME`, or the home folder. Its `.gemini` is the real one. */
  userHome: string;
  /** The settings to write as the tile's `.gemini/settings.json`. */
  settings: Record<string, unknown>;
}

export interface GeminiHome {
  /** The value of GEMINI_CLI_HOME. */
  home: string;
  settingsPath: string;
}

export function createGeminiHome(input: GeminiHomeInput): GeminiHome {
  const real = path.join(input.userHome, '.gemini');
  const own = path.join(input.dir, '.gemini');
  ensurePrivateDir(input.dir);
  ensurePrivateDir(own);
  fs.mkdirSync(real, { recursive: true, mode: 0o700 });
  for (const name of GEMINI_MADE_FOLDERS) fs.mkdirSync(path.join(real, name), { recursive: true, mode: 0o700 });

  const linked = new Set<string>(['settings.json']);
  for (const name of fs.readdirSync(real)) {
    if (linked.has(name)) continue;
    fs.symlinkSync(path.join(real, name), path.join(own, name));
    linked.add(name);
  }
  for (const name of GEMINI_LATER_FILES) {
    if (!linked.has(name)) fs.symlinkSync(path.join(real, name), path.join(own, name));
  }
  for (const name of GEMINI_HOME_ENTRIES) {
    const target = path.join(input.userHome, name);
    // Only what exists: a link to a folder that is not there yet would break Gemini.
    if (fs.existsSync(target)) fs.symlinkSync(target, path.join(input.dir, name));
  }
  const settingsPath = path.join(own, 'settings.json');
  writePrivateFile(settingsPath, `${JSON.stringify(input.settings, null, 2)}\n`);
  return { home: input.dir, settingsPath };
}
