/**
 * The settings layer belltower gives Gemini CLI: its "system defaults" file, pointed at with
 * GEMINI_CLI_SYSTEM_DEFAULTS_PATH.
 *
 * Why that layer: Gemini merges every `hooks.<Event>` array across all settings layers by
 * concatenation (settingsSchema.ts: MergeStrategy.CONCAT), so hooks in the lowest layer run beside
 * the user's, project's and system's, and any value the user sets elsewhere still wins. It is also
 * the layer least often used, and we keep what it held: the file we point at is the original
 * system-defaults file (when there is one) with our hook groups appended. No private HOME needed.
 *
 * Gemini hooks are command hooks only; each goes through the relay. Timeouts are milliseconds.
 */

export const GEMINI_EVENTS = ['BeforeAgent', 'AfterAgent', 'BeforeTool', 'AfterTool', 'Notification', 'SessionStart', 'SessionEnd'] as const;

export const GEMINI_HOOK_TIMEOUT_MS = 5_000;

export class GeminiSettingsError extends Error {
  override name = 'GeminiSettingsError';
}

/** Gemini's own rule for where the system settings live (packages/cli/src/config/settings.ts). */
export function geminiSystemSettingsPath(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string {
  const configured = env.GEMINI_CLI_SYSTEM_SETTINGS_PATH;
  if (configured) return configured;
  if (platform === 'darwin') return '/Library/Application Support/GeminiCli/settings.json';
  if (platform === 'win32') return 'C:\\ProgramData\\gemini-cli\\settings.json';
  return '/etc/gemini-cli/settings.json';
}

/** …and for the system defaults: beside the system settings unless configured. */
export function geminiSystemDefaultsPath(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string {
  const configured = env.GEMINI_CLI_SYSTEM_DEFAULTS_PATH;
  if (configured) return configured;
  const settings = geminiSystemSettingsPath(env, platform);
  const sep = platform === 'win32' ? '\\' : '/';
  return `${settings.slice(0, settings.lastIndexOf(sep))}${sep}system-defaults.json`;
}

/** The original defaults (an object, or undefined) with our command hooks appended per event. */
export function withGeminiHooks(original: unknown, relayCommand: string): Record<string, unknown> {
  const base = original === undefined ? {} : original;
  if (!isObject(base)) throw new GeminiSettingsError('the Gemini system-defaults file must hold a JSON object');
  const theirs = base.hooks ?? {};
  if (!isObject(theirs)) throw new GeminiSettingsError('"hooks" in the Gemini system-defaults file must be an object');
  const hooks: Record<string, unknown> = { ...theirs };
  const ours = { hooks: [{ name: 'belltower', type: 'command', command: relayCommand, timeout: GEMINI_HOOK_TIMEOUT_MS }] };
  for (const event of GEMINI_EVENTS) {
    const existing = theirs[event] ?? [];
    if (!Array.isArray(existing)) throw new GeminiSettingsError(`"hooks.${event}" in the Gemini system-defaults file must be an array`);
    hooks[event] = [...existing, ours];
  }
  return { ...base, hooks };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
