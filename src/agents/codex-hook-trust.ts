/**
 * Marking belltower's own command-line hook as reviewed, for one Codex launch only.
 *
 * Codex runs no hook it has not seen reviewed: it shows a blocking "Hooks need review" dialog. Its
 * review record is `hooks.state.<key>.trusted_hash`, and a `-c` override on the command line puts
 * one in that launch's "session flags" layer, next to the hook itself — nothing is written to the
 * user's config, and the user's own review decisions stay as they are. (Never the flag that
 * bypasses hook trust: it would also run the user's unreviewed project hooks.)
 *
 * Observed on Codex 0.171.0, not documented: the key is `<source>:<event>:<group>:<hook>` with the
 * source `/<session-flags>/config.toml`, and the hash is the sha256 of the group's compact JSON with
 * sorted keys and non-ASCII left as is:
 *   {"event_name":"session_start","hooks":[{"async":false,"command":…,"timeout":…,"type":"command"}]}
 * It reproduced the hash Codex writes itself, with spaces, quotes and non-ASCII in the command.
 * Gated by version (codex-injection.ts); a dialog that shows anyway is detected on screen.
 */
import { createHash } from 'node:crypto';

export const CODEX_SESSION_FLAGS_SOURCE = '/<session-flags>/config.toml';

/** Codex's default hook timeout (seconds), which it hashes when none is given. */
export const CODEX_DEFAULT_HOOK_TIMEOUT_S = 600;

export interface CodexCommandHook {
  command: string;
  timeout?: number;
}

/** `/<session-flags>/config.toml:session_start:0:0` for the first hook of the first group. */
export function codexHookKey(eventName: string, group = 0, hook = 0): string {
  return `${CODEX_SESSION_FLAGS_SOURCE}:${eventName}:${group}:${hook}`;
}

/** `sha256:<hex>` of one hook group, as Codex computes it to compare with `trusted_hash`. */
export function codexHookHash(eventName: string, hooks: readonly CodexCommandHook[]): string {
  const group = {
    event_name: eventName,
    hooks: hooks.map((h) => ({ async: false, command: h.command, timeout: h.timeout ?? CODEX_DEFAULT_HOOK_TIMEOUT_S, type: 'command' })),
  };
  return `sha256:${createHash('sha256').update(sortedJson(group), 'utf8').digest('hex')}`;
}

/** Compact JSON with object keys sorted (serde_json's output for a BTreeMap). */
function sortedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${sortedJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The title of Codex's start-up dialog for hooks not reviewed (0.171.0: "Hooks need review"). */
const REVIEW_DIALOG = /^\s*Hooks need review\s*$/;

/**
 * A notice when Codex shows its hook review dialog although our hook was marked reviewed (a
 * Codex whose review record changed): the hook will not run unless the user trusts it, and the
 * rollout is then found from the first turn's notify.
 */
export function codexHookReview(rows: readonly string[]): string | undefined {
  if (!rows.some((row) => REVIEW_DIALOG.test(row))) return undefined;
  return 'Codex asks to review hooks at start-up: belltower\'s SessionStart hook runs only if you trust it there; without it, the rollout is followed from the first turn\'s end';
}
