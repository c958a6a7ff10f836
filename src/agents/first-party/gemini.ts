/**
 * Gemini CLI's first-party wiring: the tile's own `GEMINI_CLI_HOME` with belltower's hooks in
 * its settings, and its chat file named by those hooks. Settings it cannot merge leave the tile
 * without hooks, on its title.
 */
import { GeminiHooksOff, geminiChatTarget, prepareGeminiSession } from '../gemini-injection.js';
import { GeminiSettingsError } from '../gemini-settings.js';
import { hookEvidence, InjectionUnavailable } from './wiring.js';
import type { FirstPartyWiring } from './wiring.js';

export const GEMINI_WIRING: FirstPartyWiring = {
  versionMatters: false,
  inject(input) {
    try {
      const session = prepareGeminiSession({ stateDir: input.runtimeDir, server: input.server, tileKey: input.tileKey, onHook: input.onHook, cwd: input.cwd, env: input.env as NodeJS.ProcessEnv });
      return { args: session.args, env: session.env, transcriptFor: geminiChatTarget, startsConversation: false, dispose: () => session.dispose() };
    } catch (error) {
      if (!(error instanceof GeminiHooksOff || error instanceof GeminiSettingsError)) throw error;
      throw new InjectionUnavailable(`Gemini hooks are off for this tile: ${error.message}; its status comes from the title`);
    }
  },
  evidence: hookEvidence,
};
