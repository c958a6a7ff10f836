/**
 * The settings file belltower passes to Claude Code with `--settings <file>`.
 *
 * Claude merges `--settings` (its "flagSettings" source) with the user's, project's and local
 * settings; hook arrays from every source are all run (anthropics/claude-code#11392: a --settings
 * file cannot remove a user's hooks, only add). So this file carries only our hooks, and the
 * user's own hooks keep running beside them. When the user also wants their own `--settings`
 * file, only one is taken on the command line: we merge theirs into ours, keeping every key of
 * theirs and appending our hook groups after theirs.
 *
 * SessionStart (and Setup) accept only command hooks: those go through the relay. Every other
 * event we map gets an HTTP hook. We register only events we read: a hook on WorktreeCreate, say,
 * would replace Claude's own worktree logic.
 */

import { claudeEventsFor, claudeRunsHttpHooks } from './claude-hook-events.js';

/** Events that accept HTTP hooks and carry evidence we map (see sources/hooks/claude-hooks.ts). */
export const CLAUDE_HTTP_EVENTS = [
  'UserPromptSubmit',
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'Stop',
  'StopFailure',
  'PermissionRequest',
  'Notification',
  'SessionEnd',
  'PreCompact',
  'PostCompact',
  'SubagentStart',
  'SubagentStop',
  'TeammateIdle',
] as const;

/** Events Claude runs only as command hooks (HTTP ones are skipped with a debug line). */
export const CLAUDE_COMMAND_ONLY_EVENTS = ['SessionStart'] as const;

/** Seconds Claude waits for one of our hooks; we answer at once, this only bounds a wedged server. */
export const CLAUDE_HOOK_TIMEOUT_S = 5;

export type HookEntry =
  | { type: 'http'; url: string; headers: Record<string, string>; timeout: number }
  | { type: 'command'; command: string; timeout: number };

export interface HookGroup {
  matcher?: string;
  hooks: HookEntry[];
}

export type HooksSection = Record<string, HookGroup[]>;

export interface OurHooksInput {
  url: string;
  token: string;
  /** The relay invocation for command hooks (`sh '<relay>'`). */
  relayCommand: string;
  /** `relay` sends every event through the command relay: for setups whose
   * `allowedHttpHookUrls` blocks loopback HTTP hooks. Default `http`. */
  transport?: 'http' | 'relay';
  /** The events to register (default all we read): a Claude version rejects a settings file with
   * an event it does not know (claude-hook-events.ts). */
  events?: readonly string[];
}

export function ourClaudeHooks(input: OurHooksInput): HooksSection {
  const http: HookEntry = {
    type: 'http',
    url: input.url,
    headers: { Authorization: `Bearer ${input.token}` },
    timeout: CLAUDE_HOOK_TIMEOUT_S,
  };
  const command: HookEntry = { type: 'command', command: input.relayCommand, timeout: CLAUDE_HOOK_TIMEOUT_S };
  const hooks: HooksSection = {};
  const wanted = (event: string) => input.events === undefined || input.events.includes(event);
  for (const event of CLAUDE_HTTP_EVENTS.filter(wanted)) {
    hooks[event] = [{ hooks: [input.transport === 'relay' ? command : http] }];
  }
  for (const event of CLAUDE_COMMAND_ONLY_EVENTS.filter(wanted)) hooks[event] = [{ hooks: [command] }];
  return hooks;
}

/** Our hooks as the Claude Code `version` takes them (unknown: the baseline's): HTTP where it runs
 * HTTP hooks, else the relay (unless `transport` says), and only the events it accepts. */
export function ourClaudeHooksFor(version: string | undefined, input: Omit<OurHooksInput, 'events'>): HooksSection {
  return ourClaudeHooks({
    ...input,
    transport: input.transport ?? (claudeRunsHttpHooks(version) ? 'http' : 'relay'),
    events: claudeEventsFor(version, [...CLAUDE_HTTP_EVENTS, ...CLAUDE_COMMAND_ONLY_EVENTS]),
  });
}

export class ClaudeSettingsError extends Error {
  override name = 'ClaudeSettingsError';
}

/** The user's settings object with our hook groups appended after theirs, event by event. */
export function mergeClaudeSettings(user: unknown, ours: HooksSection): Record<string, unknown> {
  if (user === undefined) return { hooks: ours };
  if (!isObject(user)) throw new ClaudeSettingsError('the user settings file must hold a JSON object');
  const theirHooks = user.hooks ?? {};
  if (!isObject(theirHooks)) throw new ClaudeSettingsError('"hooks" in the user settings file must be an object');
  const hooks: Record<string, unknown> = { ...theirHooks };
  for (const [event, groups] of Object.entries(ours)) {
    const theirs = theirHooks[event] ?? [];
    if (!Array.isArray(theirs)) throw new ClaudeSettingsError(`"hooks.${event}" in the user settings file must be an array`);
    hooks[event] = [...theirs, ...groups];
  }
  return { ...user, hooks };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
