/**
 * Claude Code's first-party wiring: a `--settings` file with the hooks its version takes, its
 * session id (so its transcript path is known before it starts, and switched on /clear), and
 * hooks over a remote tile's ssh connection (its settings are one file to send).
 */
import { homedir } from 'node:os';
import { RemoteHooks } from '../../remote/remote-hooks.js';
import { claudeTranscriptSwitch } from '../../sources/hooks/claude-hooks.js';
import { prepareClaudeSession } from '../claude-injection.js';
import { claudeConfigDir } from '../claude-paths.js';
import { hookEvidence } from './wiring.js';
import type { FirstPartyWiring } from './wiring.js';

export const CLAUDE_WIRING: FirstPartyWiring = {
  versionMatters: true,
  inject(input) {
    const conversation = input.conversation;
    const session = prepareClaudeSession({
      stateDir: input.runtimeDir,
      server: input.server,
      tileKey: input.tileKey,
      onHook: input.onHook,
      cwd: input.cwd,
      configDir: claudeConfigDir(input.env as NodeJS.ProcessEnv, homedir()),
      version: input.version,
      ...(conversation ? { sessionId: conversation.id, resume: conversation.resume } : {}),
    });
    return {
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
