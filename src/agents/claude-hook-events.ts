/**
 * Which of the hook events belltower reads each Claude Code version accepts. A version that does
 * not know an event rejects the whole `--settings` file: observed on 2.1.62 and 2.1.70, a "Settings
 * Error" dialog ("PostCompact: Invalid key in record", "StopFailure: …"; "Files with errors are
 * skipped entirely") whose pre-selected answer exits Claude — the tile lost its hooks, and an Enter
 * ended the session. So each tile registers only what its Claude (`claude --version`) knows.
 *
 * Floors from Claude Code's public changelog, checked here where a version was run: 2.1.62 and
 * 2.1.70 accept everything below except PostCompact and StopFailure (2.1.70 then delivered its
 * hooks; 2.1.62 only through the relay, see below); 2.1.332 (the fixtures' version) accepts all.
 */
import { compareVersions } from './agent-version.js';

/** The first version that accepts each event (as a settings key). */
export const CLAUDE_EVENT_SINCE: Readonly<Record<string, string>> = {
  PreToolUse: '1.0.38',
  PostToolUse: '1.0.38',
  Stop: '1.0.38',
  SessionEnd: '1.0.38',
  SubagentStop: '1.0.41',
  PreCompact: '1.0.48',
  UserPromptSubmit: '1.0.54',
  SessionStart: '1.0.62',
  // With the first hooks; 2.0.37 only added `notification_type` (1.0.128 fires it, message only).
  Notification: '1.0.38',
  SubagentStart: '2.0.43',
  PermissionRequest: '2.0.45',
  TeammateIdle: '2.1.33',
  // Not in the changelog's list; accepted by 2.1.62, the oldest version run here.
  PostToolUseFailure: '2.1.62',
  PostCompact: '2.1.76',
  StopFailure: '2.1.78',
};

/**
 * HTTP hooks run from this version on. 2.1.62 takes `type: "http"` in its settings without
 * complaint but never posts them (observed: only the command-relay SessionStart arrived): older or
 * unknown versions get every event through the relay.
 */
export const CLAUDE_HTTP_HOOKS_SINCE = '2.1.63';

export function claudeRunsHttpHooks(version: string | undefined): boolean {
  return version !== undefined && compareVersions(version, CLAUDE_HTTP_HOOKS_SINCE) >= 0;
}

/** With no version known, only events every 2.x accepts (the rest fall back to OSC 7501 and the transcript). */
export const CLAUDE_BASELINE_VERSION = '2.0.0';

/** The events of `wanted` that `version` accepts (the baseline's when the version is unknown). */
export function claudeEventsFor(version: string | undefined, wanted: readonly string[]): string[] {
  const v = version ?? CLAUDE_BASELINE_VERSION;
  return wanted.filter((event) => {
    const since = CLAUDE_EVENT_SINCE[event];
    return since !== undefined && compareVersions(v, since) >= 0;
  });
}
