/**
 * Prepares one Codex tile: its notify program becomes our relay, which posts Codex's
 * turn-complete JSON (passed as the last argv, not stdin) to the hook server as `?event=notify`,
 * then runs the user's own notify program, if any, with the same argument.
 *
 *   codex -c 'notify=["sh", "<folder>/relay.sh", "--event", "notify", "--arg"]' [user args…]
 *
 * Passing any `-c` also keeps each tile's Codex embedded: without one the TUI may start a shared
 * background app-server that outlives it and runs notify with another session's environment.
 */
import fs from 'node:fs';
import path from 'node:path';
import { readCodexNotify, tomlStringArray } from './codex-config.js';
import { installRelay } from './relay-install.js';
import { withTileHooks, type TileHooksInput } from './tile-hooks.js';

export interface CodexSessionInput extends TileHooksInput {
  /** $CODEX_HOME or ~/.codex: where the user's config.toml (and the rollouts) live. */
  codexHome: string;
  /** The user's notify program; read from config.toml when not given; null for none. */
  userNotify?: readonly string[] | null;
}

export interface CodexSession {
  args: string[];
  env: Record<string, string>;
  /** The user's notify program we chain to, if any. */
  chained: readonly string[] | undefined;
  /** Unregisters the hook session and removes the folder. Idempotent. */
  dispose(): void;
}

export const CODEX_NOTIFY_EVENT = 'notify';

export function prepareCodexSession(input: CodexSessionInput): CodexSession {
  const chained = input.userNotify === undefined ? configuredNotify(input.codexHome) : (input.userNotify ?? undefined);
  return withTileHooks(input, ({ registration, folder }) => {
    const relay = installRelay(folder, registration, chained);
    return {
      args: ['-c', `notify=${tomlStringArray(relay.argv(CODEX_NOTIFY_EVENT))}`],
      env: { BELLTOWER_TILE: input.tileKey },
      chained,
    };
  });
}

function configuredNotify(codexHome: string): string[] | undefined {
  try {
    const notify = readCodexNotify(fs.readFileSync(path.join(codexHome, 'config.toml'), 'utf8'));
    return notify && notify.length > 0 ? notify : undefined;
  } catch {
    return undefined; // no config.toml: nothing to chain
  }
}
