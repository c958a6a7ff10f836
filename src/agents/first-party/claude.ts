/**
 * Claude Code's first-party wiring: a `--settings` file with the hooks its version takes, its
 * session id (so its transcript path is known before it starts, and switched on /clear), and
 * hooks over a remote tile's ssh connection (its settings are one file to send).
 */
import { homedir } from 'node:os';
import { RemoteHooks } from '../../remote/remote-hooks.js';
import { claudeTranscriptSwitch } from '../../sources/hooks/claude-hooks.js';
import { resolve } from 'node:path';
import { prepareClaudeSession, type ClaudeSession } from '../claude-injection.js';
import { isInlineSettings, takeSettingsArg } from '../claude-settings-arg.js';
import { ClaudeSettingsError } from '../claude-settings.js';
import { claudeConfigDir } from '../claude-paths.js';
import { hookEvidence, InjectionUnavailable } from './wiring.js';
import type { FirstPartyWiring } from './wiring.js';

export const CLAUDE_WIRING: FirstPartyWiring = {
  versionMatters: true,
  inject(input) {
    const conversation = input.conversation;
    // Claude keeps only the last --settings: the user's own is merged into belltower's, not passed.
    const own = takeSettingsArg(input.args);
    const userSettings = own.value === null ? {} : isInlineSettings(own.value) ? { userSettingsJson: own.value } : { userSettingsPath: resolve(input.cwd, own.value) };
    let session: ClaudeSession;
    try {
      session = prepareClaudeSession({
        ...userSettings,
        stateDir: input.runtimeDir,
        server: input.server,
        tileKey: input.tileKey,
        onHook: input.onHook,
        cwd: input.cwd,
        configDir: claudeConfigDir(input.env as NodeJS.ProcessEnv, homedir()),
        version: input.version,
        ...(conversation ? { sessionId: conversation.id, resume: conversation.resume } : {}),
      });
    } catch (error) {
      // The user's settings cannot be merged: Claude gets them as given, and says what is wrong.
      if (error instanceof ClaudeSettingsError) throw new InjectionUnavailable(`your --settings cannot be merged with belltower's hooks (${error.message}), so Claude Code runs with yours alone and its state comes from its title`);
      throw error;
    }
    return {
      ...(own.value !== null ? { userArgs: own.rest } : {}),
      args: session.args,
      env: session.env,
      transcriptPath: session.transcriptPath,
      transcriptFor: (event, payload) => {
        const path = claudeTranscriptSwitch(event, payload);
        return path ? { path } : undefined;
      },
      startsConversation: true,
      dispose: () => session.dispose(),
    };
  },
  evidence: hookEvidence,
  remoteHooks: (options) => new RemoteHooks(options),
};
