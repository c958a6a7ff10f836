/**
 * The settings a Gemini CLI tile runs with: the user's own `settings.json` with belltower's hook
 * groups appended per event (see gemini-home.ts for where they go). Gemini concatenates
 * `hooks.<Event>` arrays across its settings layers (settingsSchema.ts: MergeStrategy.CONCAT), and
 * here they are in the user's own layer, so the user's, project's and system hooks all still run
 * beside ours, and every other value is the user's.
 *
 * Gemini hooks are command hooks only; each goes through the relay. Timeouts are milliseconds.
 */

export const GEMINI_EVENTS = ['BeforeAgent', 'AfterAgent', 'BeforeTool', 'AfterTool', 'Notification', 'SessionStart', 'SessionEnd'] as const;

export const GEMINI_HOOK_TIMEOUT_MS = 5_000;

export class GeminiSettingsError extends Error {
  override name = 'GeminiSettingsError';
}

/** The user's settings (an object, or undefined) with our command hooks appended per event. */
export function withGeminiHooks(original: unknown, relayCommand: string): Record<string, unknown> {
  const base = original === undefined ? {} : original;
  if (!isObject(base)) throw new GeminiSettingsError('the Gemini settings file must hold a JSON object');
  const theirs = base.hooks ?? {};
  if (!isObject(theirs)) throw new GeminiSettingsError('"hooks" in the Gemini settings file must be an object');
  const hooks: Record<string, unknown> = { ...theirs };
  const ours = { hooks: [{ name: 'belltower', type: 'command', command: relayCommand, timeout: GEMINI_HOOK_TIMEOUT_MS }] };
  for (const event of GEMINI_EVENTS) {
    const existing = theirs[event] ?? [];
    if (!Array.isArray(existing)) throw new GeminiSettingsError(`"hooks.${event}" in the Gemini settings file must be an array`);
    hooks[event] = [...existing, ours];
  }
  return { ...base, hooks };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
