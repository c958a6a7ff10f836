/**
 * Prepares one Codex tile: its notify program becomes our relay, which posts Codex's
 * turn-complete JSON (passed as the last argv, not stdin) to the hook server as `?event=notify`,
 * then runs the user's own notify program, if any, with the same argument. On a Codex version whose
 * hook review record is known (codex-hook-trust.ts), a SessionStart command hook too, marked
 * reviewed for this launch: it says where the rollout file is at the first prompt.
 *
 *   codex -c 'notify=["sh", "<folder>/notify-relay.sh", "--event", "notify", "--arg"]'
 *         -c 'hooks.SessionStart=[{hooks=[{type="command",command="sh <folder>/relay.sh --event SessionStart",timeout=5}]}]'
 *         -c 'hooks.state={"/<session-flags>/config.toml:session_start:0:0"={trusted_hash="sha256:…"}}'
 *         [user args…]
 *
 * Passing any `-c` also keeps each tile's Codex embedded: without one the TUI may start a shared
 * background app-server that outlives it and runs notify with another session's environment.
 */
import fs from 'node:fs';
import path from 'node:path';
import { readCodexNotify, tomlString, tomlStringArray } from './codex-config.js';
import { codexHookHash, codexHookKey } from './codex-hook-trust.js';
import { installRelay } from './relay-install.js';
import { withTileHooks, type TileHooksInput } from './tile-hooks.js';

export interface CodexSessionInput extends TileHooksInput {
  /** $CODEX_HOME or ~/.codex: where the user's config.toml (and the rollouts) live. */
  codexHome: string;
  /** The user's notify program; read from config.toml when not given; null for none. */
  userNotify?: readonly string[] | null;
  /** `codex --version`, when known: the SessionStart hook is added only where its review record is. */
  version?: string | undefined;
}

export interface CodexSession {
  args: string[];
  env: Record<string, string>;
  /** The user's notify program we chain to, if any. */
  chained: readonly string[] | undefined;
  /** A SessionStart hook was added (else the rollout is found from notify's thread id). */
  sessionStartHook: boolean;
  /** Unregisters the hook session and removes the folder. Idempotent. */
  dispose(): void;
}

export const CODEX_NOTIFY_EVENT = 'notify';
export const CODEX_SESSION_START_EVENT = 'SessionStart';

/** Versions whose hook review record was observed (codex-hook-trust.ts). */
export const CODEX_HOOK_TRUST_VERSIONS: readonly string[] = ['0.171.0'];

/** Seconds Codex waits for our SessionStart hook; the relay gives up after 2. */
export const CODEX_HOOK_TIMEOUT_S = 5;

export function prepareCodexSession(input: CodexSessionInput): CodexSession {
  const chained = input.userNotify === undefined ? configuredNotify(input.codexHome) : (input.userNotify ?? undefined);
  const withHook = input.version !== undefined && CODEX_HOOK_TRUST_VERSIONS.includes(input.version);
  return withTileHooks(input, ({ registration, folder }) => {
    const notify = installRelay(folder, registration, { chain: chained, name: 'notify-relay' });
    const args = ['-c', `notify=${tomlStringArray(notify.argv(CODEX_NOTIFY_EVENT))}`];
    if (withHook) {
      // The hook's relay has no chain: the user's notify program is for turn ends only.
      const command = installRelay(folder, registration).command(CODEX_SESSION_START_EVENT);
      const hook = { command, timeout: CODEX_HOOK_TIMEOUT_S };
      const hash = codexHookHash('session_start', [hook]);
      args.push(
        '-c',
        `hooks.SessionStart=[{hooks=[{type="command",command=${tomlString(command)},timeout=${CODEX_HOOK_TIMEOUT_S}}]}]`,
        '-c',
        `hooks.state={${tomlString(codexHookKey('session_start'))}={trusted_hash=${tomlString(hash)}}}`,
      );
    }
    return { args, env: { BELLTOWER_TILE: input.tileKey }, chained, sessionStartHook: withHook };
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
