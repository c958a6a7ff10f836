/**
 * Prepares one Claude Code tile: a private folder with our settings file and relay, the arguments
 * that load them, and the transcript path known before the first hook.
 *
 *   claude --settings <folder>/settings.json --session-id <uuid> [user args…]
 *   claude --settings <folder>/settings.json --resume <uuid> [user args…]      (a restored tile)
 *
 * Everything is undone by dispose(): the hook session is unregistered and the folder removed.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { canonicalPath } from '../platform/paths.js';
import { claudeTranscriptPath } from './claude-paths.js';
import { ClaudeSettingsError, mergeClaudeSettings, ourClaudeHooksFor } from './claude-settings.js';
import { conversationArgs } from './conversation.js';
import { installRelay } from './relay-install.js';
import { withTileHooks, type TileHooksInput } from './tile-hooks.js';

export interface ClaudeSessionInput extends TileHooksInput {
  /** The folder Claude runs in (canonicalised: Claude names the project folder after its real path). */
  cwd: string;
  /** CLAUDE_CONFIG_DIR, or ~/.claude (see claudeConfigDir). */
  configDir: string;
  /** A settings file the user would have passed with --settings: merged into ours, never dropped. */
  userSettingsPath?: string;
  /** The same given as JSON text (`--settings '{"model": …}'`). */
  userSettingsJson?: string;
  /** `relay` routes every event through the command relay (when loopback HTTP hooks are blocked). */
  transport?: 'http' | 'relay';
  /** Fixed for tests, replays and restored tiles; a fresh UUID otherwise. */
  sessionId?: string;
  /** `claude --version`, when known: only the hook events it accepts are registered. */
  version?: string | undefined;
  /** Resume the conversation `sessionId` (it has the same transcript) instead of starting it. */
  resume?: boolean;
}

export interface ClaudeSession {
  /** Put these before the user's own arguments. */
  args: string[];
  /** Add these to the child's environment. */
  env: Record<string, string>;
  sessionId: string;
  transcriptPath: string;
  settingsPath: string;
  /** Unregisters the hook session and removes the folder. Idempotent. */
  dispose(): void;
}

export function prepareClaudeSession(input: ClaudeSessionInput): ClaudeSession {
  const userSettings = input.userSettingsJson !== undefined ? parseUserSettings(input.userSettingsJson, 'the --settings JSON') : input.userSettingsPath ? readUserSettings(input.userSettingsPath) : undefined;
  const sessionId = input.sessionId ?? randomUUID();
  const transcriptPath = claudeTranscriptPath(input.configDir, canonicalPath(input.cwd), sessionId);
  return withTileHooks(input, ({ registration, folder }) => {
    const relay = installRelay(folder, registration);
    const hooks = ourClaudeHooksFor(input.version, {
      url: registration.url,
      token: registration.token,
      relayCommand: relay.command(),
      ...(input.transport ? { transport: input.transport } : {}),
    });
    const settings = mergeClaudeSettings(userSettings, hooks);
    const settingsPath = folder.write('settings.json', `${JSON.stringify(settings, null, 2)}\n`);
    return {
      args: ['--settings', settingsPath, ...conversationArgs('claude', { id: sessionId, resume: input.resume === true })],
      env: { BELLTOWER_TILE: input.tileKey },
      sessionId,
      transcriptPath,
      settingsPath,
    };
  });
}

function readUserSettings(file: string): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new ClaudeSettingsError(`cannot read the settings file ${file}: ${(error as Error).message}`);
  }
  return parseUserSettings(text, `the settings file ${file}`);
}

function parseUserSettings(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ClaudeSettingsError(`${what} is not valid JSON: ${(error as Error).message}`);
  }
}
